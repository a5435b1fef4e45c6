import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, tickets } from '../src/db/schema.js';
import { createRefundLedger } from '../src/modules/checkout/refunds.service.js';
import { createEvent, insertEventRow } from './helpers/events.js';
import { payFor, refundsOf } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * A holder cancels their own tickets (POST /api/tickets/cancel) within the event's refund policy: the
 * tickets void, seats freed, paid ones refunded by the policy; outside it, 409 with the reason and no change.
 */

type Session = { token: string; user: { _id: string; email: string; username: string } };
type MyTicket = { _id: string; code: string; voidReason: string | null; pricePaid: number; selfCancel: { allowed: boolean; reason: string | null; refundPercent: number }; event: { _id: string; refundPolicy: unknown } };

let t: TestServer;
let organiser: Session;
let amani: Session;
let baraka: Session;

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('scorganiser');
  amani = await t.createUser('scamani');
  baraka = await t.createUser('scbaraka');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Policy = { kind: 'none' | 'full' | 'partial'; percent?: number | null; untilHours?: number };
async function eventWith(policy: Policy, options: { days?: number; price?: number; capacity?: number | null } = {}) {
  const id = await insertEventRow(t.db, { ownerId: organiser.user._id, days: options.days ?? 10, price: options.price ?? 500, capacity: options.capacity ?? 50 });
  await t.db.update(events).set({ refundPolicy: policy.kind, refundPercent: policy.percent ?? null, refundUntilHours: policy.untilHours ?? 0 }).where(eq(events.id, id));
  return id;
}
const mine = async (as: Session, eventId: string): Promise<MyTicket[]> =>
  (await t.api('GET', '/api/tickets/mine', { token: as.token })).body.filter((ticket: MyTicket) => ticket.event._id === eventId);
const cancelTickets = (as: Session | undefined, ticketIds: string[]) => t.api('POST', '/api/tickets/cancel', { token: as?.token, body: { ticketIds } });
const ticketRows = (eventId: string) => t.db.select().from(tickets).where(eq(tickets.eventId, eventId)).orderBy(tickets.id);
const seats = async (eventId: string) => {
  const body = (await t.api('GET', `/api/events/${eventId}`)).body;
  return { ticketsSold: body.ticketsSold, seatsLeft: body.seatsLeft };
};
/** Everything a refused cancel must leave as it was. */
const snapshot = async (eventId: string) => ({ tickets: await ticketRows(eventId), refunds: await refundsOf(t, eventId), seats: await seats(eventId) });

describe('refund policy on events', () => {
  it('defaults to no refunds, is set on create and edit, and refuses what is out of range', async () => {
    const plain = await createEvent(t, organiser.token);
    expect(plain.refundPolicy).toEqual({ kind: 'none', percent: null, untilHours: 0 });
    const partial = await createEvent(t, organiser.token, { isPaid: true, ticketPrice: 800, refundPolicy: { kind: 'partial', percent: 60, untilHours: 48 } });
    expect(partial.refundPolicy).toEqual({ kind: 'partial', percent: 60, untilHours: 48 });
    const edited = await t.api('PUT', `/api/events/${partial._id}`, { token: organiser.token, body: { refundPolicy: { kind: 'full', percent: 60, untilHours: 24 } } });
    expect(edited.status).toBe(200);
    // A percent means nothing for a full refund, so it is not kept.
    expect(edited.body.refundPolicy).toEqual({ kind: 'full', percent: null, untilHours: 24 });
    expect(edited.body.reReview).toBe(false);

    for (const [policy, field] of [
      [{ kind: 'partial', untilHours: 1 }, 'percent'],
      [{ kind: 'partial', percent: 100 }, 'percent'],
      [{ kind: 'partial', percent: 0 }, 'percent'],
      [{ kind: 'full', untilHours: 721 }, 'untilHours'],
      [{ kind: 'full', untilHours: -1 }, 'untilHours'],
      [{ kind: 'some' }, 'kind'],
    ] as const) {
      const res = await t.api('PUT', `/api/events/${partial._id}`, { token: organiser.token, body: { refundPolicy: policy } });
      expect(res.status, JSON.stringify(policy)).toBe(400);
      expect(res.body.field ?? res.body.msg).toMatch(new RegExp(field === 'untilHours' ? 'untilHours|Refund hours' : field === 'kind' ? 'kind|Refund policy' : 'percent|Refund percent', 'i'));
    }
    expect((await t.api('GET', `/api/events/${partial._id}`, { token: organiser.token })).body.refundPolicy).toEqual({ kind: 'full', percent: null, untilHours: 24 });
  });
});

describe('POST /api/tickets/cancel', () => {
  it('full refund: one of two paid tickets, then the other; seats freed, refunds never more than paid, the holder emailed', async () => {
    const eventId = await eventWith({ kind: 'full', untilHours: 24 }, { capacity: 3 });
    const paid = await payFor(t, amani.token, eventId, { quantity: 2, phone: '254711000011' });
    expect(await seats(eventId)).toEqual({ ticketsSold: 2, seatsLeft: 1 });
    const [first, second] = await mine(amani, eventId);
    expect(first).toMatchObject({ pricePaid: 500, selfCancel: { allowed: true, reason: null, refundPercent: 100 }, event: { refundPolicy: { kind: 'full', percent: null, untilHours: 24 } } });

    const res = await cancelTickets(amani, [first!._id]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ msg: '1 ticket cancelled. Ksh.500 is on its way back to your M-Pesa.', cancelled: 1, refundAmount: 500 });
    expect(await seats(eventId)).toEqual({ ticketsSold: 1, seatsLeft: 2 });
    const [refund] = await refundsOf(t, eventId);
    // Part of the payment: a B2C payout to the number that paid.
    expect(refund).toMatchObject({ orderId: paid.orderId, amount: 500, phone: '254711000011', reason: 'self_cancel', method: 'b2c', status: 'due' });
    const after = await mine(amani, eventId);
    expect(after.find((ticket) => ticket._id === first!._id)).toMatchObject({ voidReason: 'self_cancel', selfCancel: { allowed: false, reason: expect.stringMatching(/cancelled/) } });
    const { title } = (await t.api('GET', `/api/events/${eventId}`)).body;
    const mail = await t.smtp.waitFor(amani.user.email, new RegExp(`^Tickets cancelled: ${title}$`));
    expect(mail.text).toContain('You cancelled a ticket');
    expect(mail.text).toMatch(/refund of Ksh.500 is on its way back to M-Pesa 254711000011/);

    // The freed seats sell again: two more fit now.
    await payFor(t, baraka.token, eventId, { quantity: 2 });
    expect(await seats(eventId)).toEqual({ ticketsSold: 3, seatsLeft: 0 });

    expect((await cancelTickets(amani, [second!._id])).body).toMatchObject({ cancelled: 1, refundAmount: 500 });
    expect((await refundsOf(t, eventId)).filter((row) => row.orderId === paid.orderId).reduce((sum, row) => sum + row.amount, 0)).toBe(1000);
    // The order stays paid: its tickets were cancelled by their holder, not by a failed sale.
    const history = (await t.api('GET', `/api/transactions/${amani.user._id}`, { token: amani.token })).body.find((row: { checkoutRequestId: string }) => row.checkoutRequestId === paid.checkoutRequestId);
    expect(history).toMatchObject({ orderStatus: 'paid', refundStatus: 'due', refundAmount: 500 });
  });

  it('partial refund: price x tickets x percent, rounded down, for several tickets at once; never more than is left', async () => {
    const eventId = await eventWith({ kind: 'partial', percent: 45, untilHours: 0 }, { price: 333 });
    const paid = await payFor(t, amani.token, eventId, { quantity: 3 });
    const held = await mine(amani, eventId);
    expect(held[0]!.selfCancel).toEqual({ allowed: true, reason: null, refundPercent: 45 });
    const res = await cancelTickets(amani, [held[0]!._id, held[1]!._id]);
    expect(res.status).toBe(200);
    expect(res.body.refundAmount).toBe(Math.floor((333 * 2 * 45) / 100));
    const [first] = await refundsOf(t, eventId);
    // An administrator's refund then leaves less of the payment than the policy would give.
    await t.db.transaction((tx) => createRefundLedger(tx).createRefund({ paymentId: first!.paymentId!, reason: 'admin', amount: 999 - 299 - 5 }));
    // 5 shillings are left of 999; the last ticket's 149 is capped to them.
    const last = await cancelTickets(amani, [held[2]!._id]);
    expect(last.body).toMatchObject({ cancelled: 1, refundAmount: 5 });
    expect((await refundsOf(t, eventId)).reduce((sum, row) => sum + row.amount, 0)).toBe(paid.amount);
  });

  it('outside the policy: 409 with the reason the ticket list shows, and nothing changes', async () => {
    const none = await eventWith({ kind: 'none' });
    const tooLate = await eventWith({ kind: 'full', untilHours: 72 }, { days: 2 });
    for (const [eventId, reason] of [
      [none, /gives no refunds/],
      [tooLate, /end 72 hours before the start/],
    ] as const) {
      await payFor(t, amani.token, eventId);
      const [ticket] = await mine(amani, eventId);
      expect(ticket!.selfCancel).toEqual({ allowed: false, reason: expect.stringMatching(reason), refundPercent: 0 });
      const before = await snapshot(eventId);
      const res = await cancelTickets(amani, [ticket!._id]);
      expect(res.status).toBe(409);
      expect(res.body.msg).toBe(ticket!.selfCancel.reason);
      expect(await snapshot(eventId)).toEqual(before);
    }

    // Started: refused for paid and free tickets alike.
    const started = await eventWith({ kind: 'full' }, { days: 1, price: 0 });
    expect((await t.api('POST', `/api/events/register/${started}`, { token: amani.token, body: { tickets: 1 } })).status).toBe(200);
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 60 * 60 * 1000) }).where(eq(events.id, started));
    const [ticket] = await mine(amani, started);
    expect(ticket!.selfCancel.reason).toMatch(/already started/);
    const before = await snapshot(started);
    const res = await cancelTickets(amani, [ticket!._id]);
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/already started/);
    expect(await snapshot(started)).toEqual(before);
  });

  it('free tickets can always be released before the start; the holder may register again', async () => {
    const eventId = await eventWith({ kind: 'none' }, { price: 0, capacity: 2, days: 1 });
    expect((await t.api('POST', `/api/events/register/${eventId}`, { token: amani.token, body: { tickets: 2 } })).status).toBe(200);
    expect((await t.api('POST', `/api/events/register/${eventId}`, { token: baraka.token, body: { tickets: 1 } })).status).toBe(409);
    const held = await mine(amani, eventId);
    expect(held[0]!.selfCancel).toEqual({ allowed: true, reason: null, refundPercent: 0 });
    const res = await cancelTickets(amani, held.map((ticket) => ticket._id));
    expect(res.body).toEqual({ msg: '2 tickets cancelled.', cancelled: 2, refundAmount: 0 });
    expect(await refundsOf(t, eventId)).toEqual([]);
    expect(await seats(eventId)).toEqual({ ticketsSold: 0, seatsLeft: 2 });
    expect((await t.api('GET', `/api/events/${eventId}`)).body.registeredUsers).not.toContain(amani.user._id);
    expect((await t.api('POST', `/api/events/register/${eventId}`, { token: baraka.token, body: { tickets: 1 } })).status).toBe(200);
    const again = await t.api('POST', `/api/events/register/${eventId}`, { token: amani.token, body: { tickets: 1 } });
    expect(again.body.message).toBe('Registered successfully');
    const { title } = (await t.api('GET', `/api/events/${eventId}`)).body;
    const mail = await t.smtp.waitFor(amani.user.email, new RegExp(`^Tickets cancelled: ${title}$`));
    expect(mail.text).toContain('You cancelled 2 tickets');
    expect(mail.text).toContain('Nothing is refunded');
  });

  it("refuses a checked-in, void or someone else's ticket, an unknown one, and tickets of two events (4xx, no change)", async () => {
    const eventId = await eventWith({ kind: 'full' });
    const other = await eventWith({ kind: 'full' });
    await payFor(t, amani.token, eventId, { quantity: 2 });
    await payFor(t, amani.token, other);
    await payFor(t, baraka.token, eventId);
    const [used, spare] = await mine(amani, eventId);
    const [elsewhere] = await mine(amani, other);
    const [barakas] = await mine(baraka, eventId);
    expect((await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: used!.code } })).status).toBe(200);
    const before = await snapshot(eventId);

    const checkedIn = await cancelTickets(amani, [used!._id]);
    expect(checkedIn.status).toBe(409);
    expect(checkedIn.body.msg).toMatch(/already used/);
    expect((await cancelTickets(amani, [spare!._id, barakas!._id])).status).toBe(404);
    expect((await cancelTickets(baraka, [spare!._id])).status).toBe(404);
    expect((await cancelTickets(amani, ['0123456789abcdef01234567'])).status).toBe(404);
    expect((await cancelTickets(amani, [spare!._id, elsewhere!._id])).status).toBe(400);
    expect((await cancelTickets(amani, [])).status).toBe(400);
    expect((await cancelTickets(undefined, [spare!._id])).status).toBe(401);
    expect(await snapshot(eventId)).toEqual(before);

    expect((await cancelTickets(amani, [spare!._id])).status).toBe(200);
    const twice = await cancelTickets(amani, [spare!._id]);
    expect(twice.status).toBe(409);
    expect(twice.body.msg).toMatch(/its holder cancelled it/);

    // The event's own cancellation leaves nothing to cancel: its tickets are void already.
    expect((await t.api('POST', `/api/events/${other}/cancel`, { token: organiser.token, body: { reason: 'The venue flooded overnight.' } })).status).toBe(200);
    const voided = await cancelTickets(amani, [elsewhere!._id]);
    expect(voided.status).toBe(409);
    expect(voided.body.msg).toMatch(/event was cancelled/);
    // Its door refuses a cancelled ticket too, saying why.
    const door = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: spare!.code } });
    expect(door.status).toBe(409);
    expect(door.body).toMatchObject({ voidReason: 'self_cancel', msg: expect.stringMatching(/its holder cancelled it/) });
  });

  it('two cancels of the same ticket at once: exactly one wins, one refund', async () => {
    const eventId = await eventWith({ kind: 'full' });
    await payFor(t, amani.token, eventId, { quantity: 2 });
    const [ticket] = await mine(amani, eventId);
    const results = await Promise.all([cancelTickets(amani, [ticket!._id]), cancelTickets(amani, [ticket!._id]), cancelTickets(amani, [ticket!._id])]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409]);
    expect(await refundsOf(t, eventId)).toHaveLength(1);
    expect((await ticketRows(eventId)).filter((row) => row.voidReason === 'self_cancel')).toHaveLength(1);
  });
});
