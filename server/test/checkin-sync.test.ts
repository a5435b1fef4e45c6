import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkinScans, tickets } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/*
 * Gate devices scanning offline (docs/decisions/offline.md): POST /api/events/:id/checkin/sync decides
 * every scan across devices (the earliest wins, the rest are flagged with who was first), is idempotent
 * on retries, corrects device clocks by `sentAt`, refuses void tickets; GET /api/events/:id/gate-list
 * is what a device keeps for offline checks.
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;
let t: TestServer;
let organiser: Session;
let holder: Session;

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('gatekeeper');
  holder = await t.createUser('ticketholder');
});
afterAll(async () => {
  await t?.close();
});

const minutesAgo = (minutes: number, from = Date.now()) => new Date(from - minutes * 60_000).toISOString();

/** A fresh approved free event of the organiser's with `count` tickets of the holder's; their ids and codes. */
async function eventWithTickets(count: number) {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 3, title: 'Gate Test Night', location: 'KICC, Nairobi' });
  const registered = await t.api('POST', `/api/events/register/${eventId}`, { token: holder.token, body: { tickets: count } });
  expect(registered.status).toBe(200);
  // Issued an hour ago: a scan time is never earlier than its ticket's issue (the tests scan minutes ago).
  await t.db.update(tickets).set({ createdAt: new Date(Date.now() - 3_600_000) }).where(eq(tickets.eventId, eventId));
  const mine = (await t.api('GET', '/api/tickets/mine', { token: holder.token })).body as Array<{ _id: string; code: string; event: { _id: string } }>;
  return { eventId, tickets: mine.filter((ticket) => ticket.event._id === eventId) };
}

const sync = (eventId: string, body: unknown, token = organiser.token) => t.api('POST', `/api/events/${eventId}/checkin/sync`, { token, body });
const gateList = (eventId: string, token = organiser.token) => t.api('GET', `/api/events/${eventId}/gate-list`, { token });

/** A series with two dates and the holder's all-dates pass (a ticket with no date of its own, docs/decisions/event-series.md). */
async function passOnTwoDates(title: string) {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 3, title, location: 'KICC, Nairobi' });
  const added = await t.api('POST', `/api/events/${eventId}/dates`, { token: organiser.token, body: { startsAt: `${new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)}T18:00` } });
  expect(added.status).toBe(201);
  const [first, second] = (await t.api('GET', `/api/events/${eventId}/dates`)).body.dates as Array<{ _id: string }>;
  expect((await t.api('POST', `/api/events/register/${eventId}`, { token: holder.token, body: { dateId: first!._id } })).status).toBe(200);
  await t.db.update(tickets).set({ createdAt: new Date(Date.now() - 3_600_000), dateId: null }).where(eq(tickets.eventId, eventId));
  const [pass] = ((await t.api('GET', '/api/tickets/mine', { token: holder.token })).body as Array<{ _id: string; code: string; event: { _id: string } }>).filter((row) => row.event._id === eventId);
  return { eventId, first: first!, second: second!, pass: pass! };
}

describe('offline scans from several gate devices', () => {
  it('accepts the first scan, flags the second with who was first, and answers a retry the same without recording it again', async () => {
    const { eventId, tickets: [ticket] } = await eventWithTickets(1);
    const now = Date.now();
    const gateA = { sentAt: new Date(now).toISOString(), scans: [{ ticketCode: ticket!.code, scannedAt: minutesAgo(5, now), device: 'Gate A' }] };
    const gateB = { sentAt: new Date(now).toISOString(), scans: [{ ticketCode: ticket!.code, scannedAt: minutesAgo(3, now), device: 'Gate B' }] };

    const first = await sync(eventId, gateA);
    expect(first.status).toBe(200);
    expect(first.body.results).toEqual([expect.objectContaining({ status: 'accepted', ticketId: ticket!._id, device: 'Gate A', ticketCode: ticket!.code })]);
    const acceptedAt = first.body.results[0].checkedInAt as string;
    expect(Math.abs(Date.parse(acceptedAt) - (now - 5 * 60_000))).toBeLessThan(5_000);

    const second = await sync(eventId, gateB);
    expect(second.body.results).toEqual([
      expect.objectContaining({ status: 'duplicate', device: 'Gate B', first: { device: 'Gate A', scannedAt: acceptedAt }, message: `Already checked in at Gate A at ${acceptedAt}.` }),
    ]);

    // Retries (a lost answer): the same answers, nothing new stored.
    expect((await sync(eventId, gateA)).body.results[0]).toMatchObject({ status: 'accepted', checkedInAt: acceptedAt });
    expect((await sync(eventId, gateB)).body.results[0]).toMatchObject({ status: 'duplicate', first: { device: 'Gate A' } });
    expect(await t.db.select().from(checkinScans).where(eq(checkinScans.ticketId, ticket!._id))).toHaveLength(2);

    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, ticket!._id));
    expect(row?.checkedInAt?.toISOString()).toBe(acceptedAt);
    expect(row?.checkedInDevice).toBe('Gate A');

    // Every device sees the same after downloading the list again.
    const list = await gateList(eventId);
    expect(list.status).toBe(200);
    expect(list.body.publicKey).toMatchObject({ algorithm: 'Ed25519', jwk: { crv: 'Ed25519' } });
    expect(list.body.tickets).toEqual([expect.objectContaining({ ticketId: ticket!._id, username: 'ticketholder', checkedInAt: acceptedAt, checkedInDevice: 'Gate A', voidReason: null })]);
    expect(list.body.flagged).toEqual([{ ticketId: ticket!._id, username: 'ticketholder', device: 'Gate B', scannedAt: expect.any(String), first: { device: 'Gate A', scannedAt: acceptedAt } }]);

    // The live check-in says where it was used.
    const live = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: ticket!.code, device: 'Main door' } });
    expect(live.status).toBe(409);
    expect(live.body).toMatchObject({ checkedInAt: acceptedAt, checkedInDevice: 'Gate A' });
  });

  it('orders by scan time, not by arrival: an earlier scan synced later admits the ticket and the other is flagged', async () => {
    const { eventId, tickets: [ticket] } = await eventWithTickets(1);
    const now = Date.now();
    const late = { sentAt: new Date(now).toISOString(), scans: [{ ticketCode: ticket!.code, scannedAt: minutesAgo(2, now), device: 'Gate A' }] };
    expect((await sync(eventId, late)).body.results[0].status).toBe('accepted');
    const early = await sync(eventId, { sentAt: new Date(now).toISOString(), scans: [{ ticketCode: ticket!.code, scannedAt: minutesAgo(9, now), device: 'Gate C' }] });
    expect(early.body.results[0]).toMatchObject({ status: 'accepted', device: 'Gate C' });
    // Gate A asks again (a retry, or its next sync): now it was second.
    expect((await sync(eventId, late)).body.results[0]).toMatchObject({ status: 'duplicate', first: { device: 'Gate C' } });
    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, ticket!._id));
    expect(row?.checkedInDevice).toBe('Gate C');
    expect((await gateList(eventId)).body.flagged).toEqual([expect.objectContaining({ device: 'Gate A', first: expect.objectContaining({ device: 'Gate C' }) })]);
  });

  it("an offline scan from before a live check-in admits the ticket; the live one is flagged", async () => {
    const { eventId, tickets: [ticket] } = await eventWithTickets(1);
    const live = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: ticket!.code, device: 'Main door' } });
    expect(live.status).toBe(200);
    const offline = await sync(eventId, { sentAt: new Date().toISOString(), scans: [{ ticketCode: ticket!.code, scannedAt: minutesAgo(1), device: 'Gate D' }] });
    expect(offline.body.results[0]).toMatchObject({ status: 'accepted' });
    expect((await gateList(eventId)).body.flagged).toEqual([expect.objectContaining({ device: 'Main door', first: expect.objectContaining({ device: 'Gate D' }) })]);
  });

  it("corrects a device's clock by the offset it shows when sending, within the ticket's lifetime and never in the future", async () => {
    const { eventId, tickets: [slow, fast] } = await eventWithTickets(2);
    const now = Date.now();
    // This device's clock is 10 minutes behind: it scanned 1 minute ago by the server's clock.
    const behind = await sync(eventId, { sentAt: minutesAgo(10, now), scans: [{ ticketCode: slow!.code, scannedAt: minutesAgo(11, now), device: 'Slow clock' }] });
    expect(behind.body.clockOffsetMs).toBeGreaterThan(9 * 60_000);
    expect(Math.abs(Date.parse(behind.body.results[0].checkedInAt) - (now - 60_000))).toBeLessThan(5_000);
    // A clock an hour fast, without sentAt: the scan cannot be later than the moment it arrived.
    const ahead = await sync(eventId, { scans: [{ ticketCode: fast!.code, scannedAt: new Date(now + 3_600_000).toISOString(), device: 'Fast clock' }] });
    expect(Date.parse(ahead.body.results[0].checkedInAt)).toBeLessThanOrEqual(Date.now());
  });

  it('refuses void tickets (transferred) with the reason, and forged or other events\' codes as invalid; the gate list carries the void ones', async () => {
    const { eventId, tickets: [ticket] } = await eventWithTickets(1);
    const other = await eventWithTickets(1);
    const friend = await t.createUser('gatefriend');
    expect((await t.api('POST', `/api/tickets/${ticket!._id}/transfer`, { token: holder.token, body: { to: friend.user.username } })).status).toBe(200);
    const forged = `${ticket!.code.slice(0, -4)}${ticket!.code.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const scannedAt = new Date().toISOString();
    const res = await sync(eventId, {
      scans: [
        { ticketCode: ticket!.code, scannedAt, device: 'Gate A' },
        { ticketCode: forged, scannedAt, device: 'Gate A' },
        { ticketCode: other.tickets[0]!.code, scannedAt, device: 'Gate A' },
      ],
    });
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['void', 'invalid', 'invalid']);
    expect(res.body.results[0]).toMatchObject({ voidReason: 'transferred', message: 'This ticket is no longer valid: it was transferred to another holder.' });
    expect(res.body.results[2].message).toBe('This ticket is for a different event.');
    expect(await t.db.select().from(checkinScans).where(eq(checkinScans.eventId, eventId))).toHaveLength(0);

    const list = (await gateList(eventId)).body as { tickets: Array<{ ticketId: string; voidReason: string | null; username: string }> };
    expect(list.tickets.find((row) => row.ticketId === ticket!._id)).toMatchObject({ voidReason: 'transferred', username: 'ticketholder' });
    expect(list.tickets.some((row) => row.username === 'gatefriend' && row.voidReason === null)).toBe(true);
  });

  it('only the organiser or an admin syncs or downloads; bad batches are refused naming the field and change nothing', async () => {
    const { eventId, tickets: [ticket] } = await eventWithTickets(1);
    const scan = { ticketCode: ticket!.code, scannedAt: new Date().toISOString(), device: 'Gate A' };
    expect((await t.api('POST', `/api/events/${eventId}/checkin/sync`, { body: { scans: [scan] } })).status).toBe(401);
    expect((await sync(eventId, { scans: [scan] }, holder.token)).status).toBe(403);
    expect((await gateList(eventId, holder.token)).status).toBe(403);
    expect((await sync('f'.repeat(24), { scans: [scan] })).status).toBe(404);

    const bad: Array<[unknown, string]> = [
      [{ scans: [] }, 'scans'],
      [{}, 'scans'],
      [{ scans: [{ ...scan, scannedAt: 'yesterday' }] }, 'scans.0.scannedAt'],
      [{ scans: [{ ...scan, device: '' }] }, 'scans.0.device'],
      [{ scans: [{ ...scan, device: 'x'.repeat(41) }] }, 'scans.0.device'],
      [{ scans: [scan], sentAt: 'now' }, 'sentAt'],
      [{ scans: Array.from({ length: 501 }, () => scan) }, 'scans'],
    ];
    for (const [body, field] of bad) {
      const res = await sync(eventId, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.field ?? res.body.message).toContain(field.split('.').pop());
    }
    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, ticket!._id));
    expect(row?.checkedInAt).toBeNull();
  });
});

describe('offline scans on an event series', () => {
  it('names the date: a ticket for another date is refused with the online message, the gate list carries each ticket’s date', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 3, title: 'Gate Series Night', location: 'KICC, Nairobi' });
    const added = await t.api('POST', `/api/events/${eventId}/dates`, { token: organiser.token, body: { startsAt: `${new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)}T18:00` } });
    expect(added.status).toBe(201);
    const dates = (await t.api('GET', `/api/events/${eventId}/dates`)).body.dates as Array<{ _id: string }>;
    const [first, second] = dates;
    expect((await t.api('POST', `/api/events/register/${eventId}`, { token: holder.token, body: { dateId: second!._id } })).status).toBe(200);
    await t.db.update(tickets).set({ createdAt: new Date(Date.now() - 3_600_000) }).where(eq(tickets.eventId, eventId));
    const [ticket] = ((await t.api('GET', '/api/tickets/mine', { token: holder.token })).body as Array<{ _id: string; code: string; event: { _id: string } }>).filter((row) => row.event._id === eventId);

    const list = await gateList(eventId);
    expect(list.status).toBe(200);
    expect(list.body.tickets).toEqual([expect.objectContaining({ ticketId: ticket!._id, dateId: second!._id })]);

    const online = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: ticket!.code, dateId: first!._id } });
    expect(online.status).toBe(409);
    const scan = (dateId?: string) => ({ sentAt: new Date().toISOString(), scans: [{ ticketCode: ticket!.code, scannedAt: minutesAgo(2), device: 'Gate A', ...(dateId ? { dateId } : {}) }] });
    const noDate = await sync(eventId, scan());
    expect(noDate.body.results).toEqual([expect.objectContaining({ status: 'invalid', message: expect.stringMatching(/several dates/) })]);
    const wrong = await sync(eventId, scan(first!._id));
    expect(wrong.status).toBe(200);
    expect(wrong.body.results).toEqual([expect.objectContaining({ status: 'invalid', ticketId: ticket!._id, message: online.body.msg })]);
    // Nothing was admitted by the refused scans; the scan for its own date admits.
    expect((await t.db.select().from(checkinScans).where(eq(checkinScans.ticketId, ticket!._id)))).toHaveLength(0);
    const right = await sync(eventId, scan(second!._id));
    expect(right.body.results).toEqual([expect.objectContaining({ status: 'accepted', ticketId: ticket!._id })]);
    // The online door then knows it was admitted on that date.
    const again = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: ticket!.code, dateId: second!._id } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ticket_already_used');
  });

  it('admits an all-dates pass once on each date: offline scans on two dates are both accepted, a second scan on a date is the duplicate', async () => {
    const { eventId, first, second, pass } = await passOnTwoDates('Gate Pass Weekend');
    const scan = (dateId: string, device: string, at: string) => ({ ticketCode: pass!.code, scannedAt: at, device, dateId });
    const onDay1 = scan(first!._id, 'Gate A', minutesAgo(30));
    const onDay2 = scan(second!._id, 'Gate B', minutesAgo(5));

    const day1 = await sync(eventId, { sentAt: new Date().toISOString(), scans: [onDay1] });
    expect(day1.body.results).toEqual([expect.objectContaining({ status: 'accepted', ticketId: pass!._id })]);
    const day2 = await sync(eventId, { sentAt: new Date().toISOString(), scans: [onDay2] });
    expect(day2.body.results).toEqual([expect.objectContaining({ status: 'accepted', ticketId: pass!._id })]);
    // A retry of both answers the same and records nothing new; a second scan on the second date is its duplicate.
    const retry = await sync(eventId, { sentAt: new Date().toISOString(), scans: [onDay1, onDay2] });
    expect(retry.body.results.map((result: { status: string }) => result.status)).toEqual(['accepted', 'accepted']);
    const again = await sync(eventId, { sentAt: new Date().toISOString(), scans: [scan(second!._id, 'Gate C', minutesAgo(1))] });
    expect(again.body.results).toEqual([expect.objectContaining({ status: 'duplicate', first: expect.objectContaining({ device: 'Gate B' }) })]);
    const rows = await t.db.select().from(checkinScans).where(eq(checkinScans.ticketId, pass!._id));
    expect(rows.map((row) => [row.device, row.dateId]).sort()).toEqual([['Gate A', first!._id], ['Gate B', second!._id], ['Gate C', second!._id]]);
    // The ticket keeps its first admission on any date.
    const [row] = await t.db.select().from(tickets).where(eq(tickets.id, pass!._id));
    expect(row?.checkedInDevice).toBe('Gate A');

    // The online door knows both admissions, naming the gate of that date.
    for (const [dateId, device] of [[first!._id, 'Gate A'], [second!._id, 'Gate B']] as const) {
      const online = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: pass!.code, dateId } });
      expect(online.status).toBe(409);
      expect(online.body).toMatchObject({ code: 'ticket_already_used', checkedInDevice: device });
    }
    // The gate list carries each date's admission and flags only the second scan on the second date.
    const list = await gateList(eventId);
    expect(list.status).toBe(200);
    const listed = list.body.tickets.find((ticket: { ticketId: string }) => ticket.ticketId === pass!._id);
    expect(listed.dateId).toBeNull();
    expect(listed.dateCheckins.map((admitted: { dateId: string; device: string }) => [admitted.dateId, admitted.device]).sort()).toEqual(
      [[first!._id, 'Gate A'], [second!._id, 'Gate B']].sort(),
    );
    expect(list.body.flagged).toEqual([expect.objectContaining({ ticketId: pass!._id, device: 'Gate C', dateId: second!._id, first: expect.objectContaining({ device: 'Gate B' }) })]);
  });

  it('an online admission on one date does not make an offline scan on another date a duplicate; an earlier offline scan on the same date still wins', async () => {
    const { eventId, first, second, pass } = await passOnTwoDates('Gate Pass Mixed');

    const online = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: pass!.code, dateId: first!._id, device: 'Desk' } });
    expect(online.status).toBe(200);
    const offline = await sync(eventId, {
      sentAt: new Date().toISOString(),
      scans: [
        { ticketCode: pass!.code, scannedAt: minutesAgo(2), device: 'Gate B', dateId: second!._id },
        // Scanned offline on the first date before the desk's online admission: it admitted first.
        { ticketCode: pass!.code, scannedAt: minutesAgo(20), device: 'Gate A', dateId: first!._id },
      ],
    });
    expect(offline.body.results.map((result: { status: string }) => result.status)).toEqual(['accepted', 'accepted']);
    const list = await gateList(eventId);
    const listed = list.body.tickets.find((ticket: { ticketId: string }) => ticket.ticketId === pass!._id);
    const onFirst = listed.dateCheckins.find((admitted: { dateId: string }) => admitted.dateId === first!._id);
    expect(onFirst.device).toBe('Gate A');
    expect(Date.parse(onFirst.checkedInAt)).toBeLessThan(Date.parse(online.body.ticket.checkedInAt));
    expect(list.body.flagged).toEqual([expect.objectContaining({ ticketId: pass!._id, device: 'Desk', dateId: first!._id, first: expect.objectContaining({ device: 'Gate A' }) })]);
  });
});
