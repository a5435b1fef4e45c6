import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { events, orders, tickets, waitlistEntries } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The waitlist of a sold-out event: people join in order; a freed seat is offered to the first person
 * waiting, held for them (nobody else can buy it) and emailed; they take it with the normal checkout;
 * an offer that runs out passes to the next person; concurrent buyers never get an offered seat.
 */

type Session = { token: string; user: { _id: string; email: string; username: string } };
type Place = {
  seatsAvailable: number | null;
  waiting: number;
  entry: null | { status: string; quantity: number; position: number | null; offeredQuantity: number | null; offerExpiresAt: string | null };
};

let t: TestServer;
let organiser: Session;
let people: Record<'wanjiku' | 'otieno' | 'njeri' | 'kiprono' | 'achieng' | 'mutua', Session>;

beforeAll(async () => {
  // Every waitlist is looked at five times a second here, so an offer that ran out passes on quickly.
  t = await startTestServer({ WAITLIST_SWEEP_MS: '200' });
  organiser = await t.createUser('wlorganiser');
  const names = ['wanjiku', 'otieno', 'njeri', 'kiprono', 'achieng', 'mutua'] as const;
  people = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await t.createUser(`wl${name}`)] as const))) as unknown as typeof people;
}, 90_000);
afterAll(async () => {
  await t?.close();
});

const join = (as: Session | undefined, eventId: string, body: unknown = { quantity: 1 }) => t.api('POST', `/api/events/${eventId}/waitlist`, { token: as?.token, body });
const place = async (as: Session, eventId: string): Promise<Place> => {
  const res = await t.api('GET', `/api/events/${eventId}/waitlist/mine`, { token: as.token });
  expect(res.status).toBe(200);
  return res.body;
};
const tryOrder = (as: Session, eventId: string, quantity = 1) =>
  t.api('POST', '/api/internal/payments/orders', { token: as.token, headers: internalHeaders(t), body: { eventId, quantity, phone: '254712000111' } });
const entriesOf = (eventId: string) => t.db.select().from(waitlistEntries).where(eq(waitlistEntries.eventId, eventId)).orderBy(waitlistEntries.createdAt);
const pendingOrders = (eventId: string) => t.db.select().from(orders).where(and(eq(orders.eventId, eventId), eq(orders.status, 'pending')));
/** The offer email of this event (its title ends with the id's last six digits). */
const offerSubject = (eventId: string) => new RegExp(`^A seat is held for you: Event ${eventId.slice(-6)}$`);
const statusOf = async (as: Session, eventId: string) => (await place(as, eventId)).entry?.status;

async function paidEvent(capacity: number, options: { refundable?: boolean; price?: number } = {}) {
  const id = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 12, price: options.price ?? 300, capacity });
  if (options.refundable) await t.db.update(events).set({ refundPolicy: 'full', refundUntilHours: 1 }).where(eq(events.id, id));
  return id;
}
async function ticketIdsOf(as: Session, eventId: string): Promise<string[]> {
  const mine = (await t.api('GET', '/api/tickets/mine', { token: as.token })).body as Array<{ _id: string; voidedAt: string | null; event: { _id: string } }>;
  return mine.filter((ticket) => ticket.event._id === eventId && !ticket.voidedAt).map((ticket) => ticket._id);
}
async function selfCancel(as: Session, eventId: string) {
  const res = await t.api('POST', '/api/tickets/cancel', { token: as.token, body: { ticketIds: await ticketIdsOf(as, eventId) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('joining a waitlist', () => {
  it('is for sold-out events only, once per person, and refuses bad input without changing anything', async () => {
    const open = await paidEvent(3);
    const full = await paidEvent(1);
    await payFor(t, people.wanjiku.token, full);
    const unlimited = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 12 });
    const hidden = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 12, status: 'pending', capacity: 1 });
    const started = await insertEventRow(t.db, { ownerId: organiser.user._id, days: -1, capacity: 1 });

    const stillOpen = await join(people.otieno, open);
    expect(stillOpen.status).toBe(409);
    expect(stillOpen.body).toMatchObject({ msg: 'Tickets are still available (3 left): get them now instead of waiting.', seatsAvailable: 3 });
    expect((await join(people.otieno, unlimited)).body.msg).toBe('This event has no seat limit: get your tickets now.');
    expect((await join(people.otieno, hidden)).status).toBe(404);
    expect((await join(people.otieno, started)).status).toBe(400);
    expect((await join(people.otieno, '0123456789abcdef01234567')).status).toBe(404);
    expect((await join(undefined, full)).status).toBe(401);
    for (const quantity of [0, 11, 'two', 1.5]) {
      const bad = await join(people.otieno, full, { quantity });
      expect(bad.status, String(quantity)).toBe(400);
      expect(bad.body.field).toBe('quantity');
    }
    expect(await entriesOf(full)).toEqual([]);

    const joined = await join(people.otieno, full, { quantity: 2 });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ seatsAvailable: 0, waiting: 1, entry: { status: 'waiting', quantity: 2, position: 1, offerExpiresAt: null } });
    const twice = await join(people.otieno, full);
    expect(twice.status).toBe(409);
    expect(twice.body.msg).toBe('You are already on the waitlist for this event.');
    expect(await join(people.njeri, full)).toMatchObject({ status: 201, body: { waiting: 2, entry: { position: 2 } } });
    expect(await entriesOf(full)).toHaveLength(2);

    // Leaving is once too; the place behind moves up.
    expect((await t.api('DELETE', `/api/events/${full}/waitlist`, { token: people.otieno.token })).body.entry.status).toBe('left');
    expect((await t.api('DELETE', `/api/events/${full}/waitlist`, { token: people.otieno.token })).status).toBe(404);
    expect((await place(people.njeri, full)).entry?.position).toBe(1);
  });
});

describe('offers of freed seats', () => {
  it('offers a cancelled seat to the first person waiting, holds it from everyone else, and the offer is taken by paying', async () => {
    const eventId = await paidEvent(2, { refundable: true, price: 1500 });
    await payFor(t, people.wanjiku.token, eventId, { phone: '254711000001' });
    await payFor(t, people.otieno.token, eventId, { phone: '254711000002' });
    for (const who of [people.njeri, people.kiprono, people.achieng]) expect((await join(who, eventId)).status).toBe(201);
    expect((await place(people.achieng, eventId)).entry?.position).toBe(3);

    await selfCancel(people.wanjiku, eventId);
    await vi.waitFor(async () => expect(await statusOf(people.njeri, eventId)).toBe('offered'), { timeout: 15_000, interval: 100 });
    const offer = (await place(people.njeri, eventId)).entry!;
    expect(offer.offeredQuantity).toBe(1);
    // Held for 30 minutes (the default), from about now.
    const holdMs = new Date(offer.offerExpiresAt!).getTime() - Date.now();
    expect(holdMs).toBeGreaterThan(25 * 60_000);
    expect(holdMs).toBeLessThanOrEqual(30 * 60_000);
    const mail = await t.smtp.waitFor(people.njeri.user.email, offerSubject(eventId));
    expect(mail.text).toContain(`/events/${eventId}`);
    expect(mail.text).toMatch(/We hold it for you until .+ \(Nairobi time\)/);

    // The seat is Njeri's: a stranger and the next person in line are refused, and see it as taken.
    expect((await place(people.kiprono, eventId)).seatsAvailable).toBe(0);
    expect((await place(people.njeri, eventId)).seatsAvailable).toBe(1);
    for (const who of [people.mutua, people.kiprono]) {
      const refused = await tryOrder(who, eventId);
      expect(refused.status).toBe(409);
      expect(refused.body.msg).toMatch(/sold out/i);
    }
    expect(await pendingOrders(eventId)).toEqual([]);

    const paid = await payFor(t, people.njeri.token, eventId, { phone: '254711000003' });
    expect(await statusOf(people.njeri, eventId)).toBe('accepted');
    // The ticket email is the buyer's proof of payment: amount (Kenyan style) and M-Pesa receipt.
    const ticketMail = await t.smtp.waitFor(people.njeri.user.email, new RegExp(`^Your Tukio ticket: Event ${eventId.slice(-6)}$`));
    expect(ticketMail.text).toContain(`Paid: Ksh.1,500 by M-Pesa, receipt ${paid.receipt}.`);
    expect(await ticketIdsOf(people.njeri, eventId)).toHaveLength(1);

    const list = await t.api('GET', `/api/events/${eventId}/waitlist`, { token: organiser.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ length: 2, offered: 0, accepted: 1 });
    expect(list.body.entries.map((entry: { username: string; status: string }) => [entry.username, entry.status])).toEqual([
      [people.kiprono.user.username, 'waiting'],
      [people.achieng.user.username, 'waiting'],
      [people.njeri.user.username, 'accepted'],
    ]);
    expect(JSON.stringify(list.body)).not.toContain('@example.com');
    expect((await t.api('GET', `/api/events/${eventId}/waitlist`, { token: people.kiprono.token })).status).toBe(403);
  });

  it('passes an offer that ran out to the next person, and the late taker is told their offer expired', async () => {
    const eventId = await paidEvent(1, { refundable: true });
    await payFor(t, people.wanjiku.token, eventId, { phone: '254711000004' });
    await join(people.otieno, eventId);
    await join(people.njeri, eventId);
    await selfCancel(people.wanjiku, eventId);
    await vi.waitFor(async () => expect(await statusOf(people.otieno, eventId)).toBe('offered'), { timeout: 15_000, interval: 100 });

    // Thirty minutes pass.
    await t.db
      .update(waitlistEntries)
      .set({ offerExpiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.userId, people.otieno.user._id)));
    await vi.waitFor(async () => expect(await statusOf(people.njeri, eventId)).toBe('offered'), { timeout: 15_000, interval: 100 });
    expect(await statusOf(people.otieno, eventId)).toBe('expired');
    await t.smtp.waitFor(people.njeri.user.email, offerSubject(eventId));

    const late = await tryOrder(people.otieno, eventId);
    expect(late.status).toBe(409);
    expect(late.body.msg).toMatch(/^Your waitlist offer expired at \d\d:\d\d UTC and passed to the next person\./);
    expect(await pendingOrders(eventId)).toEqual([]);
    expect((await tryOrder(people.njeri, eventId)).status).toBe(201);
  });

  it('under concurrent checkouts only the person offered gets the seat, and only once', async () => {
    const eventId = await paidEvent(1, { refundable: true });
    await payFor(t, people.wanjiku.token, eventId, { phone: '254711000005' });
    await join(people.kiprono, eventId);
    await selfCancel(people.wanjiku, eventId);
    await vi.waitFor(async () => expect(await statusOf(people.kiprono, eventId)).toBe('offered'), { timeout: 15_000, interval: 100 });

    const attempts = await Promise.all([
      ...Array.from({ length: 5 }, () => tryOrder(people.kiprono, eventId)),
      ...[people.achieng, people.mutua, people.otieno, people.njeri, people.wanjiku].map((who) => tryOrder(who, eventId)),
    ]);
    const won = attempts.filter((res) => res.status === 201);
    expect(won).toHaveLength(1);
    expect(attempts.filter((res) => res.status === 409)).toHaveLength(9);
    const pending = await pendingOrders(eventId);
    expect(pending.map((order) => order.userId)).toEqual([people.kiprono.user._id]);
  });

  it('offers seats freed by a raised capacity or a hold that ran out, in the order people joined', async () => {
    const eventId = await paidEvent(1);
    const held = await payFor(t, people.wanjiku.token, eventId, { settle: false });
    await join(people.otieno, eventId, { quantity: 2 });
    await join(people.njeri, eventId);
    await join(people.kiprono, eventId);

    // The organiser adds two seats: both go to Otieno, who asked for two.
    const raised = await t.api('PUT', `/api/events/${eventId}`, { token: organiser.token, body: { capacity: 3 } });
    expect(raised.status).toBe(200);
    await vi.waitFor(async () => expect((await place(people.otieno, eventId)).entry).toMatchObject({ status: 'offered', offeredQuantity: 2 }), { timeout: 15_000, interval: 100 });
    expect(await statusOf(people.njeri, eventId)).toBe('waiting');
    // Lowering the capacity below what is offered is refused like below what is sold.
    expect((await t.api('PUT', `/api/events/${eventId}`, { token: organiser.token, body: { capacity: 2 } })).status).toBe(409);

    // Wanjiku's pending purchase runs out of time: her seat goes to Njeri.
    await t.db.update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, held.orderId));
    await vi.waitFor(async () => expect(await statusOf(people.njeri, eventId)).toBe('offered'), { timeout: 15_000, interval: 100 });
    expect(await statusOf(people.kiprono, eventId)).toBe('waiting');

    // Otieno gives his offer back: it passes to Kiprono (one seat of the two is his: he asked for one).
    expect((await t.api('DELETE', `/api/events/${eventId}/waitlist`, { token: people.otieno.token })).status).toBe(200);
    await vi.waitFor(async () => expect((await place(people.kiprono, eventId)).entry).toMatchObject({ status: 'offered', offeredQuantity: 1 }), { timeout: 15_000, interval: 100 });
  });

  it('works for free events: the person offered registers, others are refused; a cancelled event closes its waitlist', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 12, capacity: 1 });
    expect((await t.api('POST', `/api/events/register/${eventId}`, { token: people.wanjiku.token, body: { tickets: 1 } })).status).toBe(200);
    await join(people.otieno, eventId);
    await join(people.njeri, eventId);
    await selfCancel(people.wanjiku, eventId);
    await vi.waitFor(async () => expect(await statusOf(people.otieno, eventId)).toBe('offered'), { timeout: 15_000, interval: 100 });
    const mail = await t.smtp.waitFor(people.otieno.user.email, offerSubject(eventId));
    expect(mail.text).toContain('register on the event page');

    const stranger = await t.api('POST', `/api/events/register/${eventId}`, { token: people.mutua.token, body: { tickets: 1 } });
    expect(stranger.status).toBe(409);
    expect((await t.api('POST', `/api/events/register/${eventId}`, { token: people.otieno.token, body: { tickets: 1 } })).status).toBe(200);
    expect(await statusOf(people.otieno, eventId)).toBe('accepted');
    expect(await t.db.select().from(tickets).where(and(eq(tickets.eventId, eventId), eq(tickets.userId, people.otieno.user._id)))).toHaveLength(1);

    expect((await t.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason: 'The hall flooded after the rains.' } })).status).toBe(200);
    await vi.waitFor(async () => expect(await statusOf(people.njeri, eventId)).toBe('closed'), { timeout: 15_000, interval: 100 });
    expect((await join(people.kiprono, eventId)).status).toBe(409);
  });
});
