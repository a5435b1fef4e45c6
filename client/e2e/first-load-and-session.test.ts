import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveTicket, insertEvent } from '../../server/test/helpers/community.js';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * A deep link to an approved event arrives with its header, image, title, date and venue already in
 * the HTML (server-rendered by client/src/prerender.tsx) and with the event's data, so the page
 * does not wait for the API. Pages the server cannot render (a pending event) are read with the
 * signed-in user's token, and a 401 to a call made with the current token ends the session. A
 * signed-in page opened directly (/profile, /forum/:id) asks for each of its reads once.
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

describe('event page first load and session', () => {
  it('sends the event page rendered: header and hero in the HTML, styled, for anyone', async () => {
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 6, title: 'Lake Naivasha Boat Ride' });
    const html = await (await fetch(`${h.server.url}/events/${eventId}`)).text();
    const root = /<div id="root">([\s\S]*)<\/div>\s*<noscript>/.exec(html)?.[1] ?? '';
    expect(root).toContain('<h1>Lake Naivasha Boat Ride</h1>');
    expect(root).toContain('class="event-hero__image"');
    expect(root).toContain('href="/events"'); // the header's links
    // Nothing about the visitor: a signed-in user must not see 'Login/Signup' before the app loads.
    expect(root).not.toContain('Login/Signup');
    expect(root).not.toContain('Profile');
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/event-detail-[^"]+\.css">/);

    // With scripts off the reader still sees it, styled (the hero is dark with light text).
    const { page } = await h.newPage({ width: 412, height: 900, javaScriptEnabled: false });
    await page.goto(`/events/${eventId}`);
    const heading = page.getByRole('heading', { level: 1, name: 'Lake Naivasha Boat Ride' });
    expect(await heading.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(255, 255, 255)');
    // In Kiswahili for a reader whose browser (or choice) says so, <html lang> included.
    const kiswahili = await (await fetch(`${h.server.url}/events/${eventId}`, { headers: { 'Accept-Language': 'sw-KE,sw;q=0.9' } })).text();
    expect(kiswahili).toMatch(/<html lang="sw"/);
    expect(kiswahili).toContain('>Matukio<');
  });

  it('shows a visitor the event without asking the API for it', async () => {
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 5, title: 'Ngong Hills Sunrise Walk' });
    const otherId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 7, title: 'Ngong Road Forest Cycle' });
    const { page, errors } = await h.newPage({ width: 412, height: 900 });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { level: 1, name: 'Ngong Hills Sunrise Walk' }).waitFor();
    // The app has rendered over the shell: the ticket box and the header's sign-in link are there.
    await page.getByRole('heading', { name: 'Tickets' }).waitFor();
    await page.locator('a', { hasText: 'Login/Signup' }).waitFor({ state: 'attached' }); // in the closed phone menu
    await page.waitForLoadState('networkidle');
    expect(requested.filter((url) => url.endsWith(`/api/events/${eventId}`))).toEqual([]);
    expect(requested.some((url) => url.endsWith(`/api/events/incrementOpenedCount/${eventId}`))).toBe(true);

    // The embedded data serves the first page only: another event opened in the app is asked for.
    await page.getByRole('link', { name: /Ngong Road Forest Cycle/ }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Ngong Road Forest Cycle' }).waitFor();
    expect(requested.some((url) => url.endsWith(`/api/events/${otherId}`))).toBe(true);
    // And back to the first one, in the same tab: asked for again, not the stale embedded copy.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Ngong Hills Sunrise Walk' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.filter((url) => url.endsWith(`/api/events/${eventId}`)).length).toBe(1);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('shows the /events list from the page itself, then asks the API when the search changes', async () => {
    const word = `Kericho${Date.now().toString(36)}`;
    await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 4, title: `${word} Tea Estate Walk` });
    await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 6, title: `${word} Tea Tasting` });
    const { page, errors } = await h.newPage({ width: 412, height: 900 });
    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/events') searches.push(url.search);
    });
    await page.goto(`/events?q=${word}`);
    await page.getByRole('heading', { name: `${word} Tea Estate Walk` }).waitFor();
    await page.getByRole('heading', { name: `${word} Tea Tasting` }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(searches).toEqual([]);

    // A new search asks the API; so does the first one again later (the page's copy served once).
    // Clicked, not check(): the box follows the address, which changes just after the click.
    await page.getByLabel('Free events only').click();
    await page.waitForURL(/free=true/);
    await expect.poll(() => searches.length).toBe(1);
    expect(searches[0]).toBe(`?q=${word}&free=true&limit=12`);
    await page.getByLabel('Free events only').click();
    await page.waitForURL((url) => !url.search.includes('free'));
    await page.getByRole('heading', { name: `${word} Tea Tasting` }).waitFor();
    await expect.poll(() => searches).toEqual([`?q=${word}&free=true&limit=12`, `?q=${word}&limit=12`]);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('shows a signed-in reader the event, checking their role for the door', async () => {
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 5, title: 'Karura Forest Night Walk' });
    const reader = await h.server.createUser('kiprotich');
    await setAvatar(h, reader);
    const { page, errors } = await h.newPage({ width: 412, height: 900 });
    await loginThroughUi(page, reader.user.username);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { level: 1, name: 'Karura Forest Night Walk' }).waitFor();
    await page.getByRole('heading', { name: 'Tickets' }).waitFor();
    await page.waitForLoadState('networkidle');
    // The role is asked (an admin may check tickets in).
    expect(requested.some((url) => url.endsWith(`/api/auth/user/${reader.user._id}`))).toBe(true);
    expect(await page.getByRole('link', { name: /check.?in/i }).count()).toBe(0);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('shows the organiser their pending event, and ends the session when the token is refused', async () => {
    const pendingId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 8, status: 'pending', title: 'Karen Blixen Garden Tea' });
    const { page } = await h.newPage();
    await loginThroughUi(page, organiser.user.username);

    await page.goto(`/events/${pendingId}`);
    await page.getByRole('heading', { level: 1, name: 'Karen Blixen Garden Tea' }).waitFor();
    await page.getByText('Pending approval: only you and admins can see this event').waitFor();

    // Signed out everywhere (e.g. from another device): the stored token is no longer accepted. Public
    // reads treat it as no token (the pending event is then not found); the first call that needs the
    // session (the profile) ends it with a clear message.
    const token = await page.evaluate(() => window.localStorage.getItem('token'));
    expect((await h.server.api('POST', '/api/auth/logout', { token: token! })).status).toBe(200);
    await page.reload();
    await page.getByText(/not found/i).first().waitFor();
    await page.getByRole('link', { name: /profile/i }).first().click();
    await page.getByText('Your session has expired. Please log in again.').waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  });
  it("renders a signed-in page opened directly with its data, asking for each read once", async () => {
    const amani = await h.server.createUser('amani');
    await setAvatar(h, amani);
    const eventId = await insertEvent(h.server, { daysFromNow: -3, title: 'Kilifi Beach Clean-up' });
    await giveTicket(h.server, eventId, amani.user._id);
    const created = await h.server.api('POST', '/api/forums/add-thread', {
      token: amani.token,
      body: { title: 'Who brought the gloves?', eventId, userId: amani.user._id },
    });
    expect(created.status).toBe(201);
    const threadId: string = created.body.thread._id;

    const { page, errors } = await h.newPage({ width: 412, height: 900 });
    await loginThroughUi(page, amani.user.username);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const asked = (path: string) => requested.filter((url) => url === path).length;

    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Kilifi Beach Clean-up' }).waitFor();
    await page.waitForLoadState('networkidle');
    const profileReads = [`/api/auth/user/${amani.user._id}`, '/api/tickets/mine/paged', `/api/events/user/${amani.user._id}/paged`, '/api/messages/blocks', '/api/moderation/reports/mine'];
    for (const path of profileReads) expect(asked(path), path).toBe(1);
    requested.length = 0;
    await page.goto(`/forum/${threadId}`);
    await page.getByRole('heading', { level: 1, name: 'Who brought the gloves?' }).waitFor();
    await page.getByLabel('Join the discussion').waitFor();
    await page.waitForLoadState('networkidle');
    expect(asked(`/api/forums/thread/${threadId}/posts`)).toBe(1);
    expect(asked(`/api/events/${eventId}`)).toBe(1); // who may post: asked once the thread named its event

    // Back on it after a navigation, it is asked for again.
    await page.getByRole('link', { name: '← All discussions for this event' }).click();
    await page.locator('.thread-card', { hasText: 'Who brought the gloves?' }).getByRole('link', { name: 'View Discussion' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Who brought the gloves?' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(asked(`/api/forums/thread/${threadId}/posts`)).toBe(2);

    // A refused token on a page's first read ends the session.
    const token = await page.evaluate(() => window.localStorage.getItem('token'));
    expect((await h.server.api('POST', '/api/auth/logout', { token: token! })).status).toBe(200);
    await page.goto('/profile');
    await page.getByText('Your session has expired. Please log in again.').waitFor();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    expect(seriousErrors(errors)).toEqual([]);
  });
});
