import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, payments, tickets } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, refundsOf } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * GET /api/events/:id/dashboard: an event's sales per Nairobi day, money in and refunded, seats, and
 * check-ins per hour, for its organiser and admins only; `format=csv` gives the daily sales.
 */

type Session = { token: string; user: { _id: string; email: string; username: string } };

let t: TestServer;
let admin: Session;
let organiser: Session;
let stranger: Session;
let amani: Session;
let baraka: Session;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.loginAdmin();
  organiser = await t.createUser('dashorganiser');
  stranger = await t.createUser('dashstranger');
  amani = await t.createUser('dashamani');
  baraka = await t.createUser('dashbaraka');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const title = (what: string) => `${what} ${Math.random().toString(36).slice(2, 8)}`;
const dashboard = (eventId: string, as: Session | undefined, query = '') => t.api('GET', `/api/events/${eventId}/dashboard${query}`, { token: as?.token });
const mine = async (who: Session, eventId: string) =>
  ((await t.api('GET', '/api/tickets/mine', { token: who.token })).body as Array<{ _id: string; code: string; event: { _id: string } }>).filter((ticket) => ticket.event._id === eventId);
/** The Nairobi calendar day (EAT, UTC+3) of an instant. */
const nairobiDay = (ms: number) => new Date(ms + 3 * HOUR).toISOString().slice(0, 10);

describe('GET /api/events/:id/dashboard', () => {
  it('shows the organiser tickets and money per Nairobi day, refunds, seats and check-ins per hour; admins see the same, strangers nothing', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 14, price: 500, capacity: 40, title: title('Dashboard gala') });
    await t.db.update(events).set({ refundPolicy: 'full' }).where(eq(events.id, eventId));

    const empty = await dashboard(eventId, organiser);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      eventId,
      event: { status: 'approved', isPaid: true, ticketPrice: 500 },
      currency: 'KES',
      totals: { ticketsSold: 0, capacity: 40, checkedIn: 0, grossRevenue: 0, refunded: { count: 0, amount: 0 }, refundsPending: { count: 0, amount: 0 }, revenue: 0 },
      salesByDay: [],
      checkInsByHour: [],
      types: [{ name: 'General admission', price: 500, sold: 0, reserved: 0, reservedPaid: 0, capacity: null, revenue: 0 }],
      promoCodes: [],
    });

    // Amani bought two tickets "three days ago at 22:30 UTC", which is 01:30 the next day in Nairobi; Baraka one now.
    const amaniPaid = await payFor(t, amani.token, eventId, { quantity: 2, phone: '254711000031' });
    await payFor(t, baraka.token, eventId, { phone: '254711000032' });
    const earlier = new Date(Date.now() - 3 * DAY);
    earlier.setUTCHours(22, 30, 0, 0);
    await t.db.update(payments).set({ createdAt: earlier }).where(eq(payments.orderId, amaniPaid.orderId));
    await t.db.update(tickets).set({ createdAt: earlier }).where(eq(tickets.orderId, amaniPaid.orderId));

    // Amani cancels one ticket (refunded in full) and the refund is paid out; a second refund stays on its way.
    const [cancelled, kept] = await mine(amani, eventId);
    expect((await t.api('POST', '/api/tickets/cancel', { token: amani.token, body: { ticketIds: [cancelled!._id] } })).body.refundAmount).toBe(500);
    const [refund] = await refundsOf(t, eventId);
    const claimed = await t.services.refunds.claim(50);
    const attempt = claimed.find((item) => item.refundId === refund!.id)!;
    const paidOut = { originatorConversationId: attempt.originatorConversationId, resultCode: '0', resultDesc: 'ok', transactionId: receiptNo('D'), amount: 500, source: 'callback' };
    expect((await t.api('POST', '/api/internal/refunds/result', { headers: internalHeaders(t), body: paidOut })).body).toMatchObject({ status: 'succeeded' });

    // Two holders come in at the door; their scans are then placed at 18:10 and 20:40 UTC (21:00 and 23:00 in Nairobi).
    const [barakaTicket] = await mine(baraka, eventId);
    for (const ticket of [kept!, barakaTicket!]) {
      expect((await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: ticket.code } })).status).toBe(200);
    }
    const doorDay = new Date(Date.now() - DAY);
    const at = (h: number, m: number) => new Date(Date.UTC(doorDay.getUTCFullYear(), doorDay.getUTCMonth(), doorDay.getUTCDate(), h, m));
    await t.db.update(tickets).set({ checkedInAt: at(18, 10) }).where(eq(tickets.id, kept!._id));
    await t.db.update(tickets).set({ checkedInAt: at(20, 40) }).where(eq(tickets.id, barakaTicket!._id));

    const res = await dashboard(eventId, organiser);
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({
      ticketsSold: 2,
      capacity: 40,
      checkedIn: 2,
      grossRevenue: 1500,
      refunded: { count: 1, amount: 500 },
      refundsPending: { count: 0, amount: 0 },
      revenue: 1000,
    });
    // The one type: its two valid tickets and what they were paid (the cancelled one counts in neither).
    expect(res.body.types).toEqual([{ name: 'General admission', price: 500, sold: 2, reserved: 0, reservedPaid: 0, capacity: null, revenue: 1000 }]);
    expect(res.body.promoCodes).toEqual([]);

    // Every Nairobi day from the first sale to the last, the quiet ones as zeros; a cancellation does not unsell a day.
    const firstDay = nairobiDay(earlier.getTime());
    expect(firstDay).toBe(new Date(earlier.getTime() + DAY).toISOString().slice(0, 10));
    const today = nairobiDay(Date.now());
    const expectedDays: Array<{ day: string; tickets: number; revenue: number }> = [];
    for (let ms = Date.parse(`${firstDay}T00:00Z`); ms <= Date.parse(`${today}T00:00Z`); ms += DAY) {
      const day = new Date(ms).toISOString().slice(0, 10);
      expectedDays.push({ day, tickets: day === firstDay ? 2 : day === today ? 1 : 0, revenue: day === firstDay ? 1000 : day === today ? 500 : 0 });
    }
    expect(res.body.salesByDay).toEqual(expectedDays);

    // Check-ins per Nairobi hour, the hour between them a zero.
    const hour = (h: number) => `${nairobiDay(at(h, 0).getTime())}T${String(h + 3).padStart(2, '0')}:00`;
    expect(res.body.checkInsByHour).toEqual([
      { hour: hour(18), checkedIn: 1 },
      { hour: hour(19), checkedIn: 0 },
      { hour: hour(20), checkedIn: 1 },
    ]);

    // The daily sales as a CSV attachment.
    const csv = await dashboard(eventId, organiser, '?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="sales-${eventId}.csv"`);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('"Day","Tickets","Revenue (KES)"');
    expect(lines.slice(1)).toEqual(expectedDays.map((row) => `"${row.day}","${row.tickets}","${row.revenue}"`));

    // Admins see the same; strangers, buyers and visitors nothing.
    expect((await dashboard(eventId, admin)).body).toEqual(res.body);
    expect((await dashboard(eventId, stranger)).status).toBe(403);
    expect((await dashboard(eventId, amani)).status).toBe(403);
    expect((await dashboard(eventId, amani, '?format=csv')).status).toBe(403);
    expect((await dashboard(eventId, undefined)).status).toBe(401);
  });

  it('gives each ticket type its sold, capacity and revenue and each promo code its uses and discount, in JSON and CSV', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 14, price: 1000, capacity: 50, title: title('Typed dashboard gala') });
    const [general] = (await t.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes as Array<{ _id: string }>;
    const set = await t.api('PUT', `/api/events/${eventId}/ticket-types`, {
      token: organiser.token,
      body: { ticketTypes: [{ _id: general!._id, name: 'Regular', price: 1000 }, { name: 'VIP', price: 3000, capacity: 5 }] },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const [regular, vip] = set.body.ticketTypes as Array<{ _id: string }>;
    for (const code of [
      { code: 'KARIBU20', kind: 'percent', value: 20 },
      { code: 'VIPFIVE', kind: 'fixed', value: 500, ticketTypeIds: [vip!._id] },
      { code: 'UNUSED', kind: 'percent', value: 10 },
    ]) {
      expect((await t.api('POST', `/api/events/${eventId}/promo-codes`, { token: organiser.token, body: code })).status).toBe(201);
    }
    // 1 VIP + 2 Regular at 20% off: 5,000 - 1,000. Then 1 VIP with 500 off, and 1 Regular at full price.
    expect((await payFor(t, amani.token, eventId, { items: [{ typeId: vip!._id, quantity: 1 }, { typeId: regular!._id, quantity: 2 }], promoCode: 'karibu20', phone: '254711000041' })).amount).toBe(4000);
    expect((await payFor(t, baraka.token, eventId, { items: [{ typeId: vip!._id, quantity: 1 }], promoCode: 'VIPFIVE', phone: '254711000042' })).amount).toBe(2500);
    await payFor(t, baraka.token, eventId, { items: [{ typeId: regular!._id, quantity: 1 }], phone: '254711000043' });

    const res = await dashboard(eventId, organiser);
    expect(res.status).toBe(200);
    expect(res.body.totals).toMatchObject({ ticketsSold: 5, capacity: 50, grossRevenue: 7500, revenue: 7500 });
    // Each ticket carries its share of its order after the discount: VIP 2,400 + 2,500, Regular 800 + 800 + 1,000.
    expect(res.body.types).toEqual([
      { name: 'Regular', price: 1000, sold: 3, reserved: 0, reservedPaid: 0, capacity: null, revenue: 2600 },
      { name: 'VIP', price: 3000, sold: 2, reserved: 0, reservedPaid: 0, capacity: 5, revenue: 4900 },
    ]);
    expect(res.body.types.reduce((sum: number, type: { revenue: number }) => sum + type.revenue, 0)).toBe(res.body.totals.grossRevenue);
    expect(res.body.promoCodes).toEqual([
      { code: 'KARIBU20', uses: 1, discount: 1000 },
      { code: 'VIPFIVE', uses: 1, discount: 500 },
      { code: 'UNUSED', uses: 0, discount: 0 },
    ]);

    const types = await dashboard(eventId, organiser, '?format=csv&table=types');
    expect(types.headers.get('content-disposition')).toBe(`attachment; filename="types-${eventId}.csv"`);
    expect((types.body as string).trim().split('\r\n')).toEqual(['"Ticket type","Price (KES)","Sold","Capacity","Revenue (KES)"', '"Regular","1000","3","","2600"', '"VIP","3000","2","5","4900"']);
    const codes = await dashboard(eventId, organiser, '?format=csv&table=promo-codes');
    expect(codes.headers.get('content-disposition')).toBe(`attachment; filename="promo-codes-${eventId}.csv"`);
    expect((codes.body as string).trim().split('\r\n')).toEqual(['"Code","Uses","Discount (KES)"', '"KARIBU20","1","1000"', '"VIPFIVE","1","500"', '"UNUSED","0","0"']);
    const badTable = await dashboard(eventId, organiser, '?format=csv&table=people');
    expect(badTable.status).toBe(400);
    expect(JSON.stringify(badTable.body)).toMatch(/table must be sales, types or promo-codes/);
  });

  it('counts a transferred ticket once, under its type and at its price: the types table adds up to the totals', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 14, price: 400, capacity: 50, title: title('Passed-on dashboard gala') });
    const [general] = (await t.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes as Array<{ _id: string }>;
    const set = await t.api('PUT', `/api/events/${eventId}/ticket-types`, {
      token: organiser.token,
      body: { ticketTypes: [{ _id: general!._id, name: 'Regular', price: 400 }, { name: 'VIP', price: 1600, capacity: 3 }] },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const [regular, vip] = set.body.ticketTypes as Array<{ _id: string }>;
    // Four tickets for 2,800: Amani 1 VIP + 2 Regular, Baraka 1 Regular. Amani gives a Regular to Stranger.
    await payFor(t, amani.token, eventId, { items: [{ typeId: vip!._id, quantity: 1 }, { typeId: regular!._id, quantity: 2 }], phone: '254711000051' });
    await payFor(t, baraka.token, eventId, { items: [{ typeId: regular!._id, quantity: 1 }], phone: '254711000052' });
    const given = (await t.api('GET', '/api/tickets/mine', { token: amani.token })).body.find(
      (ticket: { event: { _id: string }; ticketType: { _id: string } | null }) => ticket.event._id === eventId && ticket.ticketType?._id === regular!._id,
    );
    expect((await t.api('POST', `/api/tickets/${given._id}/transfer`, { token: amani.token, body: { to: stranger.user.username } })).status).toBe(200);

    const res = await dashboard(eventId, organiser);
    expect(res.status).toBe(200);
    expect(res.body.totals).toMatchObject({ ticketsSold: 4, grossRevenue: 2800, revenue: 2800 });
    expect(res.body.types).toEqual([
      { name: 'Regular', price: 400, sold: 3, reserved: 0, reservedPaid: 0, capacity: null, revenue: 1200 },
      { name: 'VIP', price: 1600, sold: 1, reserved: 0, reservedPaid: 0, capacity: 3, revenue: 1600 },
    ]);
    const sum = (key: 'sold' | 'revenue') => (res.body.types as Array<Record<typeof key, number>>).reduce((total, type) => total + type[key], 0);
    expect({ sold: sum('sold'), revenue: sum('revenue') }).toEqual({ sold: res.body.totals.ticketsSold, revenue: res.body.totals.grossRevenue });
    // The transfer is not a sale: the day still counts four tickets.
    expect(res.body.salesByDay).toEqual([{ day: nairobiDay(Date.now()), tickets: 4, revenue: 2800 }]);
  });

  it('counts registrations of a free event and pending refunds; a pending event is missing to strangers; bad input names the field', async () => {
    const freeId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 7, capacity: null, title: title('Free dashboard meetup') });
    expect((await t.api('POST', `/api/events/register/${freeId}`, { token: amani.token, body: { tickets: 2 } })).status).toBeLessThan(300);
    const free = await dashboard(freeId, organiser);
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({
      event: { isPaid: false, ticketPrice: 0 },
      totals: { ticketsSold: 2, capacity: null, grossRevenue: 0, revenue: 0 },
      salesByDay: [{ day: nairobiDay(Date.now()), tickets: 2, revenue: 0 }],
      types: [{ name: 'General admission', price: 0, sold: 2, reserved: 0, reservedPaid: 0, capacity: null, revenue: 0 }],
    });

    // Refunds owed but not yet paid out are shown apart and do not lower the revenue yet.
    const paidId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 14, price: 300, capacity: 10, title: title('Pending refund gala') });
    await t.db.update(events).set({ refundPolicy: 'full' }).where(eq(events.id, paidId));
    await payFor(t, baraka.token, paidId, { quantity: 2, phone: '254711000033' });
    const [ticket] = await mine(baraka, paidId);
    expect((await t.api('POST', '/api/tickets/cancel', { token: baraka.token, body: { ticketIds: [ticket!._id] } })).status).toBe(200);
    expect((await dashboard(paidId, organiser)).body.totals).toEqual({
      ticketsSold: 1,
      capacity: 10,
      checkedIn: 0,
      grossRevenue: 600,
      refunded: { count: 0, amount: 0 },
      refundsPending: { count: 1, amount: 300 },
      revenue: 600,
    });

    const pendingId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 7, status: 'pending', title: title('Pending dashboard') });
    expect((await dashboard(pendingId, stranger)).status).toBe(404);
    expect((await dashboard(pendingId, organiser)).status).toBe(200);
    expect((await dashboard(pendingId, admin)).status).toBe(200);
    expect((await dashboard('0123456789abcdef01234567', organiser)).status).toBe(404);

    const badId = await dashboard('not-an-id', organiser);
    expect(badId.status).toBe(400);
    expect(JSON.stringify(badId.body)).toMatch(/Event id/);
    const badFormat = await dashboard(freeId, organiser, '?format=xml');
    expect(badFormat.status).toBe(400);
    expect(JSON.stringify(badFormat.body)).toMatch(/format/);
    // Nothing about the free event changed by being read.
    expect((await t.db.select().from(tickets).where(inArray(tickets.eventId, [freeId]))).length).toBe(2);
  });
});
