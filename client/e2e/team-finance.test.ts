import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { payFor } from '../../server/test/helpers/refunds.js';
import { accessibilityProblems, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Finance on a team at phone width (390): a finance member for all of an organiser's events opens the organiser's
 * payouts from "Events you help with" on /profile: the balances and each event's statement, read-only (no payout
 * destination, no early payouts, no team). A finance member for one event gets no such link.
 */

let h: Harness;
let organiser: Session;
let treasurer: Session;
let oneEvent: Session;
let eventId: string;
const title = 'Nakuru Flamingo Gala';

async function join(member: Session, role: string, scope: string | null) {
  const sent = await h.server.api('POST', '/api/teams/invitations', { token: organiser.token, body: { invitee: member.user.username, role, eventId: scope } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  expect((await h.server.api('POST', `/api/teams/invitations/${sent.body._id}/accept`, { token: member.token })).status).toBe(200);
}

beforeAll(async () => {
  h = await startHarness();
  organiser = await h.server.createUser('wanjiku');
  treasurer = await h.server.createUser('mhazini');
  oneEvent = await h.server.createUser('mhasibu');
  for (const session of [organiser, treasurer, oneEvent]) await setAvatar(h, session);
  eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 12, price: 1500, title });
  await payFor(h.server, undefined, eventId, { phone: '254722555111', quantity: 2 });
  await join(treasurer, 'finance', null);
  await join(oneEvent, 'finance', eventId);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('finance on the team', () => {
  it('a finance member for all events opens the organiser’s payouts read-only from their profile, at phone width', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'mhazini');
    await page.goto('/profile');
    const teams = page.getByRole('region', { name: 'Teams' });
    const payoutsLinks = teams.getByRole('list', { name: 'Payouts you can read' });
    await payoutsLinks.getByText('Read-only, for all of wanjiku’s events.').or(payoutsLinks.getByText("Read-only, for all of wanjiku's events.")).waitFor();
    await payoutsLinks.getByRole('link', { name: /wanjiku.s payouts/ }).click();
    await page.waitForURL(`**/payouts/organisers/${organiser.user._id}`);
    await page.getByRole('heading', { name: /Organiser.s payouts/, level: 1 }).waitFor();
    await page.getByText(/wanjiku.s ticket sales have earned/).waitFor();

    const balances = page.getByRole('region', { name: 'Balances' });
    await balances.getByRole('term').filter({ hasText: 'Available' }).waitFor();
    const card = balances.getByRole('article', { name: title });
    await card.getByRole('button', { name: 'View statement' }).click();
    const statement = card.getByRole('region', { name: `Statement: ${title}` });
    await statement.getByRole('rowheader', { name: 'Gross sales' }).waitFor();
    await statement.getByRole('button', { name: 'Download CSV' }).waitFor();

    // Read-only: nothing that changes where money goes, asks for early payouts or changes the team.
    await expect.poll(() => page.getByRole('region', { name: 'Where to be paid' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /destination|early|invite|remove/i }).count()).toBe(0);
    expect(await page.getByLabel('Username or email').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('a finance member for one event gets no link to the organiser’s payouts, and the view refuses them', async () => {
    const { page } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'mhasibu');
    await page.goto('/profile');
    const teams = page.getByRole('region', { name: 'Teams' });
    await teams.getByRole('list', { name: 'Events you help with' }).getByRole('link', { name: title, exact: true }).waitFor();
    expect(await teams.getByRole('list', { name: 'Payouts you can read' }).count()).toBe(0);
    await page.goto(`/payouts/organisers/${organiser.user._id}`);
    await page.getByRole('region', { name: 'Balances' }).getByText(/does not allow that/).waitFor();
    expect(await page.getByRole('article', { name: title }).count()).toBe(0);
  });
});
