import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, teamInvitations } from '../src/db/schema.js';
import { INVITATION_TTL_DAYS } from '../src/modules/teams/teams.service.js';
import { insertEventRow } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Team invitations expire (docs/decisions/teams.md): one can be accepted for 14 days after it was sent; past that it
 * shows as expired to the organiser and to the invitee and cannot be accepted, until the organiser resends it (a new
 * expiry, the mail again; a double click sends one mail, not two).
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
let organiser: Session;
let invitee: Session;
let stranger: Session;

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('ixorganiser');
  invitee = await t.createUser('ixinvitee');
  stranger = await t.createUser('ixstranger');
}, 240_000);
afterAll(async () => {
  await t?.close();
});

const DAY = 24 * 60 * 60 * 1000;
const subject = /^ixorganiser invites you to their Tukio team$/;
const invite = async () => {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10 });
  const sent = await t.api('POST', '/api/teams/invitations', { token: organiser.token, body: { invitee: 'ixinvitee', role: 'gate_staff', eventId } });
  expect(sent.status).toBe(201);
  return sent.body as { _id: string; status: string; expiresAt: string };
};
const resend = (id: string, as: Session = organiser) => t.api('POST', `/api/teams/invitations/${id}/resend`, { token: as.token });
const mailsFor = async (id: string) => (await t.db.select().from(mailOutbox).where(like(mailOutbox.purpose, `team invitation ${id}%`))).length;
/** Moves the invitation's expiry into the past, as 14 days passing would. */
const expire = (id: string) => t.db.update(teamInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(teamInvitations.id, id));
const listed = async (id: string) => ({
  organiser: ((await t.api('GET', '/api/teams', { token: organiser.token })).body.invitations as Array<{ _id: string; status: string }>).find((row) => row._id === id)?.status,
  invitee: ((await t.api('GET', '/api/teams/invitations/mine', { token: invitee.token })).body as Array<{ _id: string; status: string }>).find((row) => row._id === id)?.status,
});

describe('team invitation expiry and resend', () => {
  it('expires 14 days after sending: the mail says until when, and the answer carries it', async () => {
    expect(INVITATION_TTL_DAYS).toBe(14);
    const before = Date.now();
    const sent = await invite();
    expect(sent.status).toBe('pending');
    const expiresAt = Date.parse(sent.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 14 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 14 * DAY + 1000);
    const mail = await t.smtp.waitFor(invitee.user.email, subject);
    expect(mail.text).toMatch(/can be accepted until \d{4}-\d{2}-\d{2} \d{2}:\d{2} Nairobi time/);
    expect(await listed(sent._id)).toEqual({ organiser: 'pending', invitee: 'pending' });
  });

  it('an expired invitation shows as expired on both sides and cannot be accepted', async () => {
    const sent = await invite();
    await expire(sent._id);
    expect(await listed(sent._id)).toEqual({ organiser: 'expired', invitee: 'expired' });
    const accepted = await t.api('POST', `/api/teams/invitations/${sent._id}/accept`, { token: invitee.token });
    expect(accepted.status).toBe(409);
    expect(accepted.body.code).toBe('team_invitation_expired');
    const membership = await t.api('GET', '/api/teams/memberships/mine', { token: invitee.token });
    expect(membership.body).toEqual([]);
    // Declining an expired one is refused the same way: there is nothing left to answer.
    expect((await t.api('POST', `/api/teams/invitations/${sent._id}/decline`, { token: invitee.token })).body.code).toBe('team_invitation_expired');
  });

  it('resending an expired invitation gives it a new expiry and mails it again; then it can be accepted', async () => {
    const sent = await invite();
    await expire(sent._id);
    expect(await mailsFor(sent._id)).toBe(1);
    const before = Date.now();
    const again = await resend(sent._id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ _id: sent._id, status: 'pending' });
    expect(Date.parse(again.body.expiresAt)).toBeGreaterThanOrEqual(before + 14 * DAY - 1000);
    expect(await mailsFor(sent._id)).toBe(2);
    expect(await listed(sent._id)).toEqual({ organiser: 'pending', invitee: 'pending' });
    const accepted = await t.api('POST', `/api/teams/invitations/${sent._id}/accept`, { token: invitee.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('accepted');
  });

  it('a double click on Resend sends one mail, not two', async () => {
    const sent = await invite();
    await expire(sent._id);
    const [one, two] = await Promise.all([resend(sent._id), resend(sent._id)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.body.expiresAt).toBe(two.body.expiresAt);
    expect(await mailsFor(sent._id)).toBe(2);
    // And a click a moment later still changes nothing.
    const three = await resend(sent._id);
    expect(three.status).toBe(200);
    expect(await mailsFor(sent._id)).toBe(2);
  });

  it('only the organiser resends, and only a pending (or expired) invitation', async () => {
    const sent = await invite();
    expect((await resend(sent._id, stranger)).status).toBe(404);
    expect((await resend(sent._id, invitee)).status).toBe(404);
    expect((await t.api('DELETE', `/api/teams/invitations/${sent._id}`, { token: organiser.token })).status).toBe(200);
    const revoked = await resend(sent._id);
    expect(revoked.status).toBe(409);
    expect(revoked.body.code).toBe('team_invitation_closed');
    expect(await mailsFor(sent._id)).toBe(1);
  });
});
