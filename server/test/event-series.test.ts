import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDates, events, orders, tickets } from '../src/db/schema.js';
import { dayFromNow, insertEventRow } from './helpers/events.js';
import { auditBooks, internalHeaders, payFor, providerView, refundsOf } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Event series (docs/decisions/event-series.md) over HTTP: an event with several dates, each with its own seats;
 * day tickets and all-dates passes; the hold counting per date under concurrency; lists and search showing the
 * series once with its next date; check-in per date; cancelling one date refunding only its buyers.
 */

type Session = { token: string; user: { _id: string; email: string; username: string } };
type DateSeats = { _id: string; startsAt: string; capacity: number | null; status: string; sold: number; seatsLeft: number | null };

let t: TestServer;
let organiser: Session;
let stranger: Session;
let buyers: Session[];

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('seriesorganiser');
  stranger = await t.createUser('seriesstranger');
  buyers = [];
  for (const name of ['seriesamani', 'seriesbaraka', 'serieschebet', 'seriesdaudi']) buyers.push(await t.createUser(name));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const title = (what: string) => `${what} ${Math.random().toString(36).slice(2, 8)}`;
const addDate = (eventId: string, body: Record<string, unknown>, as: Session = organiser) => t.api('POST', `/api/events/${eventId}/dates`, { token: as.token, body });
const datesOf = async (eventId: string) => (await t.api('GET', `/api/events/${eventId}/dates`)).body.dates as DateSeats[];
const hold = (buyer: Session, eventId: string, body: Record<string, unknown>) =>
  t.api('POST', '/api/internal/payments/orders', { token: buyer.token, headers: internalHeaders(t), body: { eventId, quantity: 1, phone: '254711000009', ...body } });
const myTickets = async (buyer: Session, eventId: string) =>
  ((await t.api('GET', '/api/tickets/mine', { token: buyer.token })).body as Array<{ _id: string; code: string; event: { _id: string }; seriesDate?: { _id: string } | null; allDates?: boolean; voidedAt: string | null }>).filter(
    (ticket) => ticket.event._id === eventId,
  );

/** A paid series: the event's own date (capacity 2) plus two more (3 and 2 seats), a day ticket and a festival pass. */
async function festival(what = 'Festival') {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 2, title: title(what) });
  const second = await addDate(eventId, { startsAt: dayFromNow(11), capacity: 3 });
  expect(second.status).toBe(201);
  const third = await addDate(eventId, { startsAt: dayFromNow(12, '19:30'), capacity: 2 });
  expect(third.status).toBe(201);
  const dates = await datesOf(eventId);
  expect(dates.map((date) => date.capacity)).toEqual([2, 3, 2]);
  const types = (await t.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes as Array<{ _id: string }>;
  const set = await t.api('PUT', `/api/events/${eventId}/ticket-types`, {
    token: organiser.token,
    body: { ticketTypes: [{ _id: types[0]!._id, name: 'Day ticket', price: 500 }, { name: 'Festival pass', price: 1200, allDates: true }] },
  });
  expect(set.status).toBe(200);
  const [day, pass] = set.body.ticketTypes as Array<{ _id: string; allDates?: boolean }>;
  expect(pass).toMatchObject({ allDates: true });
  return { eventId, dates: dates.map((date) => date._id) as [string, string, string], day: day!._id, pass: pass!._id };
}

describe('event series', () => {
  it('turns an event into a series: its own date first, each date with its own seats, the answer carrying dates and the next date', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 40, title: title('Comedy night') });
    const before = (await t.api('GET', `/api/events/${eventId}`)).body;
    expect(before).not.toHaveProperty('dates');
    expect(before).not.toHaveProperty('nextDate');
    // A ticket sold before the event became a series is for its first date.
    await payFor(t, buyers[0]!.token, eventId);

    const added = await addDate(eventId, { startsAt: dayFromNow(17), capacity: 30 });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ capacity: 30, status: 'active', sold: 0, seatsLeft: 30 });
    const dates = await datesOf(eventId);
    expect(dates).toHaveLength(2);
    expect(dates[0]).toMatchObject({ startsAt: before.date, capacity: 40, sold: 1, seatsLeft: 39 });
    const [ticket] = await myTickets(buyers[0]!, eventId);
    expect(ticket!.seriesDate).toEqual({ _id: dates[0]!._id, startsAt: before.date });

    const event = (await t.api('GET', `/api/events/${eventId}`)).body;
    expect(event.dates.map((date: { _id: string }) => date._id)).toEqual(dates.map((date) => date._id));
    expect(event.nextDate).toMatchObject({ _id: dates[0]!._id, startsAt: before.date });
    expect(event.date).toBe(before.date);

    // Only the organiser (or an admin) changes dates.
    expect((await addDate(eventId, { startsAt: dayFromNow(24) }, stranger)).status).toBe(403);
  });

  it('sells each date on its own: one date sells out while another still has seats; a purchase names its date', async () => {
    const { eventId, dates, day } = await festival('Day tickets');
    const [first, second] = dates;
    const noDate = await hold(buyers[0]!, eventId, { items: [{ typeId: day, quantity: 1 }] });
    expect(noDate.status).toBe(400);
    expect(noDate.body.code).toBe('event_date_required');

    const paid = await payFor(t, buyers[0]!.token, eventId, { items: [{ typeId: day, quantity: 2 }], dateId: first });
    expect(paid.amount).toBe(1000);
    const full = await hold(buyers[1]!, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: first });
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('event_date_sold_out');
    // The quote says the same before anything is held.
    const quoted = await t.api('POST', `/api/events/${eventId}/quote`, { token: buyers[1]!.token, body: { items: [{ typeId: day, quantity: 1 }], dateId: first } });
    expect(quoted.status).toBe(409);
    expect(quoted.body.code).toBe('event_date_sold_out');

    const other = await hold(buyers[1]!, eventId, { items: [{ typeId: day, quantity: 3 }], dateId: second });
    expect(other.status).toBe(201);
    expect(other.body.dateId).toBe(second);
    const left = await datesOf(eventId);
    expect(left.map((date) => date.seatsLeft)).toEqual([0, 0, 2]);
    expect((await myTickets(buyers[0]!, eventId)).map((ticket) => ticket.seriesDate?._id)).toEqual([first, first]);
  });

  it('an all-dates pass takes a seat on every date, and is bought on its own', async () => {
    const { eventId, dates, day, pass } = await festival('Passes');
    const [first, second, third] = dates;
    await payFor(t, buyers[0]!.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: second });
    await payFor(t, buyers[1]!.token, eventId, { items: [{ typeId: pass, quantity: 1 }] });
    expect((await datesOf(eventId)).map((date) => date.seatsLeft)).toEqual([1, 1, 1]);
    const [held] = await myTickets(buyers[1]!, eventId);
    expect(held).toMatchObject({ seriesDate: null, allDates: true });

    await payFor(t, buyers[2]!.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: third });
    // The third date is full now, so no pass fits, though the other dates have seats.
    const noPass = await hold(buyers[3]!, eventId, { items: [{ typeId: pass, quantity: 1 }] });
    expect(noPass.status).toBe(409);
    expect(noPass.body.code).toBe('event_date_sold_out');
    expect((await hold(buyers[3]!, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: first })).status).toBe(201);

    const mixed = await hold(buyers[3]!, eventId, { items: [{ typeId: day, quantity: 1 }, { typeId: pass, quantity: 1 }], dateId: second });
    expect(mixed.status).toBe(400);
    expect(mixed.body.code).toBe('event_date_pass_mixed');
  });

  it('never oversells a date under concurrent buyers', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 300, capacity: 100, title: title('Rush') });
    const added = await addDate(eventId, { startsAt: dayFromNow(11), capacity: 3 });
    const dateId = added.body._id as string;
    const burst = await Promise.all(Array.from({ length: 12 }, (_, index) => hold(buyers[index % buyers.length]!, eventId, { quantity: 1, dateId })));
    expect(burst.filter((res) => res.status === 201)).toHaveLength(3);
    expect(burst.filter((res) => res.status === 409).every((res) => res.body.code === 'event_date_sold_out')).toBe(true);
    const held = await t.db.select().from(orders).where(eq(orders.dateId, dateId));
    expect(held.reduce((sum, order) => sum + order.quantity, 0)).toBe(3);
    // The event's own date is untouched by them.
    expect((await datesOf(eventId)).map((date) => date.seatsLeft)).toEqual([100, 0]);
  });

  it('lists and search show the series once, with its next date', async () => {
    const name = title('Series gala');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 10, title: name });
    await addDate(eventId, { startsAt: dayFromNow(17), capacity: 10 });
    await addDate(eventId, { startsAt: dayFromNow(24), capacity: 10 });
    const own = (await datesOf(eventId))[0]!;

    const found = await t.api('GET', `/api/events?q=${encodeURIComponent(name)}`);
    expect(found.status).toBe(200);
    const hits = found.body.items.filter((item: { _id: string }) => item._id === eventId);
    expect(hits).toHaveLength(1);
    expect(hits[0].nextDate).toMatchObject({ _id: own._id, startsAt: own.startsAt });
    expect(hits[0].dates).toHaveLength(3);

    const approved = (await t.api('GET', '/api/events/admin/approved')).body as Array<{ _id: string; nextDate?: { _id: string } }>;
    const listed = approved.filter((item) => item._id === eventId);
    expect(listed).toHaveLength(1);
    expect(listed[0]!.nextDate?._id).toBe(own._id);
  });

  it('keeps a series listed and searchable while a later date remains, its next date the next upcoming one', async () => {
    const name = title('Weekly poetry');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 2, price: 500, capacity: 10, title: name });
    await addDate(eventId, { startsAt: dayFromNow(9), capacity: 10 });
    const [own, later] = await datesOf(eventId);
    const searched = async () => ((await t.api('GET', `/api/events?q=${encodeURIComponent(name)}`)).body.items as Array<{ _id: string; nextDate?: { _id: string } }>).filter((item) => item._id === eventId);
    const upcoming = async () => ((await t.api('GET', '/api/events/upcoming?limit=50')).body as Array<{ _id: string; nextDate?: { _id: string } }>).filter((item) => item._id === eventId);
    const popular = async () => ((await t.api('GET', '/api/events/popular?limit=50')).body as Array<{ _id: string }>).filter((item) => item._id === eventId);
    expect(await searched()).toHaveLength(1);

    // Time passes the first date (yesterday on the Nairobi wall clock, before search's "from today"); the later one remains.
    const yesterday = new Date(Date.now() + 3 * 60 * 60 * 1000 - 25 * 60 * 60 * 1000);
    await t.db.update(eventDates).set({ startsAt: yesterday }).where(eq(eventDates.id, own!._id));
    await t.db.update(events).set({ startsAt: yesterday }).where(eq(events.id, eventId));
    // Any change to the event refreshes the cached lists and search, as a real edit would; the clock alone does not.
    await addDate(eventId, { startsAt: dayFromNow(30), capacity: 5 });

    const hits = await searched();
    expect(hits).toHaveLength(1);
    expect(hits[0]!.nextDate?._id).toBe(later!._id);
    const listed = await upcoming();
    expect(listed).toHaveLength(1);
    expect(listed[0]!.nextDate?._id).toBe(later!._id);
    expect(await popular()).toHaveLength(1);

    // Once no active date is left ahead, the series drops out like any past event.
    const dates = await datesOf(eventId);
    for (const date of dates.slice(1)) await t.db.update(eventDates).set({ startsAt: yesterday }).where(eq(eventDates.id, date._id));
    // Searched by name and place: a query the cached search has not answered yet (the clock alone changes no event).
    const inNairobi = (await t.api('GET', `/api/events?q=${encodeURIComponent(name)}&location=Nairobi`)).body.items as Array<{ _id: string }>;
    expect(inNairobi.filter((item) => item._id === eventId)).toHaveLength(0);
    expect(await upcoming()).toHaveLength(0);
  });

  it('registers for a free series on the picked date, with the same per-date seats rule', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 2, capacity: 5, title: title('Free meetup') });
    expect((await addDate(eventId, { startsAt: dayFromNow(9), capacity: 1 })).status).toBe(201);
    const [first, second] = await datesOf(eventId);
    const register = (buyer: Session, body: Record<string, unknown>) => t.api('POST', `/api/events/register/${eventId}`, { token: buyer.token, body });
    const ticketsOf = async (buyer: Session) => (await myTickets(buyer, eventId)).filter((ticket) => !ticket.voidedAt);

    const noDate = await register(buyers[0]!, {});
    expect(noDate.status).toBe(400);
    expect(noDate.body.code).toBe('event_date_required');
    const unknown = await register(buyers[0]!, { dateId: 'a'.repeat(24) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('event_date_not_found');
    expect(await ticketsOf(buyers[0]!)).toHaveLength(0);

    expect((await register(buyers[0]!, { dateId: second!._id })).status).toBe(200);
    expect((await ticketsOf(buyers[0]!)).map((ticket) => ticket.seriesDate?._id)).toEqual([second!._id]);
    // The second date holds one seat: taken. The first still has seats.
    const full = await register(buyers[1]!, { dateId: second!._id });
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('sold_out');
    expect(await ticketsOf(buyers[1]!)).toHaveLength(0);
    expect((await register(buyers[1]!, { dateId: first!._id, tickets: 2 })).status).toBe(200);
    expect((await ticketsOf(buyers[1]!)).map((ticket) => ticket.seriesDate?._id)).toEqual([first!._id, first!._id]);
    // Registered for one date, a person may register for another; the same date twice is one registration.
    const again = await register(buyers[0]!, { dateId: second!._id });
    expect(again.status).toBe(200);
    expect(again.body.message).toMatch(/already/i);
    expect(await ticketsOf(buyers[0]!)).toHaveLength(1);
    expect((await register(buyers[0]!, { dateId: first!._id })).status).toBe(200);
    expect((await ticketsOf(buyers[0]!)).map((ticket) => ticket.seriesDate?._id).sort()).toEqual([first!._id, second!._id].sort());

    // Once the first date has passed, it is refused; the series stays open for its later date.
    const anHourAgo = new Date(Date.now() + 3 * 60 * 60 * 1000 - 60 * 60 * 1000);
    await t.db.update(eventDates).set({ startsAt: anHourAgo }).where(eq(eventDates.id, first!._id));
    await t.db.update(events).set({ startsAt: anHourAgo }).where(eq(events.id, eventId));
    const past = await register(buyers[2]!, { dateId: first!._id });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('event_date_past');
    expect(await ticketsOf(buyers[2]!)).toHaveLength(0);
  });

  it('a free series takes one registration per person and date, not per event; an event with one date stays one per person', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 3, capacity: 10, title: title('Free walks') });
    expect((await addDate(eventId, { startsAt: dayFromNow(6), capacity: 10 })).status).toBe(201);
    expect((await addDate(eventId, { startsAt: dayFromNow(8), capacity: 10 })).status).toBe(201);
    const [first, second, third] = await datesOf(eventId);
    const register = (buyer: Session, id: string, body: Record<string, unknown>) => t.api('POST', `/api/events/register/${id}`, { token: buyer.token, body });
    const held = async (buyer: Session, id: string) => (await myTickets(buyer, id)).filter((ticket) => !ticket.voidedAt).map((ticket) => ticket.seriesDate?._id ?? null).sort();
    const walker = buyers[3]!;

    const one = await register(walker, eventId, { dateId: first!._id });
    expect(one.status).toBe(200);
    expect(one.body.message).toBe('Registered successfully');
    const two = await register(walker, eventId, { dateId: third!._id });
    expect(two.status).toBe(200);
    expect(two.body.message).toBe('Registered successfully');
    expect(await held(walker, eventId)).toEqual([first!._id, third!._id].sort());
    // The same date again is the registration they hold; the event lists them once.
    const again = await register(walker, eventId, { dateId: third!._id, tickets: 2 });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('You are already registered for this event.');
    expect(await held(walker, eventId)).toEqual([first!._id, third!._id].sort());
    expect((await datesOf(eventId)).map((date) => date.sold)).toEqual([1, 0, 1]);
    const event = (await t.api('GET', `/api/events/${eventId}`)).body;
    expect((event.registeredUsers as string[]).filter((id) => id === walker.user._id)).toHaveLength(1);
    expect(second!.status).toBe('active');

    // An event with one date: one registration per person, as before.
    const single = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 3, capacity: 10, title: title('One night') });
    expect((await register(walker, single, {})).body.message).toBe('Registered successfully');
    const twice = await register(walker, single, {});
    expect(twice.status).toBe(200);
    expect(twice.body.message).toBe('You are already registered for this event.');
    expect(await held(walker, single)).toEqual([null]);
  });

  it('checks in per date: a ticket for another date is refused, a pass is admitted once on each date', async () => {
    const { eventId, dates, day, pass } = await festival('Gate');
    const [first, second] = dates;
    await payFor(t, buyers[0]!.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: second });
    await payFor(t, buyers[1]!.token, eventId, { items: [{ typeId: pass, quantity: 1 }] });
    const [dayTicket] = await myTickets(buyers[0]!, eventId);
    const [passTicket] = await myTickets(buyers[1]!, eventId);
    const checkIn = (code: string, dateId?: string) => t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code, ...(dateId ? { dateId } : {}) } });

    const noDate = await checkIn(dayTicket!.code);
    expect(noDate.status).toBe(400);
    expect(noDate.body.code).toBe('checkin_date_required');
    const wrong = await checkIn(dayTicket!.code, first);
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('checkin_wrong_date');
    expect(wrong.body.msg ?? wrong.body.message).toMatch(/^This ticket is for .+, not for this date\.$/);
    expect((await checkIn(dayTicket!.code, second)).status).toBe(200);
    const again = await checkIn(dayTicket!.code, second);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ticket_already_used');

    expect((await checkIn(passTicket!.code, first)).status).toBe(200);
    expect((await checkIn(passTicket!.code, first)).body.code).toBe('ticket_already_used');
    expect((await checkIn(passTicket!.code, second)).status).toBe(200);
  });

  it('cancelling one date refunds only its buyers: its tickets void, passes and other dates kept, the books balanced', async () => {
    const { eventId, dates, day, pass } = await festival('Rained off');
    const [first, second] = dates;
    const onFirst = await payFor(t, buyers[0]!.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: first, phone: '254711000021' });
    const onSecond = await payFor(t, buyers[1]!.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: second, phone: '254711000022' });
    const passPaid = await payFor(t, buyers[2]!.token, eventId, { items: [{ typeId: pass, quantity: 1 }], phone: '254711000023' });
    const pendingSecond = await payFor(t, buyers[3]!.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: second, settle: false });

    const unconfirmed = await t.api('DELETE', `/api/events/${eventId}/dates/${second}`, { token: organiser.token });
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body).toMatchObject({ code: 'event_date_confirm_cancel', params: { sold: 1 } });
    expect((await datesOf(eventId))[1]!.status).toBe('active');

    const cancelled = await t.api('DELETE', `/api/events/${eventId}/dates/${second}?confirm=true&reason=${encodeURIComponent('Flooded grounds.')}`, { token: organiser.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ removed: false, cancelled: true, ticketsVoided: 1, ordersReleased: 1, refunds: 1 });

    const refunds = await refundsOf(t, eventId);
    expect(refunds.map((row) => ({ orderId: row.orderId, amount: row.amount, reason: row.reason }))).toEqual([{ orderId: onSecond.orderId, amount: 500, reason: 'event_cancelled' }]);
    const statusOf = async (orderId: string) => (await t.db.select().from(orders).where(eq(orders.id, orderId)))[0]!.status;
    expect(await statusOf(onSecond.orderId)).toBe('refund_due');
    expect(await statusOf(pendingSecond.orderId)).toBe('cancelled');
    expect(await statusOf(onFirst.orderId)).toBe('paid');
    expect(await statusOf(passPaid.orderId)).toBe('paid');
    const rows = await t.db.select().from(tickets).where(eq(tickets.eventId, eventId));
    expect(rows.filter((row) => row.voidedAt).map((row) => row.dateId)).toEqual([second]);
    expect(rows.filter((row) => !row.voidedAt)).toHaveLength(2);

    // The date stays, cancelled; it is no longer sold, and the event's answer shows it cancelled.
    expect((await datesOf(eventId))[1]).toMatchObject({ _id: second, status: 'cancelled' });
    const late = await hold(buyers[3]!, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: second });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('event_date_unavailable');
    expect((await t.api('GET', `/api/events/${eventId}`)).body.dates[1]).toMatchObject({ _id: second, status: 'cancelled' });

    const books = await providerView(t);
    const audit = await auditBooks(t, books);
    expect(audit.body.discrepancies).toEqual([]);
  });

  it('removes a date nobody bought, and refuses bad input without changing anything', async () => {
    const { eventId, dates, day } = await festival('Edits');
    const [first, second, third] = dates;
    expect((await t.api('DELETE', `/api/events/${eventId}/dates/${third}`, { token: organiser.token })).body).toMatchObject({ removed: true });
    expect(await datesOf(eventId)).toHaveLength(2);

    const past = await addDate(eventId, { startsAt: dayFromNow(-2), capacity: 5 });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('event_date_in_past');
    expect((await addDate(eventId, { startsAt: 'next friday' })).status).toBe(400);
    expect((await addDate(eventId, { startsAt: dayFromNow(30), capacity: 0 })).status).toBe(400);
    expect((await addDate(eventId, { startsAt: dayFromNow(30, '20:00'), endsAt: dayFromNow(30, '18:00') })).status).toBe(400);
    expect(await datesOf(eventId)).toHaveLength(2);

    await payFor(t, buyers[0]!.token, eventId, { items: [{ typeId: day, quantity: 2 }], dateId: second });
    const below = await t.api('PATCH', `/api/events/${eventId}/dates/${second}`, { token: organiser.token, body: { capacity: 1 } });
    expect(below.status).toBe(409);
    expect(below.body).toMatchObject({ code: 'event_date_capacity_below_sold', params: { taken: 2 } });
    const moved = await t.api('PATCH', `/api/events/${eventId}/dates/${second}`, { token: organiser.token, body: { capacity: 5, startsAt: dayFromNow(15) } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ capacity: 5, sold: 2, seatsLeft: 3 });
    expect((await t.api('PATCH', `/api/events/${eventId}/dates/${first}`, { token: organiser.token, body: { startsAt: dayFromNow(-1) } })).status).toBe(400);

    // A date of another event, and a date on an event without dates.
    const plain = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 10, title: title('Plain') });
    const stray = await hold(buyers[1]!, plain, { quantity: 1, dateId: second });
    expect(stray.status).toBe(400);
    expect(stray.body.code).toBe('event_has_one_date');
    expect((await t.api('DELETE', `/api/events/${eventId}/dates/${first}`, { token: organiser.token })).body).toMatchObject({ removed: true });
    const last = await t.api('DELETE', `/api/events/${eventId}/dates/${second}?confirm=true`, { token: organiser.token });
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('event_date_last');
  });
});
