import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamInvitations, teamMembers } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Teams over HTTP (docs/decisions/teams.md): an organiser invites by username or email to one event or to
 * all their events; the invitee accepts or declines; each role may do exactly what its row allows on the
 * organiser's events (checked at the route gate), a removed member loses access on the next request.
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
let organiser: Session;
let gate: Session;
let money: Session;
let stranger: Session;

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('tmorganiser');
  gate = await t.createUser('tmgate');
  money = await t.createUser('tmmoney');
  stranger = await t.createUser('tmstranger');
}, 90_000);
afterAll(async () => {
  await t?.close();
});

const event = () => insertEventRow(t.db, { ownerId: organiser.user._id, days: 10 });
const invite = (as: Session, body: unknown) => t.api('POST', '/api/teams/invitations', { token: as.token, body });
const answer = (as: Session, id: string, what: 'accept' | 'decline') => t.api('POST', `/api/teams/invitations/${id}/${what}`, { token: as.token });
const inviteSubject = /^tmorganiser invites you to their Tukio team$/;

/** A ticket code for the event, held by a fresh guest. */
async function ticketCode(eventId: string, name: string): Promise<string> {
  const guest = await t.createUser(name);
  const registered = await t.api('POST', `/api/events/register/${eventId}`, { token: guest.token, body: { tickets: 1 } });
  expect(registered.status).toBe(200);
  const mine = await t.api('GET', '/api/tickets/mine', { token: guest.token });
  return mine.body.find((ticket: { event: { _id: string } }) => ticket.event._id === eventId).code as string;
}

/** What each organiser-scoped action answers to `as` on the event. */
async function actions(as: Session, eventId: string, code: string) {
  const call = (method: string, path: string, body?: unknown) => t.api(method, path, { token: as.token, body }).then((res) => res.status);
  return {
    checkin: await call('POST', `/api/events/${eventId}/checkin`, { code }),
    gateList: await call('GET', `/api/events/${eventId}/gate-list`),
    attendees: await call('GET', `/api/events/${eventId}/attendees`),
    dashboard: await call('GET', `/api/events/${eventId}/dashboard`),
    statement: await call('GET', `/api/payouts/events/${eventId}/statement`),
    edit: await call('PUT', `/api/events/${eventId}`, { location: 'Sarit Centre, Nairobi' }),
    promoCodes: await call('GET', `/api/events/${eventId}/promo-codes`),
  };
}

describe('teams', () => {
  it('invites gate staff by username to one event: mail with Accept/Decline, the invitee accepts, checks people in there and nothing else', async () => {
    const eventId = await event();
    const otherEvent = await event();
    const sent = await invite(organiser, { invitee: 'tmgate', role: 'gate_staff', eventId });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ role: 'gate_staff', invitee: 'tmgate', status: 'pending', event: { _id: eventId } });
    const mail = await t.smtp.waitFor(gate.user.email, inviteSubject);
    expect(mail.text).toContain(`/profile?invitation=${sent.body._id}&answer=accept`);
    expect(mail.text).toContain(`/profile?invitation=${sent.body._id}&answer=decline`);

    const waiting = await t.api('GET', '/api/teams/invitations/mine', { token: gate.token });
    expect(waiting.body.map((row: { _id: string }) => row._id)).toContain(sent.body._id);
    // Nobody else sees it or can answer it.
    expect((await t.api('GET', '/api/teams/invitations/mine', { token: stranger.token })).body).toEqual([]);
    expect((await answer(stranger, sent.body._id, 'accept')).status).toBe(404);
    expect((await answer(stranger, sent.body._id, 'decline')).status).toBe(404);
    // Before accepting the invitee is a stranger to the event.
    const code = await ticketCode(eventId, 'tmguest1');
    expect((await t.api('POST', `/api/events/${eventId}/checkin`, { token: gate.token, body: { code } })).status).toBe(403);

    const accepted = await answer(gate, sent.body._id, 'accept');
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('accepted');
    expect((await answer(gate, sent.body._id, 'accept')).status).toBe(409);

    expect(await actions(gate, eventId, code)).toEqual({ checkin: 200, gateList: 200, attendees: 200, dashboard: 403, statement: 403, edit: 403, promoCodes: 403 });
    // The role's refusal names it.
    const refused = await t.api('GET', `/api/events/${eventId}/dashboard`, { token: gate.token });
    expect(refused.body).toMatchObject({ code: 'team_role_refused' });
    // Another of the organiser's events is not theirs to help with.
    const otherCode = await ticketCode(otherEvent, 'tmguest2');
    expect((await t.api('POST', `/api/events/${otherEvent}/checkin`, { token: gate.token, body: { code: otherCode } })).status).toBe(403);
    // They cannot change the team.
    expect((await invite(gate, { invitee: 'tmstranger', role: 'gate_staff', eventId })).status).toBe(403);

    const memberships = await t.api('GET', '/api/teams/memberships/mine', { token: gate.token });
    expect(memberships.body).toEqual([
      expect.objectContaining({ role: 'gate_staff', scope: 'event', organiser: { _id: organiser.user._id, username: 'tmorganiser' }, events: [expect.objectContaining({ _id: eventId })] }),
    ]);
  });

  it('invites finance by email to all events: it covers an event made later; finance reads money, never edits or checks in', async () => {
    const sent = await invite(organiser, { invitee: money.user.email.toUpperCase(), role: 'finance', eventId: null });
    expect(sent.status).toBe(201);
    // Invited by email with an account: the organiser's list shows what they typed, never more.
    expect(sent.body).toMatchObject({ invitee: 'tmmoney', event: null });
    await t.smtp.waitFor(money.user.email, inviteSubject);
    expect((await answer(money, sent.body._id, 'accept')).status).toBe(200);

    const later = await event();
    const code = await ticketCode(later, 'tmguest3');
    expect(await actions(money, later, code)).toEqual({ checkin: 403, gateList: 403, attendees: 200, dashboard: 200, statement: 200, edit: 403, promoCodes: 403 });
  });

  it('invites an email with no account as co-organiser: the account made with it later accepts and does all but payouts and the team', async () => {
    const sent = await invite(organiser, { invitee: 'tmhelper@example.com', role: 'co_organiser', eventId: null });
    expect(sent.status).toBe(201);
    expect(sent.body.invitee).toBe('tmhelper@example.com');
    await t.smtp.waitFor('tmhelper@example.com', inviteSubject);
    const helper = await t.createUser('tmhelper');
    const waiting = await t.api('GET', '/api/teams/invitations/mine', { token: helper.token });
    expect(waiting.body.map((row: { _id: string }) => row._id)).toEqual([sent.body._id]);
    expect((await answer(helper, sent.body._id, 'accept')).status).toBe(200);

    const eventId = await event();
    const code = await ticketCode(eventId, 'tmguest4');
    expect(await actions(helper, eventId, code)).toEqual({ checkin: 200, gateList: 200, attendees: 200, dashboard: 200, statement: 403, edit: 200, promoCodes: 200 });
    expect((await invite(helper, { invitee: 'tmstranger', role: 'gate_staff', eventId })).status).toBe(403);
    expect((await invite(helper, { invitee: 'tmstranger', role: 'gate_staff', eventId: null })).status).toBe(403);
  });

  it('declines; a revoked invitation cannot be accepted; a removed member loses access on the next request', async () => {
    const eventId = await event();
    const declined = await invite(organiser, { invitee: 'tmstranger', role: 'co_organiser', eventId });
    expect((await answer(stranger, declined.body._id, 'decline')).status).toBe(200);
    expect((await answer(stranger, declined.body._id, 'accept')).status).toBe(409);

    const revoked = await invite(organiser, { invitee: 'tmstranger', role: 'gate_staff', eventId });
    expect(revoked.status).toBe(201);
    expect((await t.api('DELETE', `/api/teams/invitations/${revoked.body._id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/teams/invitations/${revoked.body._id}`, { token: organiser.token })).status).toBe(200);
    expect((await answer(stranger, revoked.body._id, 'accept')).status).toBe(409);

    const kept = await invite(organiser, { invitee: 'tmstranger', role: 'gate_staff', eventId });
    expect((await answer(stranger, kept.body._id, 'accept')).status).toBe(200);
    const code = await ticketCode(eventId, 'tmguest5');
    expect((await t.api('GET', `/api/events/${eventId}/gate-list`, { token: stranger.token })).status).toBe(200);

    const team = await t.api('GET', `/api/teams?eventId=${eventId}`, { token: organiser.token });
    expect(team.status).toBe(200);
    const member = team.body.members.find((row: { user: { username: string }; event: { _id: string } | null }) => row.user.username === 'tmstranger' && row.event?._id === eventId);
    expect(member).toMatchObject({ role: 'gate_staff' });
    // The team list names accounts by username only.
    expect(JSON.stringify(team.body)).not.toContain(stranger.user.email);
    // Only the organiser removes.
    expect((await t.api('DELETE', `/api/teams/members/${member._id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/teams/members/${member._id}`, { token: organiser.token })).status).toBe(200);
    expect((await t.api('POST', `/api/events/${eventId}/checkin`, { token: stranger.token, body: { code } })).status).toBe(403);
    expect((await t.api('GET', `/api/events/${eventId}/gate-list`, { token: stranger.token })).status).toBe(403);
    expect((await t.api('DELETE', `/api/teams/members/${member._id}`, { token: organiser.token })).status).toBe(404);
  });

  it('refuses bad input with a 4xx and changes nothing', async () => {
    const eventId = await event();
    const strangersEvent = await insertEventRow(t.db, { ownerId: stranger.user._id, days: 5 });
    const before = { invitations: (await t.db.select().from(teamInvitations)).length, members: (await t.db.select().from(teamMembers)).length };
    const cases: Array<[unknown, number]> = [
      [{ invitee: 'tmgate', role: 'boss', eventId }, 400],
      [{ invitee: 'tmgate', role: 'gate_staff', eventId: 'not-an-id' }, 400],
      [{ invitee: '', role: 'gate_staff', eventId }, 400],
      [{ role: 'gate_staff', eventId }, 400],
      [{ invitee: 'tmgate', role: 'gate_staff' }, 400],
      [{ invitee: 'nobody_has_this_name', role: 'gate_staff', eventId }, 404],
      [{ invitee: 'tmorganiser', role: 'gate_staff', eventId }, 400],
      [{ invitee: 'tmgate', role: 'gate_staff', eventId: strangersEvent }, 403],
      [{ invitee: 'tmgate', role: 'gate_staff', eventId: '0123456789abcdef01234567' }, 404],
    ];
    for (const [body, status] of cases) expect((await invite(organiser, body)).status, JSON.stringify(body)).toBe(status);
    // Someone who organises nothing cannot invite to "all events".
    expect((await invite(gate, { invitee: 'tmstranger', role: 'finance', eventId: null })).status).toBe(403);
    expect((await t.api('POST', '/api/teams/invitations/not-an-id/accept', { token: gate.token })).status).toBe(400);
    expect((await t.api('DELETE', '/api/teams/members/0123456789abcdef01234567', { token: organiser.token })).status).toBe(404);
    expect((await t.api('POST', '/api/teams/invitations', { body: { invitee: 'tmgate', role: 'gate_staff', eventId } })).status).toBe(401);
    expect({ invitations: (await t.db.select().from(teamInvitations)).length, members: (await t.db.select().from(teamMembers)).length }).toEqual(before);
    // Inviting the same person to the same scope twice is refused.
    expect((await invite(organiser, { invitee: 'tmgate', role: 'finance', eventId })).status).toBe(201);
    expect((await invite(organiser, { invitee: 'tmgate', role: 'co_organiser', eventId })).status).toBe(409);
  });
});
