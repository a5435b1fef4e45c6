import { randomInt } from 'node:crypto';
import { eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { checkinScans, events, eventShreds, orders, payments, refunds, smsMessages, tickets, users } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Retention (docs/decisions/data-rights.md, "Retention") over HTTP on a real database (PGlite, or PostgreSQL with
 * TEST_DB=postgres): tickets bought by an account and a guest, a reminder SMS and a gate scan, then the event moved
 * into the past. The daily job erases the phones, the guest's email and the device names of events ended more than
 * PERSONAL_DATA_RETENTION_DAYS ago, once; amounts and receipts stay and the payments audit stays at 0. An
 * administrator erases one ended event early; a future event is refused.
 */

const RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestServer;
type Session = { token: string; user: { _id: string } };
let admin: Session;
let organiser: Session;
let buyer: Session;

beforeAll(async () => {
  t = await startTestServer({ PERSONAL_DATA_RETENTION_DAYS: String(RETENTION_DAYS) });
  admin = await t.loginAdmin();
  [organiser, buyer] = await Promise.all([t.createUser('retainorganiser'), t.createUser('retainbuyer')]);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const newPhone = () => `2547${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

interface Sold {
  eventId: string;
  buyerPhone: string;
  guestPhone: string;
  guestEmail: string;
  receipts: string[];
}

/**
 * An event with a signed-in buyer's and a guest's paid orders, a reminder SMS and a gate device's scan, then
 * dated `endedDaysAgo` days in the past (it ends the midnight after its start day).
 */
async function soldEvent(endedDaysAgo: number): Promise<Sold> {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 500, title: `Retention night ${newId().slice(-6)}` });
  const buyerPhone = newPhone();
  const guestPhone = newPhone();
  const guestEmail = `guest-${newId().slice(-8)}@example.com`;
  const bought = await payFor(t, buyer.token, eventId, { phone: buyerPhone });
  const guest = await payFor(t, undefined, eventId, { phone: guestPhone, guestEmail });
  await t.services.sms.enqueue([{ purpose: 'event-reminder', dedupeKey: `reminder:${eventId}:${buyer.user._id}`, phone: buyerPhone, message: 'Tukio: your event is tomorrow.' }]);
  const [ticket] = await t.db.select().from(tickets).where(eq(tickets.eventId, eventId)).limit(1);
  const scannedAt = new Date();
  await t.db.update(tickets).set({ checkedInAt: scannedAt, checkedInDevice: 'Gate B' }).where(eq(tickets.id, ticket!.id));
  await t.db.insert(checkinScans).values({ id: newId(), eventId, ticketId: ticket!.id, device: 'Gate B', scannedAt, deviceScannedAt: scannedAt, scannedBy: organiser.user._id });
  // Started the day before it ended: it ended `endedDaysAgo` days ago (at the latest).
  await t.db.update(events).set({ startsAt: new Date(Date.now() - (endedDaysAgo + 1) * DAY_MS) }).where(eq(events.id, eventId));
  return { eventId, buyerPhone, guestPhone, guestEmail, receipts: [bought.receipt, guest.receipt] };
}

/** Every row the retention touches for an event, as the database has it. */
async function rowsOf(eventId: string) {
  const orderRows = await t.db.select().from(orders).where(eq(orders.eventId, eventId)).orderBy(orders.id);
  return {
    orders: orderRows,
    payments: await t.db.select().from(payments).where(eq(payments.eventId, eventId)).orderBy(payments.id),
    refunds: await t.db.select().from(refunds).where(eq(refunds.eventId, eventId)).orderBy(refunds.id),
    sms: await t.db.select().from(smsMessages).where(like(smsMessages.dedupeKey, `reminder:${eventId}:%`)),
    tickets: await t.db.select().from(tickets).where(eq(tickets.eventId, eventId)).orderBy(tickets.id),
    scans: await t.db.select().from(checkinScans).where(eq(checkinScans.eventId, eventId)),
    buyers: await t.db.select().from(users).where(inArray(users.id, orderRows.map((row) => row.userId))).orderBy(users.id),
  };
}

/** What M-Pesa would report: every successful payment as the database has it. The audit must find nothing wrong. */
async function audit() {
  const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
  const books = { payments: paid.map((row) => ({ receipt: row.mpesaReceiptNumber!, amount: row.amount, phone: row.phone, checkoutRequestId: row.checkoutRequestId })), refunds: [] };
  const answer = await t.api<{ discrepancies: Array<{ kind: string; detail: string }> }>('POST', '/api/internal/audit', { headers: internalHeaders(t), body: books });
  expect(answer.status).toBe(200);
  return answer.body.discrepancies;
}

function expectErased(rows: Awaited<ReturnType<typeof rowsOf>>, sold: Sold) {
  expect(rows.orders.map((row) => [row.phone, row.guestEmail])).toEqual([
    [null, null],
    [null, null],
  ]);
  expect(rows.payments.map((row) => row.phone)).toEqual(['', '']);
  expect(rows.sms.map((row) => row.phone)).toEqual(['']);
  expect(rows.tickets.every((row) => row.checkedInDevice === null)).toBe(true);
  expect(rows.tickets.some((row) => row.checkedInAt !== null)).toBe(true);
  expect(rows.scans.map((row) => row.device)).toEqual([null]);
  const guest = rows.buyers.find((row) => row.id !== buyer.user._id)!;
  expect(guest.guestPhone).toBe(`erased:${guest.id}`);
  expect(JSON.stringify(rows)).not.toContain(sold.guestPhone);
  expect(JSON.stringify(rows)).not.toContain(sold.buyerPhone);
  expect(JSON.stringify(rows)).not.toContain(sold.guestEmail);
}

describe('the daily retention job', () => {
  let old: Sold;
  let recent: Sold;
  let before: Awaited<ReturnType<typeof rowsOf>>;

  beforeAll(async () => {
    old = await soldEvent(RETENTION_DAYS + 10);
    recent = await soldEvent(RETENTION_DAYS - 10);
    before = await rowsOf(old.eventId);
    expect(before.orders.map((row) => row.phone).sort()).toEqual([old.buyerPhone, old.guestPhone].sort());
  }, 60_000);

  it("erases the phones, guest email and device names of an event ended more than the retention ago, keeping amounts and receipts", async () => {
    const shredded = await t.services.retention.shredDue();
    expect(shredded).toContain(old.eventId);
    expect(shredded).not.toContain(recent.eventId);

    const after = await rowsOf(old.eventId);
    expectErased(after, old);
    // The books: the same amounts, statuses, receipts and dates.
    expect(after.orders.map((row) => [row.id, row.amount, row.status, row.feeAmount, row.createdAt])).toEqual(before.orders.map((row) => [row.id, row.amount, row.status, row.feeAmount, row.createdAt]));
    expect(after.payments.map((row) => [row.id, row.amount, row.status, row.mpesaReceiptNumber, row.createdAt])).toEqual(before.payments.map((row) => [row.id, row.amount, row.status, row.mpesaReceiptNumber, row.createdAt]));
    expect(after.payments.map((row) => row.mpesaReceiptNumber).sort()).toEqual([...old.receipts].sort());
    expect(await audit()).toEqual([]);

    const [record] = await t.db.select().from(eventShreds).where(eq(eventShreds.eventId, old.eventId));
    expect(record).toMatchObject({ shreddedBy: null, reason: null });
    expect(record!.rowsErased).toBeGreaterThanOrEqual(7);
  });

  it('leaves an event within the retention alone', async () => {
    const rows = await rowsOf(recent.eventId);
    expect(rows.orders.map((row) => row.phone).sort()).toEqual([recent.buyerPhone, recent.guestPhone].sort());
    expect(rows.payments.map((row) => row.phone).sort()).toEqual([recent.buyerPhone, recent.guestPhone].sort());
    expect(rows.sms.map((row) => row.phone)).toEqual([recent.buyerPhone]);
    expect(rows.scans.map((row) => row.device)).toEqual(['Gate B']);
    expect(await t.db.select().from(eventShreds).where(eq(eventShreds.eventId, recent.eventId))).toEqual([]);
  });

  it('running again changes nothing', async () => {
    const first = { old: await rowsOf(old.eventId), recent: await rowsOf(recent.eventId), shreds: await t.db.select().from(eventShreds).orderBy(eventShreds.eventId) };
    expect(await t.services.retention.shredDue()).toEqual([]);
    const second = { old: await rowsOf(old.eventId), recent: await rowsOf(recent.eventId), shreds: await t.db.select().from(eventShreds).orderBy(eventShreds.eventId) };
    expect(second).toEqual(first);
  });
});

describe('an administrator erasing one event now', () => {
  const shred = (eventId: string, as: Session | null, reason: unknown = 'The organiser asked us to erase the buyers’ details.') =>
    t.api('POST', `/api/admin/events/${eventId}/shred`, { token: as?.token, body: { reason } });

  it('erases an ended event within the retention, with the reason kept; a second time is refused', async () => {
    const sold = await soldEvent(2);
    const res = await shred(sold.eventId, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ eventId: sold.eventId, reason: 'The organiser asked us to erase the buyers’ details.' });
    expectErased(await rowsOf(sold.eventId), sold);
    const [record] = await t.db.select().from(eventShreds).where(eq(eventShreds.eventId, sold.eventId));
    expect(record).toMatchObject({ shreddedBy: admin.user._id, reason: 'The organiser asked us to erase the buyers’ details.' });
    expect(await audit()).toEqual([]);

    const again = await shred(sold.eventId, admin);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('retention_already_shredded');
  });

  it('refuses an event that has not ended (409, nothing erased), a non-admin (403) and a missing reason (400)', async () => {
    const future = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, price: 500 });
    const phone = newPhone();
    await payFor(t, buyer.token, future, { phone });
    const refused = await shred(future, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('retention_event_not_ended');
    expect(refused.body.message).toMatch(/has not ended yet/);

    const ended = await soldEvent(3);
    expect((await shred(ended.eventId, buyer)).status).toBe(403);
    expect((await shred(ended.eventId, organiser)).status).toBe(403);
    expect((await shred(ended.eventId, null)).status).toBe(401);
    expect((await shred(ended.eventId, admin, '')).status).toBe(400);
    expect((await rowsOf(future)).orders.map((row) => row.phone)).toEqual([phone]);
    expect((await rowsOf(ended.eventId)).payments.map((row) => row.phone).sort()).toEqual([ended.buyerPhone, ended.guestPhone].sort());
    expect(await t.db.select().from(eventShreds).where(inArray(eventShreds.eventId, [future, ended.eventId]))).toEqual([]);
  });

  it('refuses (409) an ended event whose refunds are not yet paid: their phones are where the money goes', async () => {
    // Cancelled by its organiser before it took place: a refund is due to each buyer, then the date passes.
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, price: 500 });
    const phone = newPhone();
    await payFor(t, buyer.token, eventId, { phone });
    const cancelled = await t.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason: 'The venue flooded, sorry.' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await rowsOf(eventId)).refunds.map((row) => row.status)).toEqual(['due']);
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 3 * DAY_MS) }).where(eq(events.id, eventId));

    const refused = await shred(eventId, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('retention_refunds_open');
    const rows = await rowsOf(eventId);
    expect(rows.refunds.map((row) => row.phone)).toEqual([phone]);
    expect(rows.orders.map((row) => row.phone)).toEqual([phone]);
    expect(await t.db.select().from(eventShreds).where(eq(eventShreds.eventId, eventId))).toEqual([]);
  });
});

describe('GET /api/privacy', () => {
  it('states the retention, the export link, the deletion grace and the processors the server runs with', async () => {
    const res = await t.api('GET', '/api/privacy');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ retentionDays: RETENTION_DAYS, dataExportLinkHours: 24, dataExportIntervalHours: 24, deletionGraceDays: 14, mailKeepDays: 14 });
    expect(res.body.processors.map((processor: { id: string }) => processor.id)).toEqual(['safaricom', 'africas-talking', 'mail-provider']);
  });
});
