import { eq } from 'drizzle-orm';
import { ORDER_CODE_ALPHABET } from '@tukio/shared/internal-c2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, refunds, tickets, unmatchedPayments } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, settle, type Paid } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Paying from the M-Pesa menu (Paybill, docs/decisions/paybill.md) through the internal routes the payment service
 * calls: M-Pesa's validation question, its confirmation settled by the one settle path, the odd payments refunded or
 * kept for an administrator, and the audit at 0 discrepancies after each.
 */

let t: TestServer;
let admin: { token: string };
let organiser: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string } };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.loginAdmin();
  organiser = await t.createUser('paybillorganiser');
  buyer = await t.createUser('paybillbuyer');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const internal = <T = any>(path: string, body?: unknown) => t.api<T>('POST', `/api/internal${path}`, { headers: internalHeaders(t), body });
const newEvent = (price: number, capacity: number | null = null) =>
  insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price, capacity, title: `Paybill night ${Math.random().toString(36).slice(2, 8)}` });

/** A held order with its prompt sent (not settled): the order code is what the buyer types as the account number. */
async function held(eventId: string, phone = '254712340001'): Promise<Paid & { orderCode: string }> {
  const paid = await payFor(t, buyer.token, eventId, { phone, settle: false });
  const [order] = await t.db.select().from(orders).where(eq(orders.id, paid.orderId));
  return { ...paid, orderCode: order!.orderCode! };
}

/** M-Pesa's confirmation of a Paybill payment, as the payment service delivers it. */
const confirm = (account: string, amount: number, transId = receiptNo('C'), msisdn = '2547 ***** 126') =>
  internal('/payments/c2b/confirmations', { transId, billRefNumber: account, amount, msisdn, shortCode: '174379', transTime: '20261129101500' });

const refundsOf = (orderId: string) => t.db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(refunds.createdAt);
const validTickets = async (orderId: string) => (await t.db.select().from(tickets).where(eq(tickets.orderId, orderId))).filter((row) => !row.voidedAt).length;

/** What M-Pesa's books say: every completed payment (prompt or Paybill, placed or not); no refund paid yet. */
async function providerBooks() {
  const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
  const unplaced = await t.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.status, 'waiting'));
  return {
    payments: [
      ...paid.map((row) => ({ receipt: row.mpesaReceiptNumber!, amount: row.amount, phone: row.phone, checkoutRequestId: row.checkoutRequestId })),
      ...unplaced.map((row) => ({ receipt: row.transId, amount: row.amount, phone: '' })),
    ],
    refunds: [],
  };
}

async function expectAuditClean() {
  const audited = await internal<{ discrepancies: Array<{ kind: string; detail: string }> }>('/audit', await providerBooks());
  expect(audited.status).toBe(200);
  expect(audited.body.discrepancies).toEqual([]);
}

describe('order codes and validation', () => {
  it('gives each held order a 7-character code without look-alike characters, and validation accepts only its exact amount', async () => {
    const eventId = await newEvent(500);
    const one = await held(eventId);
    const two = await held(eventId, '254712340002');
    for (const code of [one.orderCode, two.orderCode]) {
      expect(code).toHaveLength(7);
      for (const char of code) expect(ORDER_CODE_ALPHABET).toContain(char);
    }
    expect(one.orderCode).not.toBe(two.orderCode);

    expect((await internal('/payments/c2b/validate', { billRefNumber: one.orderCode, amount: 500 })).body).toEqual({ resultCode: '0', resultDesc: 'Accepted' });
    // Typed in lower case with a space: still the order.
    expect((await internal('/payments/c2b/validate', { billRefNumber: ` ${one.orderCode.toLowerCase().slice(0, 3)} ${one.orderCode.toLowerCase().slice(3)}`, amount: 500 })).body.resultCode).toBe('0');
    expect((await internal('/payments/c2b/validate', { billRefNumber: 'NOSUCH9', amount: 500 })).body).toEqual({ resultCode: 'C2B00012', resultDesc: 'Rejected' });
    expect((await internal('/payments/c2b/validate', { billRefNumber: one.orderCode, amount: 400 })).body).toEqual({ resultCode: 'C2B00013', resultDesc: 'Rejected' });
    // Paid by its prompt: no longer open.
    expect((await settle(t, one)).body.orderStatus).toBe('paid');
    expect((await internal('/payments/c2b/validate', { billRefNumber: one.orderCode, amount: 500 })).body.resultCode).toBe('C2B00012');
    expect((await t.api('POST', '/api/internal/payments/c2b/validate', { body: { billRefNumber: one.orderCode, amount: 500 } })).status).toBe(401);
  });
});

describe('settling a Paybill payment', () => {
  it('issues the tickets once, however often M-Pesa confirms it, and the buyer’s dialog turns to success', async () => {
    const eventId = await newEvent(600);
    const order = await held(eventId);
    // The prompt was dismissed on the phone: the dialog offers the Paybill.
    const dismissed = await internal('/payments/settle', { checkoutRequestId: order.checkoutRequestId, merchantRequestId: `mr-${order.checkoutRequestId}`, resultCode: 1032, resultDesc: 'Request cancelled by user', source: 'callback' });
    expect(dismissed.body.status).toBe('cancelled');
    const transId = receiptNo('C');
    const first = await confirm(order.orderCode, 600, transId);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ outcome: 'settled', orderStatus: 'paid' });
    expect(await validTickets(order.orderId)).toBe(1);
    const again = await confirm(order.orderCode, 600, transId);
    expect(again.body).toMatchObject({ outcome: 'duplicate', orderStatus: 'paid' });
    expect(await validTickets(order.orderId)).toBe(1);
    const [payment] = await t.db.select().from(payments).where(eq(payments.checkoutRequestId, `c2b_${transId}`));
    // Daraja masked the payer: the payment keeps the phone the order was held with (a refund's destination).
    expect(payment).toMatchObject({ status: 'success', amount: 600, mpesaReceiptNumber: transId, phone: order.phone, orderId: order.orderId });
    expect(payment!.providerConfirmedAt).not.toBeNull();
    // The dialog polls the dismissed prompt's status: the order is paid, so it says so.
    const status = await t.api('GET', `/api/internal/payments/status/${order.checkoutRequestId}`, { token: buyer.token, headers: internalHeaders(t) });
    expect(status.body).toMatchObject({ success: true, status: 'success', orderStatus: 'paid' });
    expect(await refundsOf(order.orderId)).toEqual([]);
    await expectAuditClean();
  });

  it('the prompt and the Paybill both paid: the first wins, the second is refunded whole, either way round', async () => {
    const eventId = await newEvent(700);
    const promptFirst = await held(eventId, '254712340003');
    expect((await settle(t, promptFirst)).body.orderStatus).toBe('paid');
    expect((await confirm(promptFirst.orderCode, 700)).body).toMatchObject({ outcome: 'settled', orderStatus: 'paid' });
    expect(await validTickets(promptFirst.orderId)).toBe(1);
    expect(await refundsOf(promptFirst.orderId)).toMatchObject([{ amount: 700, reason: 'duplicate_payment', method: 'reversal', status: 'due' }]);

    const paybillFirst = await held(eventId, '254712340004');
    expect((await confirm(paybillFirst.orderCode, 700)).body.orderStatus).toBe('paid');
    const late = await settle(t, paybillFirst);
    expect(late.body).toMatchObject({ status: 'success', orderStatus: 'paid', ticketsIssued: 0 });
    expect(await validTickets(paybillFirst.orderId)).toBe(1);
    const [refund] = await refundsOf(paybillFirst.orderId);
    expect(refund).toMatchObject({ amount: 700, reason: 'duplicate_payment', phone: '254712340004' });
    const [stkPayment] = await t.db.select().from(payments).where(eq(payments.checkoutRequestId, paybillFirst.checkoutRequestId));
    expect(refund!.paymentId).toBe(stkPayment!.id);
    await expectAuditClean();
  });

  it('a payment after the hold ran out gets its tickets while seats remain, and is refunded when the event sold out', async () => {
    const eventId = await newEvent(300, 1);
    const first = await held(eventId, '254712340005');
    await t.db.update(orders).set({ holdExpiresAt: new Date(Date.now() - 60_000) }).where(eq(orders.id, first.orderId));
    expect((await confirm(first.orderCode, 300)).body).toMatchObject({ outcome: 'settled', orderStatus: 'paid' });
    expect(await validTickets(first.orderId)).toBe(1);

    const second = await held(await newEvent(300, 1), '254712340006');
    await t.db.update(orders).set({ holdExpiresAt: new Date(Date.now() - 60_000) }).where(eq(orders.id, second.orderId));
    const [secondOrder] = await t.db.select().from(orders).where(eq(orders.id, second.orderId));
    const other = await t.createUser('paybillfaster');
    await payFor(t, other.token, secondOrder!.eventId, { phone: '254712340007' });
    expect((await confirm(second.orderCode, 300)).body).toMatchObject({ outcome: 'settled', orderStatus: 'refund_due' });
    expect(await validTickets(second.orderId)).toBe(0);
    expect(await refundsOf(second.orderId)).toMatchObject([{ amount: 300, reason: 'sold_out' }]);
    await expectAuditClean();
  });

  it('an overpayment buys the order and the difference goes back without any fee; an underpayment goes back whole', async () => {
    const eventId = await newEvent(400);
    const over = await held(eventId, '254712340008');
    expect((await confirm(over.orderCode, 450)).body).toMatchObject({ outcome: 'settled', orderStatus: 'paid' });
    expect(await validTickets(over.orderId)).toBe(1);
    expect(await refundsOf(over.orderId)).toMatchObject([{ amount: 50, feeAmount: 0, reason: 'overpayment', method: 'b2c', phone: '254712340008' }]);

    const under = await held(eventId, '254712340009');
    expect((await confirm(under.orderCode, 150)).body).toMatchObject({ outcome: 'settled', orderStatus: 'pending' });
    expect(await validTickets(under.orderId)).toBe(0);
    expect(await refundsOf(under.orderId)).toMatchObject([{ amount: 150, reason: 'underpayment', method: 'reversal' }]);
    // The hold is still there: paying the right amount now buys it.
    expect((await confirm(under.orderCode, 400)).body).toMatchObject({ outcome: 'settled', orderStatus: 'paid' });
    await expectAuditClean();
  });
});

describe('unmatched payments', () => {
  it('a payment to an unknown account waits for an administrator, who attaches it to the order the payer meant', async () => {
    const eventId = await newEvent(350);
    const order = await held(eventId, '254712340010');
    const transId = receiptNo('U');
    expect((await confirm('TYPO123', 350, transId)).body).toEqual({ outcome: 'unmatched' });
    expect((await confirm('TYPO123', 350, transId)).body).toEqual({ outcome: 'duplicate' });
    await expectAuditClean();

    const queue = await t.api<Array<{ _id: string; transId: string; status: string }>>('GET', '/api/admin/unmatched-payments?status=waiting', { token: admin.token });
    expect(queue.status).toBe(200);
    const waiting = queue.body.find((row) => row.transId === transId)!;
    expect(waiting).toMatchObject({ billRefNumber: 'TYPO123', amount: 350, status: 'waiting', msisdn: '2547 ***** 126' });
    expect((await t.api('GET', '/api/admin/unmatched-payments', { token: buyer.token })).status).toBe(403);

    const attach = (orderCode: string) => t.api('POST', `/api/admin/unmatched-payments/${waiting._id}/attach`, { token: admin.token, body: { orderCode } });
    expect((await attach('NOSUCH9')).status).toBe(404);
    const attached = await attach(order.orderCode.toLowerCase());
    expect(attached.status).toBe(200);
    expect(attached.body).toMatchObject({ status: 'attached', orderId: order.orderId, orderStatus: 'paid', ticketsIssued: 1 });
    expect((await attach(order.orderCode)).status).toBe(409);
    expect(await validTickets(order.orderId)).toBe(1);
    // M-Pesa confirming it again later changes nothing.
    expect((await confirm('TYPO123', 350, transId)).body.outcome).toBe('duplicate');
    await expectAuditClean();
  });
});

describe('on the ledger', () => {
  it('balances hold every Paybill shilling: the unmatched receipts account is empty once everything is placed', async () => {
    const balances = await t.api<{ balances: Record<string, number> }>('GET', '/api/admin/ledger/balances', { token: admin.token });
    expect(balances.status).toBe(200);
    const waiting = (await t.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.status, 'waiting'))).reduce((sum, row) => sum + row.amount, 0);
    expect(waiting + balances.body.balances.unmatched_receipts!).toBe(0);
  });
});
