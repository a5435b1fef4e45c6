import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * The event page paints from `fetch` (axios loads only on the first call that needs it), still sends
 * the signed-in user's token (an organiser sees their own pending event), and a 401 to a call made
 * with the current token ends the session.
 */

let h: Harness;
let organiser: Session;

beforeAll(async () => {
  h = await startHarness();
  organiser = await h.server.createUser('wairimu');
  await setAvatar(h, organiser);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const isAxiosChunk = (url: string) => /\/assets\/axios-[^/]*\.js$/.test(url);

describe('event page first load and session', () => {
  it('shows a visitor the event without downloading axios', async () => {
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 5, title: 'Ngong Hills Sunrise Walk' });
    const { page, errors } = await h.newPage({ width: 412, height: 900 });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { level: 1, name: 'Ngong Hills Sunrise Walk' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.filter(isAxiosChunk)).toEqual([]);
    expect(requested.some((url) => url.endsWith(`/api/events/${eventId}`))).toBe(true);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('shows the organiser their pending event, and ends the session when the token is refused', async () => {
    const pendingId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 8, status: 'pending', title: 'Karen Blixen Garden Tea' });
    const { page } = await h.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await loginThroughUi(page, organiser.user.username);
    // The login form is an axios call: the library arrived when it was needed.
    expect(requested.filter(isAxiosChunk)).toHaveLength(1);

    await page.goto(`/events/${pendingId}`);
    await page.getByRole('heading', { level: 1, name: 'Karen Blixen Garden Tea' }).waitFor();
    await page.getByText('Pending approval: only you and admins can see this event').waitFor();

    // Signed out everywhere (e.g. from another device): the stored token is no longer accepted. Public
    // reads treat it as no token (the pending event is then not found); the first call that needs the
    // session (the profile, through the lazily loaded axios client) ends it with a clear message.
    const token = await page.evaluate(() => window.localStorage.getItem('token'));
    expect((await h.server.api('POST', '/api/auth/logout', { token: token! })).status).toBe(200);
    await page.reload();
    await page.getByText(/not found/i).first().waitFor();
    await page.getByRole('link', { name: /profile/i }).first().click();
    await page.getByText('Your session has expired. Please log in again.').waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  });
});
