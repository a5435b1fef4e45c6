import { readFileSync } from 'node:fs';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, tickets } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, refundsOf } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * POST /api/tickets/:id/transfer: a holder gives a ticket to another account before the event starts.
 * The recipient gets a new signed ticket on the same order (emailed with its QR), the old one is void
 * ('transferred') and refused at the door; every refusal changes nothing.
 */

type Session = { token: string; user: { _id: string; email: string; username: string } };
type MyTicket = {
  _id: string;
  code: string;
  orderId: string | null;
  voidReason: string | null;
  transferredFrom: string | null;
  pricePaid: number;
  ticketType: { _id: string; name: string } | null;
  event: { _id: string };
};

let t: TestServer;
let organiser: Session;
let amani: Session;
let baraka: Session;
let chebet: Session;

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('tforganiser');
  amani = await t.createUser('tfamani');
  baraka = await t.createUser('tfbaraka');
  chebet = await t.createUser('tfchebet');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const title = (what: string) => `${what} ${Math.random().toString(36).slice(2, 8)}`;
const newEvent = (options: { price?: number; days?: number; name?: string } = {}) =>
  insertEventRow(t.db, { ownerId: organiser.user._id, days: options.days ?? 10, price: options.price ?? 0, capacity: 20, title: title(options.name ?? 'Transfer night') });
const mine = async (as: Session, eventId: string): Promise<MyTicket[]> =>
  (await t.api('GET', '/api/tickets/mine', { token: as.token })).body.filter((ticket: MyTicket) => ticket.event._id === eventId);
const transfer = (as: Session | undefined, ticketId: string, to: string) => t.api('POST', `/api/tickets/${ticketId}/transfer`, { token: as?.token, body: { to } });
const checkIn = (eventId: string, code: string) => t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code } });
const ticketRows = (eventId: string) => t.db.select().from(tickets).where(eq(tickets.eventId, eventId)).orderBy(tickets.id);
const register = (as: Session, eventId: string, quantity = 1) => t.api('POST', `/api/events/register/${eventId}`, { token: as.token, body: { tickets: quantity } });

describe('POST /api/tickets/:id/transfer', () => {
  it('by username: the recipient gets a new signed ticket on the same order, emailed with its QR; the old code is refused at the door', async () => {
    const eventId = await newEvent({ price: 700, name: 'Paid transfer' });
    const paid = await payFor(t, amani.token, eventId, { quantity: 2 });
    const before = (await t.api('GET', `/api/events/${eventId}`)).body;
    const [given, kept] = await mine(amani, eventId);

    const res = await transfer(amani, given!._id, baraka.user.username.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: expect.stringContaining(`transferred to ${baraka.user.username}`), ticket: { eventId }, to: { _id: baraka.user._id, username: baraka.user.username } });

    // The recipient's new ticket: new id, new code, same order (the money trail stays).
    const [received] = await mine(baraka, eventId);
    expect(received).toMatchObject({ _id: res.body.ticket._id, orderId: paid.orderId, transferredFrom: given!._id, voidReason: null });
    expect(received!.code).not.toBe(given!.code);
    // The sender's old ticket is void, the other one untouched.
    const after = await mine(amani, eventId);
    expect(after.find((ticket) => ticket._id === given!._id)).toMatchObject({ voidReason: 'transferred' });
    expect(after.find((ticket) => ticket._id === kept!._id)).toMatchObject({ voidReason: null });
    // Seats do not move: one ticket out, one in.
    const event = (await t.api('GET', `/api/events/${eventId}`)).body;
    expect({ sold: event.ticketsSold, left: event.seatsLeft }).toEqual({ sold: before.ticketsSold, left: before.seatsLeft });
    expect(event.registeredUsers).toEqual(expect.arrayContaining([amani.user._id, baraka.user._id]));

    const mail = await t.smtp.waitFor(baraka.user.email, new RegExp(`^Your Tukio ticket: ${before.title}$`));
    expect(mail.text).toContain(received!.code);
    expect(mail.attachments.some((file) => file.contentType === 'image/png')).toBe(true);

    const old = await checkIn(eventId, given!.code);
    expect(old.status).toBe(409);
    expect(old.body).toMatchObject({ voidReason: 'transferred', msg: 'This ticket is no longer valid: it was transferred to another holder.' });
    expect((await checkIn(eventId, received!.code)).status).toBe(200);
    // The order still holds as many valid tickets as it paid for, and nothing was refunded.
    expect((await ticketRows(eventId)).filter((row) => row.orderId === paid.orderId && !row.voidedAt)).toHaveLength(2);
    expect(await refundsOf(t, eventId)).toEqual([]);
    expect((await t.db.select().from(orders).where(eq(orders.id, paid.orderId)))[0]!.status).toBe('paid');
    // The door list shows the recipient, not the ticket given away.
    const list = (await t.api('GET', `/api/events/${eventId}/attendees`, { token: organiser.token })).body as Array<{ ticketId: string }>;
    expect(list.map((row) => row.ticketId).sort()).toEqual([kept!._id, received!._id].sort());
  });

  it('by email, case-insensitively; a received ticket can be passed on again', async () => {
    const eventId = await newEvent();
    expect((await register(amani, eventId)).status).toBe(200);
    const [ticket] = await mine(amani, eventId);
    expect((await transfer(amani, ticket!._id, baraka.user.email.toUpperCase())).status).toBe(200);
    const [received] = await mine(baraka, eventId);
    expect((await transfer(baraka, received!._id, chebet.user.username)).status).toBe(200);
    expect(await mine(chebet, eventId)).toHaveLength(1);
    expect((await t.api('GET', `/api/events/${eventId}`)).body.registeredUsers).toEqual([chebet.user._id]);
  });

  it("refuses an unknown recipient, oneself, a checked-in or void ticket, someone else's, a past or cancelled event (4xx, no change)", async () => {
    const eventId = await newEvent({ price: 300 });
    await payFor(t, amani.token, eventId, { quantity: 3 });
    const [used, spare, third] = await mine(amani, eventId);
    expect((await checkIn(eventId, used!.code)).status).toBe(200);
    const before = await ticketRows(eventId);
    const refusals: Array<[Awaited<ReturnType<typeof transfer>>, number, RegExp]> = [
      [await transfer(amani, spare!._id, 'nobody-by-that-name'), 404, /No Tukio account/],
      [await transfer(amani, spare!._id, amani.user.email), 400, /already yours/],
      [await transfer(amani, used!._id, baraka.user.username), 409, /already used/],
      [await transfer(baraka, spare!._id, chebet.user.username), 404, /Ticket not found/],
      [await transfer(amani, '0123456789abcdef01234567', baraka.user.username), 404, /Ticket not found/],
      [await transfer(amani, spare!._id, ''), 400, /to is required/],
      [await transfer(undefined, spare!._id, baraka.user.username), 401, /./],
    ];
    for (const [res, status, message] of refusals) {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.msg).toMatch(message);
    }
    expect(await ticketRows(eventId)).toEqual(before);

    // A ticket already given away is void.
    expect((await transfer(amani, spare!._id, baraka.user.username)).status).toBe(200);
    const again = await transfer(amani, spare!._id, chebet.user.username);
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/transferred/);

    // A cancelled event: its tickets are void.
    const cancelledEvent = await newEvent({ price: 300 });
    await payFor(t, amani.token, cancelledEvent);
    const [gone] = await mine(amani, cancelledEvent);
    expect((await t.api('POST', `/api/events/${cancelledEvent}/cancel`, { token: organiser.token, body: { reason: 'The band cancelled the tour.' } })).status).toBe(200);
    const voided = await transfer(amani, gone!._id, baraka.user.username);
    expect(voided.status).toBe(409);
    expect(voided.body.msg).toMatch(/event was cancelled/);

    // A past event: too late.
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 24 * 60 * 60 * 1000) }).where(eq(events.id, eventId));
    const beforePast = await ticketRows(eventId);
    const past = await transfer(amani, third!._id, baraka.user.username);
    expect(past.status).toBe(400);
    expect(past.body.msg).toMatch(/already taken place/);
    expect(await ticketRows(eventId)).toEqual(beforePast);
  });

  it('two transfers (or a transfer and a cancel) of the same ticket at once: exactly one wins', async () => {
    const eventId = await newEvent();
    expect((await register(amani, eventId, 2)).status).toBe(200);
    const [first, second] = await mine(amani, eventId);
    const results = await Promise.all([transfer(amani, first!._id, baraka.user.username), transfer(amani, first!._id, chebet.user.username), transfer(amani, first!._id, baraka.user.username)]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409]);
    expect((await ticketRows(eventId)).filter((row) => row.transferredFrom === first!._id)).toHaveLength(1);

    const raced = await Promise.all([transfer(amani, second!._id, baraka.user.username), t.api('POST', '/api/tickets/cancel', { token: amani.token, body: { ticketIds: [second!._id] } })]);
    expect(raced.map((res) => res.status).sort()).toEqual([200, 409]);
    const rows = await ticketRows(eventId);
    expect(rows.filter((row) => row.transferredFrom === second!._id).length + rows.filter((row) => row.id === second!._id && row.voidReason === 'self_cancel').length).toBe(1);
  });

  it('the new ticket keeps the type and price of the one it replaces: the type stays full, and a cancel refunds that ticket\'s price', async () => {
    const eventId = await newEvent({ price: 100, name: 'Typed transfer' });
    await t.db.update(events).set({ refundPolicy: 'full' }).where(eq(events.id, eventId));
    const [general] = (await t.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes as Array<{ _id: string }>;
    const set = await t.api('PUT', `/api/events/${eventId}/ticket-types`, {
      token: organiser.token,
      body: { ticketTypes: [{ _id: general!._id, name: 'GA', price: 100 }, { name: 'VIP', price: 1000, capacity: 1 }] },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const [ga, vip] = set.body.ticketTypes as Array<{ _id: string }>;
    const paid = await payFor(t, amani.token, eventId, { items: [{ typeId: vip!._id, quantity: 1 }, { typeId: ga!._id, quantity: 1 }] });
    expect(paid.amount).toBe(1100);
    const bought = await mine(amani, eventId);
    const vipTicket = bought.find((ticket) => ticket.ticketType?.name === 'VIP')!;
    const gaTicket = bought.find((ticket) => ticket.ticketType?.name === 'GA')!;

    // The VIP goes to Baraka: still a VIP ticket worth 1,000, so the one VIP seat stays taken.
    expect((await transfer(amani, vipTicket._id, baraka.user.username)).status).toBe(200);
    const [received] = await mine(baraka, eventId);
    expect(received).toMatchObject({ transferredFrom: vipTicket._id, pricePaid: 1000, ticketType: { _id: vip!._id, name: 'VIP' } });
    const another = await t.api('POST', '/api/internal/payments/orders', { token: chebet.token, headers: internalHeaders(t), body: { eventId, phone: '254712000333', items: [{ typeId: vip!._id, quantity: 1 }] } });
    expect(another.status, JSON.stringify(another.body)).toBe(409);
    expect(another.body.msg).toBe('VIP tickets are sold out.');
    const types = (await t.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes as Array<{ name: string; sold: number; seatsLeft: number | null }>;
    expect(types.find((type) => type.name === 'VIP')).toMatchObject({ sold: 1, seatsLeft: 0 });

    // The GA goes to Baraka too, who cancels it under the full-refund policy: 100 back (that ticket's price), not the order's average 550.
    expect((await transfer(amani, gaTicket._id, baraka.user.username)).status).toBe(200);
    const receivedGa = (await mine(baraka, eventId)).find((ticket) => ticket.transferredFrom === gaTicket._id)!;
    expect(receivedGa).toMatchObject({ pricePaid: 100, ticketType: { _id: ga!._id, name: 'GA' } });
    const cancelled = await t.api('POST', '/api/tickets/cancel', { token: baraka.token, body: { ticketIds: [receivedGa._id] } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.refundAmount).toBe(100);
    expect((await refundsOf(t, eventId)).map((refund) => ({ amount: refund.amount, orderId: refund.orderId, userId: refund.userId }))).toEqual([{ amount: 100, orderId: paid.orderId, userId: amani.user._id }]);
  });

  it('migration 0023 gives tickets transferred before the fix (once or along a chain) the type and price of the ticket their chain started from', async () => {
    const eventId = await newEvent({ price: 650, name: 'Backfilled transfer' });
    await payFor(t, amani.token, eventId, { quantity: 2 });
    const [first, second] = await mine(amani, eventId);
    expect((await transfer(amani, first!._id, baraka.user.username)).status).toBe(200);
    const [atBaraka] = await mine(baraka, eventId);
    expect((await transfer(baraka, atBaraka!._id, chebet.user.username)).status).toBe(200);
    expect((await transfer(amani, second!._id, chebet.user.username)).status).toBe(200);
    const original = (await ticketRows(eventId)).find((row) => row.id === first!._id)!;
    expect(original).toMatchObject({ pricePaid: 650, ticketTypeId: expect.any(String) });
    // As the old transfer left them: the replacements without type or price.
    await t.db.update(tickets).set({ ticketTypeId: null, pricePaid: null }).where(and(eq(tickets.eventId, eventId), isNotNull(tickets.transferredFrom)));

    await t.db.execute(sql.raw(readFileSync(new URL('../drizzle/0026_transferred-ticket-facts.sql', import.meta.url), 'utf8')));
    const rows = await ticketRows(eventId);
    expect(rows).toHaveLength(5);
    for (const row of rows) expect({ id: row.id, type: row.ticketTypeId, price: row.pricePaid }).toEqual({ id: row.id, type: original.ticketTypeId, price: 650 });
    expect((await mine(chebet, eventId)).map((ticket) => ticket.pricePaid)).toEqual([650, 650]);
  });

  it('many transfers racing a cancel of the same ticket: every answer is 200 or 409, never a 500, and exactly one of each pair wins', async () => {
    const rounds = 4;
    const perRound = 5;
    for (let round = 0; round < rounds; round++) {
      const eventId = await newEvent({ price: 200, name: 'Raced transfer' });
      await t.db.update(events).set({ refundPolicy: 'full' }).where(eq(events.id, eventId));
      await payFor(t, amani.token, eventId, { quantity: perRound });
      const held = await mine(amani, eventId);
      expect(held).toHaveLength(perRound);
      // Every pair at once: each ticket transferred and cancelled at the same moment.
      const answers = await Promise.all(
        held.map(async (ticket) => {
          const [moved, cancelled] = await Promise.all([
            transfer(amani, ticket._id, baraka.user.username),
            t.api('POST', '/api/tickets/cancel', { token: amani.token, body: { ticketIds: [ticket._id] } }),
          ]);
          return { ticket, moved, cancelled };
        }),
      );
      const rows = await ticketRows(eventId);
      for (const { ticket, moved, cancelled } of answers) {
        const statuses = [moved.status, cancelled.status];
        expect(statuses.sort(), JSON.stringify([moved.body, cancelled.body])).toEqual([200, 409]);
        const replaced = rows.filter((row) => row.transferredFrom === ticket._id).length;
        const selfCancelled = rows.filter((row) => row.id === ticket._id && row.voidReason === 'self_cancel').length;
        expect({ replaced, selfCancelled }).toEqual(moved.status === 200 ? { replaced: 1, selfCancelled: 0 } : { replaced: 0, selfCancelled: 1 });
      }
      // Each cancel that won refunded its ticket's price, once.
      const refunded = (await refundsOf(t, eventId)).reduce((sum, refund) => sum + refund.amount, 0);
      expect(refunded).toBe(200 * answers.filter(({ cancelled }) => cancelled.status === 200).length);
    }
  }, 180_000);
});
