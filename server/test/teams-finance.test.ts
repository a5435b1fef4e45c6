import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from './helpers/events.js';
import { payFor } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Finance on an organiser's team reads the organiser's payouts (docs/decisions/teams.md): a finance member for
 * ALL the organiser's events reads the payouts summary (GET /api/payouts/organisers/:organiserId) and every
 * event's statement, read-only; a finance member for one event reads that event's statement only; co-organisers,
 * gate staff and strangers are refused; a removed member is refused on the next request.
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
let organiser: Session;
let wholeFinance: Session;
let oneEventFinance: Session;
let coOrganiser: Session;
let gate: Session;
let stranger: Session;
let buyer: Session;
let soldEvent: string;
let otherEvent: string;

async function join(member: Session, username: string, role: string, eventId: string | null) {
  const sent = await t.api('POST', '/api/teams/invitations', { token: organiser.token, body: { invitee: username, role, eventId } });
  expect(sent.status).toBe(201);
  expect((await t.api('POST', `/api/teams/invitations/${sent.body._id}/accept`, { token: member.token })).status).toBe(200);
}

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('tforganiser');
  wholeFinance = await t.createUser('tfwhole');
  oneEventFinance = await t.createUser('tfone');
  coOrganiser = await t.createUser('tfco');
  gate = await t.createUser('tfgate');
  stranger = await t.createUser('tfstranger');
  buyer = await t.createUser('tfbuyer');
  soldEvent = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 1000, title: 'Finance night' });
  otherEvent = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 30, title: 'Second night' });
  await payFor(t, buyer.token, soldEvent, { quantity: 2, phone: '254711222333' });
  await join(wholeFinance, 'tfwhole', 'finance', null);
  await join(oneEventFinance, 'tfone', 'finance', soldEvent);
  await join(coOrganiser, 'tfco', 'co_organiser', null);
  await join(gate, 'tfgate', 'gate_staff', null);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const organiserPayouts = (as: Session, organiserId = organiser.user._id) => t.api('GET', `/api/payouts/organisers/${organiserId}`, { token: as.token });
const statement = (as: Session, eventId: string) => t.api('GET', `/api/payouts/events/${eventId}/statement`, { token: as.token });

describe('finance on the team reads the organiser’s payouts', () => {
  it('a finance member for all events reads the same summary the organiser does, and every event’s statement (JSON and CSV)', async () => {
    const own = await t.api('GET', '/api/payouts', { token: organiser.token });
    expect(own.status).toBe(200);
    const read = await organiserPayouts(wholeFinance);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(own.body);
    expect(read.body.events.map((row: { eventId: string }) => row.eventId)).toContain(soldEvent);
    // Their own /api/payouts is still their own (empty), not the organiser's.
    expect((await t.api('GET', '/api/payouts', { token: wholeFinance.token })).body.events).toEqual([]);

    const sold = await statement(wholeFinance, soldEvent);
    expect(sold.status).toBe(200);
    expect(sold.body).toMatchObject({ eventId: soldEvent, grossSales: 2000 });
    expect((await statement(wholeFinance, otherEvent)).status).toBe(200);
    const csv = await t.api('GET', `/api/payouts/events/${soldEvent}/statement?format=csv`, { token: wholeFinance.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.body).toContain('"Gross sales","2000"');
    // An event made later is covered at once.
    const later = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 40 });
    expect((await statement(wholeFinance, later)).status).toBe(200);
  });

  it('the organiser and an admin read it too; the organiser id must be the membership’s: another organiser’s payouts are refused', async () => {
    expect((await organiserPayouts(organiser)).status).toBe(200);
    const admin = await t.loginAdmin();
    expect((await organiserPayouts(admin)).status).toBe(200);
    // The finance member names someone else's id: not on that organiser's team.
    expect((await organiserPayouts(wholeFinance, stranger.user._id)).status).toBe(403);
    expect((await organiserPayouts(wholeFinance, 'not-an-id')).status).toBe(400);
  });

  it('a finance member for one event reads that event’s statement only, and is refused the organiser-wide view', async () => {
    expect((await statement(oneEventFinance, soldEvent)).status).toBe(200);
    expect((await statement(oneEventFinance, otherEvent)).status).toBe(403);
    const wide = await organiserPayouts(oneEventFinance);
    expect(wide.status).toBe(403);
    expect(wide.body.code).toBe('team_role_refused');
  });

  it('co-organisers, gate staff and strangers are refused the payouts view and the statements', async () => {
    for (const who of [coOrganiser, gate]) {
      const refused = await organiserPayouts(who);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('team_role_refused');
      expect((await statement(who, soldEvent)).status).toBe(403);
    }
    expect((await organiserPayouts(stranger)).status).toBe(403);
    expect((await statement(stranger, soldEvent)).status).toBe(403);
    expect((await t.api('GET', `/api/payouts/organisers/${organiser.user._id}`)).status).toBe(401);
  });

  it('finance only reads: no payout destination, early-payout trust or team change for the organiser', async () => {
    const before = (await t.api('GET', '/api/payout-account', { token: organiser.token })).body;
    // The payout account routes are the caller's own: a finance member is not an organiser there.
    const change = await t.api('POST', '/api/payout-account', {
      token: wholeFinance.token,
      body: { password: 'irrelevant-password', destination: { method: 'mpesa', phone: '254700000001' } },
    });
    expect(change.status).toBeGreaterThanOrEqual(400);
    expect(change.status).toBeLessThan(500);
    expect((await t.api('POST', '/api/payout-account/confirm', { token: wholeFinance.token, body: { code: '123456' } })).status).toBeGreaterThanOrEqual(400);
    expect((await t.api('GET', '/api/payout-account', { token: organiser.token })).body).toEqual(before);
    expect((await t.api('PUT', `/api/admin/users/${organiser.user._id}/early-payouts`, { token: wholeFinance.token, body: { allowed: true } })).status).toBe(403);
    const invite = await t.api('POST', '/api/teams/invitations', { token: wholeFinance.token, body: { invitee: 'tfstranger', role: 'finance', eventId: null } });
    expect(invite.status).toBe(403);
    const invited = await t.api('POST', '/api/teams/invitations', { token: wholeFinance.token, body: { invitee: 'tfstranger', role: 'finance', eventId: soldEvent } });
    expect(invited.status).toBe(403);
    // The organiser-wide route takes no writes.
    expect((await t.api('POST', `/api/payouts/organisers/${organiser.user._id}`, { token: wholeFinance.token, body: {} })).status).toBe(404);
  });

  it('a removed finance member is refused on the very next request', async () => {
    const member = await t.createUser('tfleaving');
    await join(member, 'tfleaving', 'finance', null);
    expect((await organiserPayouts(member)).status).toBe(200);
    const team = await t.api('GET', '/api/teams', { token: organiser.token });
    const row = (team.body.members as Array<{ _id: string; user: { _id: string } }>).find((one) => one.user._id === member.user._id)!;
    expect((await t.api('DELETE', `/api/teams/members/${row._id}`, { token: organiser.token })).status).toBe(200);
    expect((await organiserPayouts(member)).status).toBe(403);
    expect((await statement(member, soldEvent)).status).toBe(403);
  });
});
