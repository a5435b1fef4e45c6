import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, tickets, unmatchedPayments } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, type Paid } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * A dismissed or unreachable prompt while the Paybill is offered (docs/decisions/paybill.md, "Seats after a failed
 * prompt"): the order keeps its seats until the hold's expiry, as the payment dialog's "pay before …" promises, so a
 * payment from the M-Pesa menu within it gets them, and nobody else can take them meanwhile: never oversold.
 */

const PAYBILL = '174379';
let t: TestServer;
let organiser: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string } };
let rival: { token: string; user: { _id: string } };

beforeAll(async () => {
  t = await startTestServer({ PAYBILL_SHORTCODE: PAYBILL });
  organiser = await t.createUser('holdorganiser');
  buyer = await t.createUser('holdbuyer');
  rival = await t.createUser('holdrival');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const internal = <T = any>(path: string, body?: unknown, token?: string) => t.api<T>('POST', `/api/internal${path}`, { headers: internalHeaders(t), body, token });
const oneSeatEvent = (price: number) => insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price, capacity: 1, title: `One seat ${Math.random().toString(36).slice(2, 8)}` });

async function held(eventId: string, phone: string): Promise<Paid & { orderCode: string }> {
  const paid = await payFor(t, buyer.token, eventId, { phone, settle: false });
  const [order] = await t.db.select().from(orders).where(eq(orders.id, paid.orderId));
  return { ...paid, orderCode: order!.orderCode! };
}

/** The prompt's result as Daraja's callback brings it: 1032 dismissed on the phone, 1037 phone unreachable. */
const promptFails = (paid: Paid, resultCode: 1032 | 1037) =>
  internal('/payments/settle', {
    checkoutRequestId: paid.checkoutRequestId,
    merchantRequestId: `mr-${paid.checkoutRequestId}`,
    resultCode,
    resultDesc: resultCode === 1032 ? 'Request cancelled by user' : 'DS timeout user cannot be reached',
    source: 'callback',
  });

/** M-Pesa's confirmation of a payment from the menu, as the payment service delivers it. */
const confirm = (account: string, amount: number) =>
  internal('/payments/c2b/confirmations', { transId: receiptNo('C'), billRefNumber: account, amount, msisdn: '2547 ***** 126', shortCode: PAYBILL, transTime: '20261129101500' });

/** Another buyer tries to hold the event's seat. */
const rivalHolds = (eventId: string) => internal('/payments/orders', { eventId, quantity: 1, phone: '254712349999' }, rival.token);

const validTickets = async (eventId: string) => (await t.db.select().from(tickets).where(eq(tickets.eventId, eventId))).filter((row) => !row.voidedAt).length;

async function expectAuditClean() {
  const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
  const unplaced = await t.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.status, 'waiting'));
  const books = {
    payments: [
      ...paid.map((row) => ({ receipt: row.mpesaReceiptNumber!, amount: row.amount, phone: row.phone, checkoutRequestId: row.checkoutRequestId })),
      ...unplaced.map((row) => ({ receipt: row.transId, amount: row.amount, phone: '' })),
    ],
    refunds: [],
  };
  const audited = await internal<{ discrepancies: unknown[] }>('/audit', books);
  expect(audited.status).toBe(200);
  expect(audited.body.discrepancies).toEqual([]);
}

describe('seats after a failed prompt, while the Paybill is offered', () => {
  it.each([1032, 1037] as const)('prompt result %i: the seats stay held, and the order code paid from the menu within the hold gets them', async (resultCode) => {
    const eventId = await oneSeatEvent(800);
    const order = await held(eventId, `2547123${resultCode}1`);
    const failed = await promptFails(order, resultCode);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: resultCode === 1032 ? 'cancelled' : 'failed', orderStatus: 'pending' });
    const [kept] = await t.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(kept).toMatchObject({ status: 'pending' });
    expect(kept!.holdExpiresAt!.getTime()).toBeGreaterThan(Date.now());

    // The only seat is still the buyer's: nobody else can hold it while the dialog says "pay before …".
    const taken = await rivalHolds(eventId);
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('sold_out');

    expect((await confirm(order.orderCode, 800)).body).toEqual({ outcome: 'settled', orderStatus: 'paid' });
    expect(await validTickets(eventId)).toBe(1);
    // The dialog polls the failed prompt's status: the purchase is a success now.
    const status = await t.api('GET', `/api/internal/payments/status/${order.checkoutRequestId}`, { token: buyer.token, headers: internalHeaders(t) });
    expect(status.body).toMatchObject({ success: true, status: 'success', orderStatus: 'paid' });
    expect((await rivalHolds(eventId)).status).toBe(409);
    expect(await validTickets(eventId)).toBe(1);
    await expectAuditClean();
  });

  it('the hold still ends at its expiry: then the seat is anyone’s, and a menu payment after it is refunded when the seat went', async () => {
    const eventId = await oneSeatEvent(500);
    const order = await held(eventId, '254712340501');
    expect((await promptFails(order, 1032)).body.orderStatus).toBe('pending');
    await t.db.update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, order.orderId));

    const other = await payFor(t, rival.token, eventId, { phone: '254712340502' });
    expect(other.orderId).toBeTruthy();
    expect(await validTickets(eventId)).toBe(1);
    expect((await confirm(order.orderCode, 500)).body).toEqual({ outcome: 'settled', orderStatus: 'refund_due' });
    expect(await validTickets(eventId)).toBe(1);
    await expectAuditClean();
  });

  it('a failure after the menu payment already bought the order changes nothing', async () => {
    const eventId = await oneSeatEvent(650);
    const order = await held(eventId, '254712340601');
    expect((await confirm(order.orderCode, 650)).body.orderStatus).toBe('paid');
    expect((await promptFails(order, 1037)).body).toMatchObject({ status: 'failed', orderStatus: 'paid' });
    expect(await validTickets(eventId)).toBe(1);
    await expectAuditClean();
  });
});
