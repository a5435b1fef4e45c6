import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, tickets } from '../src/db/schema.js';
import { nowAsWallClock } from '../src/lib/event-clock.js';
import { createPaymentsRepository } from '../src/modules/checkout/payments.repository.js';
import { priceOrder } from '../src/modules/checkout/price-order.js';
import { dayFromNow, insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, refundsOf, settle } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Ticket types (several kinds of ticket, each with a price, capacity, sale window and per-order maximum)
 * and promo codes, applied on the server only: what is sold, at what price, and that limits hold.
 */

type Session = { token: string; user: { _id: string } };
type TypeView = { _id: string; name: string; price: number; capacity: number | null; sold: number; seatsLeft: number | null; state: string };

let t: TestServer;
let organiser: Session;
let buyer: Session;
let stranger: Session;

beforeAll(async () => {
  t = await startTestServer();
  [organiser, buyer, stranger] = await Promise.all([t.createUser('ttorganiser'), t.createUser('ttbuyer'), t.createUser('ttstranger')]);
}, 90_000);
afterAll(async () => {
  await t?.close();
});

const typesOf = async (eventId: string, as?: Session): Promise<TypeView[]> => {
  const res = await t.api('GET', `/api/events/${eventId}/ticket-types`, { token: as?.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.ticketTypes;
};
const setTypes = (eventId: string, ticketTypes: unknown[], as: Session | null = organiser) => t.api('PUT', `/api/events/${eventId}/ticket-types`, { token: as?.token, body: { ticketTypes } });
const hold = (eventId: string, body: Record<string, unknown>, as: Session = buyer) =>
  t.api('POST', '/api/internal/payments/orders', { token: as.token, headers: internalHeaders(t), body: { eventId, phone: '254712000222', ...body } });

/** A paid event with Early Bird 500, Regular 1,000 (20 seats) and VIP 3,000 (2 seats, at most 2 per order). */
async function threeTypes(capacity: number | null = null) {
  const id = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 1000, capacity });
  const [general] = await typesOf(id);
  const res = await setTypes(id, [
    { name: 'Early Bird', price: 500, salesEnd: dayFromNow(5) },
    { _id: general!._id, name: 'Regular', price: 1000, capacity: 20 },
    { name: 'VIP', price: 3000, capacity: 2, maxPerOrder: 2 },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const byName = Object.fromEntries((res.body.ticketTypes as TypeView[]).map((type) => [type.name, type]));
  return { id, early: byName['Early Bird']!, regular: byName.Regular!, vip: byName.VIP! };
}

describe('ticket types', () => {
  it('every event starts with one type at its price; the organiser sets several, and lists keep ticketPrice as the cheapest', async () => {
    const id = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 1200 });
    expect(await typesOf(id)).toMatchObject([{ name: 'General admission', price: 1200, capacity: null, state: 'on_sale' }]);

    const { regular } = await threeTypes();
    expect(regular.name).toBe('Regular');
    const event = await t.api('GET', `/api/events/${regular ? (await threeTypes()).id : id}`);
    expect(event.body).toMatchObject({ isPaid: true, ticketPrice: 500, ticketPriceMax: 3000 });
    const listed = (await t.api('GET', '/api/events/admin/approved')).body as Array<{ _id: string; ticketPrice: number; ticketPriceMax: number }>;
    expect(listed.find((row) => row._id === event.body._id)).toMatchObject({ ticketPrice: 500, ticketPriceMax: 3000 });
  });

  it('refuses bad types with the field named, strangers, and price edits that would lose a type, changing nothing', async () => {
    const { id } = await threeTypes();
    const before = await typesOf(id);
    const cases: Array<[unknown[], string, string]> = [
      [[{ name: 'Regular', price: 350.5 }], 'ticketTypes.0.price', 'Price must be whole shillings: M-Pesa takes no cents (for example 350, not 350.50).'],
      [[{ name: 'Regular', price: 0 }], 'ticketTypes.0.price', 'Every ticket type of a paid event costs at least Ksh.1.'],
      [[{ name: 'VIP', price: 10 }, { name: 'vip', price: 20 }], 'ticketTypes', 'Give each ticket type its own name.'],
      [[{ name: 'Late', price: 10, salesStart: dayFromNow(3), salesEnd: dayFromNow(2) }], 'ticketTypes.0.salesEnd', 'Sales end must be after sales start.'],
      [[{ name: 'Gate', price: 10, maxPerOrder: 11 }], 'ticketTypes.0.maxPerOrder', 'Maximum per order must be at most 10.'],
      [[{ _id: '0123456789abcdef01234567', name: 'Other', price: 10 }], 'ticketTypes.0._id', 'That ticket type belongs to another event.'],
      [[], 'ticketTypes', 'An event sells at least one ticket type.'],
    ];
    for (const [body, field, msg] of cases) {
      const res = await setTypes(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ field, msg });
    }
    expect((await setTypes(id, [{ name: 'Mine', price: 5 }], stranger)).status).toBe(403);
    expect((await setTypes(id, [{ name: 'Mine', price: 5 }], null)).status).toBe(401);
    // A client that knows nothing of types changes ticketPrice: refused while there are several types.
    const edit = await t.api('PUT', `/api/events/${id}`, { token: organiser.token, body: { ticketPrice: 700 } });
    expect(edit.status).toBe(409);
    expect(edit.body.field).toBe('ticketPrice');
    expect(await typesOf(id)).toEqual(before);

    // With one type, ticketPrice is that type's price.
    const single = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 900 });
    const edited = await t.api('PUT', `/api/events/${single}`, { token: organiser.token, body: { ticketPrice: 950 } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // On a published event the new price waits for review; approved, the one type follows it.
    expect(await typesOf(single, organiser)).toMatchObject([{ price: 900 }]);
    const admin = await t.loginAdmin();
    expect((await t.api('PUT', `/api/events/admin/changes/${single}/approve`, { token: admin.token, body: {} })).status).toBe(200);
    expect(await typesOf(single, organiser)).toMatchObject([{ price: 950 }]);
  });

  it('sells several types in one order at the server price; tickets carry their type and add up to the payment', async () => {
    const { id, early, vip } = await threeTypes();
    const paid = await payFor(t, buyer.token, id, { items: [{ typeId: early._id, quantity: 2 }, { typeId: vip._id, quantity: 1 }] });
    expect(paid.amount).toBe(2 * 500 + 3000);
    const issued = await t.db.select().from(tickets).where(eq(tickets.eventId, id));
    expect(issued.map((ticket) => ticket.ticketTypeId).sort()).toEqual([early._id, early._id, vip._id].sort());
    expect(issued.reduce((sum, ticket) => sum + (ticket.pricePaid ?? 0), 0)).toBe(4000);
    const after = Object.fromEntries((await typesOf(id)).map((type) => [type.name, type]));
    expect(after.VIP).toMatchObject({ sold: 1, seatsLeft: 1, state: 'on_sale' });
    expect(after['Early Bird']).toMatchObject({ sold: 2, seatsLeft: null });

    // A purchase naming no type buys the cheapest on sale.
    const plain = await hold(id, { quantity: 1 });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ amount: 500, quantity: 1, discount: 0 });
  });

  it('holds each type to its capacity, sale window and per-order maximum, and the event to its own capacity', async () => {
    const { id, vip, regular } = await threeTypes(7);
    const tooMany = await hold(id, { items: [{ typeId: vip._id, quantity: 3 }] });
    expect(tooMany.status, JSON.stringify(tooMany.body)).toBe(400);
    expect(tooMany.body).toMatchObject({ field: 'items', msg: 'You can buy at most 2 VIP tickets per order.' });
    await payFor(t, buyer.token, id, { items: [{ typeId: vip._id, quantity: 2 }] });
    const soldOut = await hold(id, { items: [{ typeId: vip._id, quantity: 1 }] });
    expect(soldOut.status, JSON.stringify(soldOut.body)).toBe(409);
    expect(soldOut.body.msg).toBe('VIP tickets are sold out.');
    expect((await typesOf(id)).find((type) => type.name === 'VIP')).toMatchObject({ seatsLeft: 0, state: 'sold_out' });
    // The event-wide capacity (7, 2 sold) is reached before Regular's own 20.
    const overEvent = await hold(id, { items: [{ typeId: regular._id, quantity: 3 }, { typeId: (await typesOf(id))[0]!._id, quantity: 3 }] });
    expect(overEvent.status, JSON.stringify(overEvent.body)).toBe(409);
    expect(overEvent.body.msg, JSON.stringify(overEvent.body)).toBe("Only 5 tickets left for this event.");
    expect(await t.db.select().from(orders).where(and(eq(orders.eventId, id), eq(orders.status, 'pending')))).toHaveLength(0);

    const later = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 100 });
    const windows = await setTypes(later, [
      { name: 'Gate', price: 100, salesStart: dayFromNow(1, '09:00') },
      { name: 'Presale', price: 80, salesStart: dayFromNow(-3), salesEnd: dayFromNow(-1) },
    ]);
    expect(windows.status).toBe(200);
    const [gate, presale] = windows.body.ticketTypes as TypeView[];
    expect([gate!.state, presale!.state]).toEqual(['not_started', 'ended']);
    expect((await hold(later, { items: [{ typeId: gate!._id, quantity: 1 }] })).body.msg).toMatch(/^Gate tickets go on sale at /);
    expect((await hold(later, { items: [{ typeId: presale!._id, quantity: 1 }] })).body.msg).toMatch(/^Presale tickets are no longer on sale/);
    expect((await hold(later, { quantity: 1 })).body.msg).toBe('No tickets are on sale for this event right now.');
  });

  it('a payment arriving after its hold ran out gets its tickets only if its type still has room, else a refund', async () => {
    const { id, vip } = await threeTypes();
    const late = await payFor(t, buyer.token, id, { items: [{ typeId: vip._id, quantity: 1 }], settle: false });
    await t.db.update(orders).set({ holdExpiresAt: new Date(Date.now() - 60_000) }).where(eq(orders.id, late.orderId));
    await payFor(t, stranger.token, id, { items: [{ typeId: vip._id, quantity: 2 }] });
    const settled = await settle(t, late);
    expect(settled.body).toMatchObject({ status: 'success', orderStatus: 'refund_due', ticketsIssued: 0 });
    expect((await refundsOf(t, id)).map((refund) => [refund.reason, refund.amount])).toEqual([['sold_out', 3000]]);
    expect((await typesOf(id)).find((type) => type.name === 'VIP')).toMatchObject({ sold: 2, seatsLeft: 0 });
  });

  it('keeps what was sold: a bought type cannot be removed, nor its capacity cut below sold and held', async () => {
    const { id, early, regular, vip } = await threeTypes();
    await payFor(t, buyer.token, id, { items: [{ typeId: vip._id, quantity: 1 }] });
    const removeVip = await setTypes(id, [
      { _id: early._id, name: 'Early Bird', price: 500 },
      { _id: regular._id, name: 'Regular', price: 1000 },
    ]);
    expect(removeVip.status).toBe(409);
    expect(removeVip.body.msg).toBe('VIP tickets were already bought: keep the type (end its sales instead of removing it).');
    await hold(id, { items: [{ typeId: vip._id, quantity: 1 }] });
    const cut = await setTypes(id, [{ _id: vip._id, name: 'VIP', price: 3000, capacity: 1 }, { _id: early._id, name: 'Early Bird', price: 500 }, { _id: regular._id, name: 'Regular', price: 1000 }]);
    expect(cut.status).toBe(409);
    expect(cut.body).toMatchObject({ field: 'ticketTypes.0.capacity', msg: 'VIP already has 1 sold and 1 held: its capacity cannot be below 2.' });
    // An unsold type may go.
    const ok = await setTypes(id, [{ _id: vip._id, name: 'VIP Lounge', price: 3500, capacity: 5 }, { _id: regular._id, name: 'Regular', price: 1000 }]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((ok.body.ticketTypes as TypeView[]).map((type) => `${type.name} ${type.price}`)).toEqual(['VIP Lounge 3500', 'Regular 1000']);
  });
});

describe('tickets of several types after the sale', () => {
  it('a holder cancelling one VIP ticket of a mixed, discounted order gets back what that ticket cost', async () => {
    const { id, regular, vip } = await threeTypes();
    await t.db.update(events).set({ refundPolicy: 'full', refundUntilHours: 1 }).where(eq(events.id, id));
    await t.api('POST', `/api/events/${id}/promo-codes`, { token: organiser.token, body: { code: 'VIPTEN', kind: 'percent', value: 10, ticketTypeIds: [vip._id] } });
    const paid = await payFor(t, buyer.token, id, { items: [{ typeId: regular._id, quantity: 1 }, { typeId: vip._id, quantity: 1 }], promoCode: 'VIPTEN' });
    expect(paid.amount).toBe(1000 + 2700);
    const mine = ((await t.api('GET', '/api/tickets/mine', { token: buyer.token })).body as Array<{ _id: string; pricePaid: number; ticketType: { name: string } | null; event: { _id: string } }>).filter(
      (ticket) => ticket.event._id === id,
    );
    expect(mine.map((ticket) => `${ticket.ticketType?.name} ${ticket.pricePaid}`).sort()).toEqual(['Regular 1000', 'VIP 2700']);
    const vipTicket = mine.find((ticket) => ticket.ticketType?.name === 'VIP')!;
    const cancelled = await t.api('POST', '/api/tickets/cancel', { token: buyer.token, body: { ticketIds: [vipTicket._id] } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await refundsOf(t, id)).map((refund) => refund.amount)).toEqual([2700]);
    expect((await typesOf(id)).find((type) => type.name === 'VIP')).toMatchObject({ sold: 0, seatsLeft: 2 });
  });
});

describe('promo codes', () => {
  it('the organiser makes codes; a buyer gets the discount on the types it covers, worked out on the server', async () => {
    const { id, regular, vip } = await threeTypes();
    const make = (body: Record<string, unknown>, as: Session = organiser) => t.api('POST', `/api/events/${id}/promo-codes`, { token: as.token, body });
    expect((await make({ code: 'vip20', kind: 'percent', value: 20, ticketTypeIds: [vip._id] })).status).toBe(201);
    expect((await make({ code: 'KARIBU', kind: 'fixed', value: 200 })).status).toBe(201);
    expect((await make({ code: 'VIP20', kind: 'fixed', value: 5 })).status).toBe(409);
    expect((await make({ code: 'HALF', kind: 'percent', value: 120 })).body).toMatchObject({ field: 'value', msg: 'A percentage is at most 100.' });
    expect((await make({ code: 'NOPE', kind: 'fixed', value: 5 }, stranger)).status).toBe(403);
    expect((await t.api('GET', `/api/events/${id}/promo-codes`, { token: stranger.token })).status).toBe(403);

    const quote = await t.api('POST', `/api/events/${id}/quote`, { body: { items: [{ typeId: vip._id, quantity: 2 }, { typeId: regular._id, quantity: 1 }], promoCode: 'vip20' } });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body).toMatchObject({ subtotal: 7000, discount: 1200, amount: 5800, quantity: 3, promoCode: 'VIP20' });
    const held = await hold(id, { items: [{ typeId: vip._id, quantity: 2 }, { typeId: regular._id, quantity: 1 }], promoCode: 'Vip20' });
    expect(held.body).toMatchObject({ amount: 5800, discount: 1200 });
    expect((await hold(id, { items: [{ typeId: regular._id, quantity: 1 }], promoCode: 'VIP20' })).body).toMatchObject({
      field: 'promoCode',
      msg: 'The promo code VIP20 does not apply to the tickets you chose.',
    });
    expect((await hold(id, { quantity: 1, promoCode: 'NOSUCH' })).body).toMatchObject({ field: 'promoCode', msg: 'The promo code NOSUCH is not valid for this event.' });
    // Fixed amounts come off each ticket; an order still costs at least Ksh.1.
    expect((await hold(id, { items: [{ typeId: regular._id, quantity: 2 }], promoCode: 'karibu' })).body).toMatchObject({ amount: 1600, discount: 400 });
    const codes = (await t.api('GET', `/api/events/${id}/promo-codes`, { token: organiser.token })).body as Array<{ code: string; uses: number }>;
    expect(Object.fromEntries(codes.map((code) => [code.code, code.uses]))).toEqual({ VIP20: 1, KARIBU: 1 });
  });

  it('a code valid later, or used up, is refused; a used code is ended rather than deleted', async () => {
    const { id, regular } = await threeTypes();
    const later = await t.api('POST', `/api/events/${id}/promo-codes`, { token: organiser.token, body: { code: 'LATER', kind: 'percent', value: 10, validFrom: dayFromNow(2) } });
    expect(later.status).toBe(201);
    expect((await hold(id, { quantity: 1, promoCode: 'LATER' })).body.msg).toBe('The promo code LATER cannot be used right now.');
    const once = await t.api('POST', `/api/events/${id}/promo-codes`, { token: organiser.token, body: { code: 'ONCE', kind: 'percent', value: 50, maxUses: 1 } });
    await payFor(t, buyer.token, id, { items: [{ typeId: regular._id, quantity: 1 }], promoCode: 'ONCE' });
    const again = await hold(id, { quantity: 1, promoCode: 'ONCE' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('The promo code ONCE has been used up.');
    const removed = await t.api('DELETE', `/api/events/${id}/promo-codes/${once.body._id}`, { token: organiser.token });
    expect(removed.body).toMatchObject({ deleted: false, ended: true });
    const gone = await t.api('DELETE', `/api/events/${id}/promo-codes/${later.body._id}`, { token: organiser.token });
    expect(gone.body).toMatchObject({ deleted: true });
    expect(((await t.api('GET', `/api/events/${id}/promo-codes`, { token: organiser.token })).body as unknown[]).length).toBe(1);
  });

  it('50 concurrent buyers on a 10-use code: exactly 10 get the discount', async () => {
    const { id } = await threeTypes();
    await t.api('POST', `/api/events/${id}/promo-codes`, { token: organiser.token, body: { code: 'TEN', kind: 'fixed', value: 100, maxUses: 10 } });
    const results = await Promise.all(Array.from({ length: 50 }, () => hold(id, { quantity: 1, promoCode: 'TEN' })));
    expect(results.filter((res) => res.status === 201)).toHaveLength(10);
    expect(results.filter((res) => res.status === 409 && res.body.msg === 'The promo code TEN has been used up.')).toHaveLength(40);
    expect(await t.db.select().from(orders).where(and(eq(orders.eventId, id), isNotNull(orders.promoCodeId)))).toHaveLength(10);
  });

  it('a quote holds nothing', async () => {
    const { id, vip } = await threeTypes();
    const quote = await t.api('POST', `/api/events/${id}/quote`, { token: buyer.token, body: { items: [{ typeId: vip._id, quantity: 2 }] } });
    expect(quote.body).toMatchObject({ amount: 6000, discount: 0 });
    expect(await t.db.select().from(orders).where(eq(orders.eventId, id))).toHaveLength(0);
    expect((await t.api('POST', `/api/events/${id}/quote`, { body: { items: [{ typeId: vip._id, quantity: 3 }] } })).status).toBe(400);
  });

  it('a quote says what the hold would: seats left of a type, and a sold-out type', async () => {
    const { id, vip } = await threeTypes();
    expect((await hold(id, { items: [{ typeId: vip._id, quantity: 1 }], quantity: 1 })).status).toBe(201);
    const quote = await t.api('POST', `/api/events/${id}/quote`, { body: { items: [{ typeId: vip._id, quantity: 2 }] } });
    expect(quote.status).toBe(409);
    expect(quote.body).toMatchObject({ code: 'ticket_type_seats_left', msg: 'Only 1 VIP ticket left.' });
    expect((await hold(id, { items: [{ typeId: vip._id, quantity: 1 }], quantity: 1 }, stranger)).status).toBe(201);
    const soldOut = await t.api('POST', `/api/events/${id}/quote`, { body: { items: [{ typeId: vip._id, quantity: 1 }] } });
    expect(soldOut.body).toMatchObject({ code: 'ticket_type_sold_out', msg: 'VIP tickets are sold out.' });
  });

  it('an order priced before a price change is never held at the old price: the hold finds its facts stale', async () => {
    const { id, regular } = await threeTypes();
    const repo = createPaymentsRepository(t.db);
    const read = await repo.pricingFacts(id, undefined);
    const { priced } = priceOrder(read!.facts, { items: [{ typeId: regular._id, quantity: 2 }], quantity: 2 }, nowAsWallClock());
    expect(priced?.amount).toBe(2000);
    const types = await typesOf(id, organiser);
    const changed = await setTypes(id, types.map((type) => ({ _id: type._id, name: type.name, price: type._id === regular._id ? 1200 : type.price, capacity: type.capacity })));
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const held = await repo.holdPricedOrder({ eventId: id, userId: buyer.user._id, factsVersion: read!.version, promoCode: undefined, priced: priced!, phone: '254712000222', holdSeconds: 60 });
    expect(held.outcome).toBe('stale');
    expect(await t.db.select().from(orders).where(eq(orders.eventId, id))).toHaveLength(0);
    // Through the API the hold prices again from the new facts.
    const res = await hold(id, { items: [{ typeId: regular._id, quantity: 2 }], quantity: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.amount).toBe(2400);
  });
});
