import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { teamInvitations } from '../../server/src/db/schema.js';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { accessibilityProblems, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Teams at phone width (390): the organiser invites gate staff by username from the event's edit page; the
 * invitee accepts on their profile, opens the check-in desk for that event from "Events you help with" and
 * checks a ticket in; the organiser removes them (confirmed) and the desk refuses them from the next visit on.
 */

let h: Harness;
let organiser: Session;
let gatekeeper: Session;
let latecomer: Session;
let eventId: string;
let code: string;
const title = 'Eldoret Harvest Fair';

/** Only our server is reachable (the edit page's map asks for tiles): anything else gets an empty answer. */
async function keepOffline(context: BrowserContext) {
  await context.route(
    (url) => !url.href.startsWith(h.server.url),
    (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: '' }),
  );
}

beforeAll(async () => {
  h = await startHarness();
  organiser = await h.server.createUser('chepkoech');
  gatekeeper = await h.server.createUser('gatekeeper');
  const guest = await h.server.createUser('mgeni');
  latecomer = await h.server.createUser('chelewa');
  for (const session of [organiser, gatekeeper, guest, latecomer]) await setAvatar(h, session);
  eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 8, title });
  const registered = await h.server.api('POST', `/api/events/register/${eventId}`, { token: guest.token, body: { tickets: 1 } });
  expect(registered.status).toBe(200);
  const mine = await h.server.api('GET', '/api/tickets/mine', { token: guest.token });
  code = mine.body.find((ticket: { event: { _id: string } }) => ticket.event._id === eventId).code;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('team invitation', () => {
  it('invites gate staff by username, who accepts and checks people in; once removed the desk is refused', async () => {
    const owner = await h.newPage({ width: 390, height: 844 });
    await keepOffline(owner.context);
    await signIn(h, owner.page, 'chepkoech');
    await owner.page.goto(`/edit-event/${eventId}`);
    const team = owner.page.getByRole('region', { name: 'Team for this event' });
    await team.getByLabel('Username or email').fill('gatekeeper');
    await team.getByLabel('Role').selectOption('gate_staff');
    await team.getByRole('button', { name: 'Send invitation' }).click();
    await team.getByText('Invitation sent to gatekeeper.').waitFor();
    await team.getByRole('list', { name: 'Pending invitations' }).getByText('gatekeeper').waitFor();
    expect(await accessibilityProblems(owner.page)).toEqual([]);
    await h.server.smtp.waitFor(gatekeeper.user.email, /invites you to their Tukio team/);

    const helper = await h.newPage({ width: 390, height: 844 });
    await keepOffline(helper.context);
    await signIn(h, helper.page, 'gatekeeper');
    await helper.page.goto('/profile');
    const teams = helper.page.getByRole('region', { name: 'Teams' });
    await teams.getByText(`chepkoech invites you to help with ${title}`).waitFor();
    await teams.getByRole('button', { name: 'Accept' }).click();
    const helping = teams.getByRole('list', { name: 'Events you help with' });
    await helping.getByRole('link', { name: title, exact: true }).waitFor();
    expect(await accessibilityProblems(helper.page)).toEqual([]);
    await helping.getByRole('link', { name: `Check-in desk for ${title}` }).click();
    await helper.page.waitForURL(`**/checkin/${eventId}`);
    await helper.page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await helper.page.getByLabel('Ticket code').fill(code);
    await helper.page.getByRole('button', { name: 'Check in', exact: true }).click();
    await helper.page.locator('.checkin__result-area').getByText('Checked in', { exact: true }).waitFor();

    // The organiser sees the member and removes them, after confirming.
    await owner.page.reload();
    const members = owner.page.getByRole('list', { name: 'Members' });
    await members.getByText('gatekeeper').waitFor();
    await members.getByRole('button', { name: 'Remove' }).click();
    const confirm = owner.page.getByRole('dialog', { name: 'Remove from the team?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await owner.page.getByText('Nobody has joined yet.').waitFor();

    // The server refuses at once; the desk says so on the next visit.
    const refused = await h.server.api('POST', `/api/events/${eventId}/checkin`, { token: gatekeeper.token, body: { code } });
    expect(refused.status).toBe(403);
    await helper.page.goto(`/checkin/${eventId}`);
    await helper.page.getByText('Only the organiser can check in tickets.').waitFor();

    expect(seriousErrors(owner.errors)).toEqual([]);
    expect(seriousErrors(helper.errors)).toEqual([]);
  });

  it('an expired invitation shows as expired to both; the organiser resends it and the invitee can accept again', async () => {
    const sent = await h.server.api('POST', '/api/teams/invitations', { token: organiser.token, body: { invitee: 'chelewa', role: 'finance', eventId } });
    expect(sent.status).toBe(201);
    // Fourteen days pass.
    await h.server.db.update(teamInvitations).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(teamInvitations.id, sent.body._id));

    const invitee = await h.newPage({ width: 390, height: 844 });
    await keepOffline(invitee.context);
    await signIn(h, invitee.page, 'chelewa');
    await invitee.page.goto('/profile');
    const teams = invitee.page.getByRole('region', { name: 'Teams' });
    await teams.getByText('Expired: ask chepkoech to send it again.').waitFor();
    expect(await teams.getByRole('button', { name: 'Accept' }).count()).toBe(0);

    const owner = await h.newPage({ width: 390, height: 844 });
    await keepOffline(owner.context);
    await signIn(h, owner.page, 'chepkoech');
    await owner.page.goto(`/edit-event/${eventId}`);
    const pending = owner.page.getByRole('list', { name: 'Pending invitations' });
    await pending.getByText('Expired: no longer accepted. Resend it to give it 14 more days.').waitFor();
    expect(await accessibilityProblems(owner.page)).toEqual([]);
    await pending.getByRole('button', { name: 'Resend the invitation to chelewa' }).click();
    await owner.page.getByText('Invitation sent to chelewa again.').waitFor();
    await pending.getByText(/^Can be accepted until /).waitFor();
    await expect.poll(async () => h.server.smtp.inbox.filter((mail) => mail.to === latecomer.user.email && /invites you to their Tukio team/.test(mail.subject)).length, { timeout: 30_000 }).toBe(2);

    await invitee.page.reload();
    await teams.getByRole('button', { name: 'Accept' }).click();
    await teams.getByRole('list', { name: 'Events you help with' }).getByRole('link', { name: title, exact: true }).waitFor();
    expect(seriousErrors(owner.errors)).toEqual([]);
    expect(seriousErrors(invitee.errors)).toEqual([]);
  });
});
