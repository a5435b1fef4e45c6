import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, ledgerTransactions, orders, payments, refunds, unmatchedPayments } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, sendRefunds, startRefundDesk, type RefundDesk } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * An administrator refunds a Paybill payment no order claims instead of placing it (docs/decisions/paybill.md): the
 * refunds job sends a reversal of its TransID through the payment service (a stand-in here, over HTTP), M-Pesa's
 * result makes it `refunded`, and every step leaves the audit at 0 discrepancies.
 */

let t: TestServer;
let desk: RefundDesk;
let admin: { token: string };
let organiser: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string } };

beforeAll(async () => {
  desk = await startRefundDesk();
  t = await startTestServer({ PAYMENT_PORT: String(desk.port), REFUND_RESULT_WAIT_MS: '3600000' });
  admin = await t.loginAdmin();
  organiser = await t.createUser('unmatchedorganiser');
  buyer = await t.createUser('unmatchedbuyer');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await desk?.close();
});

const internal = <T = any>(path: string, body?: unknown) => t.api<T>('POST', `/api/internal${path}`, { headers: internalHeaders(t), body });

/** M-Pesa's confirmation of a Paybill payment to an account number no order has; Daraja v2 masks the payer. */
async function unmatched(amount: number) {
  const transId = receiptNo('U');
  const confirmed = await internal('/payments/c2b/confirmations', { transId, billRefNumber: 'NOBODY1', amount, msisdn: '2547 ***** 126', shortCode: '174379', transTime: '20261129101500' });
  expect(confirmed.body).toEqual({ outcome: 'unmatched' });
  const [row] = await t.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.transId, transId));
  return row!;
}

const refundUnmatched = (id: string, token = admin.token, reason = 'The payer meant another business') =>
  t.api<any>('POST', `/api/admin/unmatched-payments/${id}/refund`, { token, body: { reason } });

/** What M-Pesa's books say: every completed payment (placed or not) and the refunds it paid. */
async function providerBooks(paidRefunds: Array<{ transactionId: string; originatorConversationId: string; amount: number }>) {
  const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
  const paybill = await t.db.select().from(unmatchedPayments);
  return {
    payments: [
      ...paid.map((row) => ({ receipt: row.mpesaReceiptNumber!, amount: row.amount, phone: row.phone, checkoutRequestId: row.checkoutRequestId })),
      ...paybill.filter((row) => row.status !== 'attached').map((row) => ({ receipt: row.transId, amount: row.amount, phone: '' })),
    ],
    refunds: paidRefunds.map((refund) => ({ ...refund, kind: 'reversal' as const })),
  };
}

async function expectAuditClean(paidRefunds: Array<{ transactionId: string; originatorConversationId: string; amount: number }> = []) {
  const audited = await internal<{ discrepancies: Array<{ kind: string; detail: string }> }>('/audit', await providerBooks(paidRefunds));
  expect(audited.status).toBe(200);
  expect(audited.body.discrepancies).toEqual([]);
}

/** The ledger's legs of one refund, by transaction kind and account. */
async function legsOf(refundId: string) {
  const rows = await t.db
    .select({ kind: ledgerTransactions.kind, account: ledgerEntries.account, amount: ledgerEntries.amount, eventId: ledgerEntries.eventId })
    .from(ledgerTransactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .where(eq(ledgerTransactions.refundId, refundId));
  const key = (row: { kind: string; account: string }) => `${row.kind} ${row.account}`;
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

describe('refunding an unmatched Paybill payment', () => {
  it('reverses its TransID through the refunds job, refunded once M-Pesa did it, the ledger balanced and the audit at 0', async () => {
    const row = await unmatched(420);
    await expectAuditClean();

    expect((await refundUnmatched(row.id, buyer.token)).status).toBe(403);
    expect((await refundUnmatched(row.id, admin.token, 'x')).status).toBe(400);
    expect((await refundUnmatched('0123456789abcdef01234567')).status).toBe(404);

    const refunded = await refundUnmatched(row.id);
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ unmatchedId: row.id, status: 'refunding', refundStatus: 'due', amount: 420, method: 'reversal' });
    const refundId: string = refunded.body.refundId;
    const queue = await t.api<Array<{ _id: string; status: string }>>('GET', '/api/admin/unmatched-payments', { token: admin.token });
    expect(queue.body.find((item) => item._id === row.id)?.status).toBe('refunding');
    // Once is enough: refunding again, or attaching it to an order now, is refused and changes nothing.
    expect((await refundUnmatched(row.id)).status).toBe(409);
    const order = await payFor(t, buyer.token, await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 420, title: 'Unmatched refund night' }), { settle: false });
    const [held] = await t.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect((await t.api('POST', `/api/admin/unmatched-payments/${row.id}/attach`, { token: admin.token, body: { orderCode: held!.orderCode } })).status).toBe(409);
    expect((await t.db.select().from(refunds).where(eq(refunds.unmatchedPaymentId, row.id))).length).toBe(1);
    // The admin refunds list is of orders' refunds: its count leaves this one out as its rows do.
    const listed = await t.api<{ items: unknown[]; total: number }>('GET', '/api/admin/refunds/paged?limit=50', { token: admin.token });
    expect(listed.body.total).toBe(listed.body.items.length);
    await expectAuditClean();

    const [sent] = await sendRefunds(t, desk, [refundId]);
    // A reversal of the TransID: the masked payer gets no B2C payout.
    expect(sent).toMatchObject({ method: 'reversal', receipt: row.transId, amount: 420, phone: null, remarks: 'Tukio refund' });
    await expectAuditClean();

    const transactionId = receiptNo('R');
    const result = await internal('/refunds/result', { originatorConversationId: sent!.originatorConversationId, resultCode: '0', resultDesc: 'Reversed', transactionId, amount: 420, source: 'callback' });
    expect(result).toMatchObject({ status: 200, body: { refundId, status: 'succeeded', changed: true } });
    const [after] = await t.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.id, row.id));
    expect(after).toMatchObject({ status: 'refunded' });
    expect((await refundUnmatched(row.id)).status).toBe(409);

    // unmatched_receipts → refunds_payable → paid out of clearing, no event and no organiser.
    expect(await legsOf(refundId)).toEqual([
      { kind: 'refund', account: 'refunds_payable', amount: -420, eventId: null },
      { kind: 'refund', account: 'unmatched_receipts', amount: 420, eventId: null },
      { kind: 'refund_paid', account: 'mpesa_clearing', amount: -420, eventId: null },
      { kind: 'refund_paid', account: 'refunds_payable', amount: 420, eventId: null },
    ]);
    await expectAuditClean([{ transactionId, originatorConversationId: sent!.originatorConversationId, amount: 420 }]);
  });

  it('a reversal that fails is tried again as a reversal: there is no number to pay by B2C', async () => {
    const row = await unmatched(150);
    const refundId: string = (await refundUnmatched(row.id)).body.refundId;
    const [first] = await sendRefunds(t, desk, [refundId]);
    const failed = await internal('/refunds/result', { originatorConversationId: first!.originatorConversationId, resultCode: '1', resultDesc: 'Insufficient float', source: 'callback' });
    expect(failed).toMatchObject({ status: 200, body: { refundId, status: 'due' } });
    const [refund] = await t.db.select().from(refunds).where(eq(refunds.id, refundId));
    expect(refund).toMatchObject({ method: 'reversal', status: 'due' });
    const [unchanged] = await t.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.id, row.id));
    expect(unchanged!.status).toBe('refunding');
  });
});
