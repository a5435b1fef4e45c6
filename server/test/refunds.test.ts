import type { SendRefundBody } from '@tukio/shared/internal-refunds';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, refundAttempts, refunds, refundTransitions } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, sendRefunds, settle, startRefundDesk, type DeskAnswer, type RefundDesk } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The refund ledger: the refunds job claiming due refunds and sending each attempt to the payment service (a
 * stand-in over HTTP that records what it is asked), the results the payment service delivers
 * (POST /api/internal/refunds/result, X-Internal-Key), late results looked at, and the admin's list and retry.
 * Refunds are made the way production makes them, by cancelling an event that has paid orders.
 */

/** Long enough that the check "not due yet" right after a failure holds on a loaded machine. */
const RETRY_BASE_MS = 2000;
const MAX_ATTEMPTS = 3;

let t: TestServer;
let desk: RefundDesk;
let admin: { token: string };
let organiser: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string } };

beforeAll(async () => {
  desk = await startRefundDesk();
  // Results are looked at after an hour: the test moves an attempt's sent time back when it wants one late.
  t = await startTestServer({ REFUND_RETRY_BASE_MS: String(RETRY_BASE_MS), REFUND_MAX_ATTEMPTS: String(MAX_ATTEMPTS), PAYMENT_PORT: String(desk.port), REFUND_RESULT_WAIT_MS: '3600000' });
  admin = await t.loginAdmin();
  organiser = await t.createUser('refundorganiser');
  buyer = await t.createUser('refundbuyer');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await desk?.close();
});

const internal = <T = any>(method: string, path: string, body?: unknown) => t.api<T>(method, `/api/internal${path}`, { headers: internalHeaders(t), body });

/** `count` paid orders (`price` each) for a new event, which the admin then cancels: one due refund per order. */
async function dueRefunds(count: number, price = 250) {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 12, price, title: `Refund gala ${Math.random().toString(36).slice(2, 8)}` });
  const paid = [];
  for (let i = 0; i < count; i++) paid.push(await payFor(t, buyer.token, eventId, { phone: `25471100${String(i).padStart(4, '0')}` }));
  const cancelled = await t.api('POST', `/api/events/${eventId}/cancel`, { token: admin.token, body: { reason: 'The venue flooded.' } });
  expect(cancelled.status).toBe(200);
  const rows = await t.db.select().from(refunds).where(eq(refunds.eventId, eventId));
  expect(rows).toHaveLength(count);
  return { eventId, paid, ids: rows.map((row) => row.id) };
}

/** Runs the refunds job until each refund in `ids` was sent (with one attempt more); what the payment service was sent for them. */
async function claimOwn(ids: string[]) {
  const mine = await sendRefunds(t, desk, ids);
  expect(mine.map((item) => item.refundId).sort()).toEqual([...ids].sort());
  return mine;
}

const defaultAnswer = (body: SendRefundBody): DeskAnswer => ({ status: 200, body: { outcome: 'accepted', conversationId: `AG_${body.originatorConversationId}` } });
const refundRow = async (id: string) => (await t.db.select().from(refunds).where(eq(refunds.id, id)))[0]!;
const historyOf = async (id: string) =>
  (await t.db.select().from(refundTransitions).where(eq(refundTransitions.refundId, id)).orderBy(refundTransitions.at, refundTransitions.id)).map((row) => `${row.fromStatus ?? '-'}>${row.toStatus}`);
/** Resolves once the clock has passed `at` (a refund's next attempt: before it, no claim hands the refund out). */
const passed = (at: Date) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - Date.now() + 5)));

describe('refunds made by settlement', () => {
  it('a payment that arrives after its hold ran out and the event filled up gets its refund row (sold_out) with the refund_due flag', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 12, price: 700, capacity: 1, title: 'Tiny gig' });
    const late = await payFor(t, buyer.token, eventId, { phone: '254722000005', settle: false });
    await t.db.update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, late.orderId));
    const other = await t.createUser('luckyrefundbuyer');
    await payFor(t, other.token, eventId, { phone: '254722000006' });
    const settled = await settle(t, late);
    expect(settled.body).toMatchObject({ status: 'success', orderStatus: 'refund_due', ticketsIssued: 0 });
    const [refund] = await t.db.select().from(refunds).where(eq(refunds.orderId, late.orderId));
    expect(refund).toMatchObject({ amount: 700, reason: 'sold_out', method: 'reversal', status: 'due', phone: '254722000005', attempts: 0 });
    expect(await historyOf(refund!.id)).toEqual(['->due']);
    const listed = (await t.api('GET', '/api/admin/refunds?status=due', { token: admin.token })).body.find((row: { refundId: string }) => row.refundId === refund!.id);
    expect(listed).toMatchObject({ eventId, eventTitle: 'Tiny gig', amount: 700, refundAmount: 700, phoneNumber: '254722000005', reason: 'sold_out', mpesaReceiptNumber: late.receipt });
  });
});

describe('claim', () => {
  it('hands each due refund to one claim only, even when claims run at once', async () => {
    const { ids, paid } = await dueRefunds(6);
    // The job's claim, three runs at once (as pg-boss may run a retried job beside a late one).
    const claims = await Promise.all([0, 1, 2].map(() => t.services.refunds.claim(3)));
    const all = claims.flat().filter((item) => ids.includes(item.refundId));
    expect(all).toHaveLength(6);
    expect(new Set(all.map((item) => item.refundId)).size).toBe(6);
    // Each is now sent with one attempt, and the claim said what to send.
    const first = all.find((item) => item.refundId === ids[0])!;
    expect(first).toMatchObject({ originatorConversationId: `tukio-${first.refundId}-1`, method: 'reversal', amount: 250 });
    // The receipt to reverse and the phone to pay are the payment's own.
    const payment = paid.find((one) => one.receipt === first.receipt);
    expect(payment?.phone).toBe(first.phone);
    expect(first.remarks).toMatch(/^Tukio refund: Refund gala/);
    expect(first.remarks.length).toBeLessThanOrEqual(100);
    for (const id of ids) expect(await refundRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await historyOf(ids[0]!)).toEqual(['->due', 'due>sent']);
    // Nothing left to claim of these.
    const again = await t.services.refunds.claim(50);
    expect(again.filter((item) => ids.includes(item.refundId))).toEqual([]);
  });

  it('the job sends each claimed attempt to the payment service once and keeps the ConversationID Daraja gave it', async () => {
    const { ids, paid } = await dueRefunds(2, 350);
    const sent = await claimOwn(ids);
    expect(sent).toHaveLength(2);
    for (const item of sent) {
      const payment = paid.find((one) => one.receipt === item.receipt)!;
      expect(item).toMatchObject({ originatorConversationId: `tukio-${item.refundId}-1`, method: 'reversal', amount: 350, phone: payment.phone });
      const [attempt] = await t.db.select().from(refundAttempts).where(eq(refundAttempts.refundId, item.refundId));
      expect(attempt).toMatchObject({ status: 'sent', conversationId: `AG_${item.originatorConversationId}` });
    }
    // Another run sends nothing more of them.
    await t.services.refundsJob.runOnce();
    expect(desk.sent.filter((item) => ids.includes(item.refundId))).toHaveLength(2);
  });

  it('no longer answers the claim loop\'s routes', async () => {
    expect((await internal('POST', '/refunds/claim', { limit: 10 })).status).toBe(404);
    expect((await internal('POST', '/refunds/accepted', { originatorConversationId: 'tukio-000000000000000000000000-1', conversationId: 'AG_x' })).status).toBe(404);
    expect((await internal('GET', '/refunds/unresolved?olderThan=0')).status).toBe(404);
    expect((await t.api('POST', '/api/internal/refunds/result', { body: {} })).status).toBe(401);
  });
});

describe('accepted and result', () => {
  it('records the ConversationID once, a success once, and ignores duplicates and late results', async () => {
    const { ids, paid } = await dueRefunds(1, 400);
    desk.answer = () => ({ status: 200, body: { outcome: 'accepted', conversationId: 'AG_20240706_2010364430d9bbdaf872' } });
    const [claimed] = await claimOwn(ids).finally(() => (desk.answer = defaultAnswer));
    const ocid = claimed!.originatorConversationId;

    // The job recorded Daraja's ConversationID from the payment service's answer; again changes nothing, another is refused.
    expect(await t.services.refunds.accepted({ originatorConversationId: ocid, conversationId: 'AG_20240706_2010364430d9bbdaf872' })).toEqual({ changed: false });
    await expect(t.services.refunds.accepted({ originatorConversationId: ocid, conversationId: 'AG_other' })).rejects.toMatchObject({ status: 409 });

    const transactionId = receiptNo('R');
    const success = { originatorConversationId: ocid, resultCode: 0, resultDesc: 'The service request is processed successfully.', transactionId, amount: 400, source: 'callback' };
    const result = await internal('POST', '/refunds/result', success);
    expect(result).toMatchObject({ status: 200, body: { refundId: ids[0], status: 'succeeded', changed: true } });
    expect(await refundRow(ids[0]!)).toMatchObject({ status: 'succeeded', receipt: transactionId });
    const [attempt] = await t.db.select().from(refundAttempts).where(eq(refundAttempts.originatorConversationId, ocid));
    expect(attempt).toMatchObject({ status: 'succeeded', transactionId, resultCode: '0', conversationId: 'AG_20240706_2010364430d9bbdaf872' });
    expect(attempt!.finishedAt).toBeInstanceOf(Date);

    // The same callback again, and a late failure after it: nothing changes.
    expect((await internal('POST', '/refunds/result', success)).body).toEqual({ refundId: ids[0], status: 'succeeded', changed: false });
    expect((await internal('POST', '/refunds/result', { originatorConversationId: ocid, resultCode: '2001', resultDesc: 'The initiator information is invalid.', source: 'status-query' })).body).toEqual({
      refundId: ids[0],
      status: 'succeeded',
      changed: false,
    });
    expect(await refundRow(ids[0]!)).toMatchObject({ status: 'succeeded', receipt: transactionId });
    expect(await historyOf(ids[0]!)).toEqual(['->due', 'due>sent', 'sent>succeeded']);

    // The buyer's transaction list and the admin's refund list show it.
    const history = await t.api('GET', `/api/transactions/${buyer.user._id}`, { token: buyer.token });
    expect(history.body.find((row: { checkoutRequestId: string }) => row.checkoutRequestId === paid[0]!.checkoutRequestId)).toMatchObject({
      paymentStatus: 'success',
      orderStatus: 'refund_due',
      refundStatus: 'succeeded',
      refundAmount: 400,
      refundReceipt: transactionId,
    });
    const listed = await t.api('GET', '/api/admin/refunds?status=succeeded', { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.find((row: { refundId: string }) => row.refundId === ids[0])).toMatchObject({
      orderId: paid[0]!.orderId,
      _id: paid[0]!.orderId,
      amount: 400,
      refundAmount: 400,
      status: 'succeeded',
      attempts: 1,
      receipt: transactionId,
      reason: 'event_cancelled',
      method: 'reversal',
      checkoutRequestId: paid[0]!.checkoutRequestId,
      mpesaReceiptNumber: paid[0]!.receipt,
    });
    expect(listed.body.every((row: { status: string }) => row.status === 'succeeded')).toBe(true);
    expect((await t.api('GET', '/api/admin/refunds?status=lost', { token: admin.token })).status).toBe(400);
  });

  it('refuses a success naming another amount (409 doubtful) and changes nothing', async () => {
    const { ids } = await dueRefunds(1, 300);
    const [claimed] = await claimOwn(ids);
    const res = await internal('POST', '/refunds/result', { originatorConversationId: claimed!.originatorConversationId, resultCode: '0', resultDesc: 'ok', transactionId: receiptNo('X'), amount: 30, source: 'callback' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ doubtful: true });
    expect(await refundRow(ids[0]!)).toMatchObject({ status: 'sent', receipt: null });
    const [attempt] = await t.db.select().from(refundAttempts).where(eq(refundAttempts.refundId, ids[0]!));
    expect(attempt).toMatchObject({ status: 'sent', transactionId: null, resultCode: null });
    // A success without a TransactionID is doubtful too.
    expect((await internal('POST', '/refunds/result', { originatorConversationId: claimed!.originatorConversationId, resultCode: '0', resultDesc: 'ok', source: 'status-query' })).status).toBe(409);
  });

  it('answers 404 for an OriginatorConversationID it never issued', async () => {
    const unknown = { originatorConversationId: 'tukio-000000000000000000000000-1', resultCode: '0', resultDesc: 'ok', transactionId: receiptNo('U'), source: 'callback' };
    expect((await internal('POST', '/refunds/result', unknown)).status).toBe(404);
  });
});

describe('failures, back-off and retries', () => {
  it('puts a failed attempt back to due after a doubling back-off, switches a failed reversal to B2C, and fails for good after the last attempt', async () => {
    const { ids } = await dueRefunds(1, 500);
    const id = ids[0]!;
    const [first] = await claimOwn(ids);
    expect(first).toMatchObject({ method: 'reversal', originatorConversationId: `tukio-${id}-1` });

    const failedAt = Date.now();
    const failure = await internal('POST', '/refunds/result', { originatorConversationId: first!.originatorConversationId, resultCode: 1, resultDesc: 'Insufficient balance', source: 'callback' });
    const answeredAt = Date.now();
    expect(failure.body).toEqual({ refundId: id, status: 'due', changed: true });
    const afterFirst = await refundRow(id);
    expect(afterFirst).toMatchObject({ status: 'due', attempts: 1, method: 'b2c' });
    // One back-off from the moment the result was handled, which lies between the request and its answer
    // (however long a loaded machine took to answer).
    expect(afterFirst.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(failedAt + RETRY_BASE_MS);
    expect(afterFirst.nextAttemptAt.getTime()).toBeLessThanOrEqual(answeredAt + RETRY_BASE_MS);
    // Not due yet: the job leaves it.
    await t.services.refundsJob.runOnce();
    expect(desk.sent.map((item) => item.originatorConversationId)).not.toContain(`tukio-${id}-2`);

    await passed(afterFirst.nextAttemptAt);
    // Daraja refuses the request itself (an error body, in the payment service's answer): nothing was paid, the attempt failed.
    desk.answer = () => ({ status: 200, body: { outcome: 'rejected', resultCode: '400.002.02', resultDesc: 'Bad Request - Invalid Amount' } });
    const rejectedAt = Date.now();
    const [second] = await claimOwn(ids).finally(() => (desk.answer = defaultAnswer));
    expect(second).toMatchObject({ method: 'b2c', originatorConversationId: `tukio-${id}-2` });
    const [secondAttempt] = await t.db.select().from(refundAttempts).where(eq(refundAttempts.originatorConversationId, second!.originatorConversationId));
    expect(secondAttempt).toMatchObject({ status: 'failed', resultCode: '400.002.02', resultDesc: 'Bad Request - Invalid Amount' });
    const afterSecond = await refundRow(id);
    expect(afterSecond).toMatchObject({ status: 'due', attempts: 2 });
    const secondWait = afterSecond.nextAttemptAt.getTime() - rejectedAt;
    expect(secondWait).toBeGreaterThan(2 * RETRY_BASE_MS - 100);
    expect(afterSecond.nextAttemptAt.getTime()).toBeGreaterThan(afterFirst.nextAttemptAt.getTime());

    await passed(afterSecond.nextAttemptAt);
    const [third] = await claimOwn(ids);
    expect(third!.originatorConversationId).toBe(`tukio-${id}-3`);
    expect((await internal('POST', '/refunds/result', { originatorConversationId: third!.originatorConversationId, resultCode: 2001, resultDesc: 'The initiator information is invalid.', source: 'status-query' })).body).toEqual({
      refundId: id,
      status: 'failed',
      changed: true,
    });
    expect(await refundRow(id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(await historyOf(id)).toEqual(['->due', 'due>sent', 'sent>due', 'due>sent', 'sent>due', 'due>sent', 'sent>failed']);
    expect((await t.api('GET', '/api/admin/refunds?status=failed', { token: admin.token })).body.map((row: { refundId: string }) => row.refundId)).toContain(id);

    // An administrator sends it again: due now, one more attempt.
    const retried = await t.api('POST', `/api/admin/refunds/${id}/retry`, { token: admin.token });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ refundId: id, status: 'due', method: 'b2c', attempts: MAX_ATTEMPTS });
    expect(await historyOf(id)).toEqual(['->due', 'due>sent', 'sent>due', 'due>sent', 'sent>due', 'due>sent', 'sent>failed', 'failed>due']);
    const again = await t.api('POST', `/api/admin/refunds/${id}/retry`, { token: admin.token });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/Only a failed refund can be retried; this one is due/);
    const [fourth] = await claimOwn(ids);
    expect(fourth!.originatorConversationId).toBe(`tukio-${id}-4`);
    expect((await internal('POST', '/refunds/result', { originatorConversationId: fourth!.originatorConversationId, resultCode: '0', resultDesc: 'ok', transactionId: receiptNo('B'), amount: 500, source: 'callback' })).body).toMatchObject({
      status: 'succeeded',
    });
    expect((await t.api('POST', `/api/admin/refunds/${id}/retry`, { token: admin.token })).status).toBe(409);
  });

  it('does not send a reversal M-Pesa says was already made again by itself', async () => {
    const { ids } = await dueRefunds(1);
    const [claimed] = await claimOwn(ids);
    const res = await internal('POST', '/refunds/result', { originatorConversationId: claimed!.originatorConversationId, resultCode: 'R000001', resultDesc: 'The transaction has already been reversed', source: 'callback' });
    expect(res.body).toEqual({ refundId: ids[0], status: 'failed', changed: true });
    expect(await refundRow(ids[0]!)).toMatchObject({ status: 'failed', method: 'b2c', attempts: 1 });
  });

  it('answers 404 for an unknown refund and 403 to a non-admin', async () => {
    expect((await t.api('POST', '/api/admin/refunds/0123456789abcdef01234567/retry', { token: admin.token })).status).toBe(404);
    expect((await t.api('POST', '/api/admin/refunds/0123456789abcdef01234567/retry', { token: buyer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/refunds', { token: buyer.token })).status).toBe(403);
  });
});

describe('late results', () => {
  it('asks the Transaction Status of an accepted attempt without a result, sends one never answered for again, once per wait', async () => {
    const { ids } = await dueRefunds(3);
    // The first is accepted by Daraja; the payment service never sent the second (503) and lost the third's answer (502).
    const answers: DeskAnswer[] = [
      { status: 200, body: { outcome: 'accepted', conversationId: `AG_late_${ids[0]}` } },
      { status: 503, body: { code: 'mpesa_unreachable' } },
      { status: 502, body: { code: 'payment_outcome_unknown' } },
    ];
    desk.answer = (body) => answers[ids.indexOf(/^tukio-([0-9a-f]{24})-/.exec(body.originatorConversationId)![1]!)] ?? defaultAnswer(body);
    const sent = await claimOwn(ids).finally(() => (desk.answer = defaultAnswer));
    const ocid = (n: number) => sent.find((item) => item.refundId === ids[n])!.originatorConversationId;
    for (const id of ids) expect(await refundRow(id)).toMatchObject({ status: 'sent', attempts: 1 });

    // Within the wait, nothing is asked.
    const askedBefore = desk.asked.length;
    await t.services.refundsJob.runOnce();
    expect(desk.asked.length).toBe(askedBefore);

    // An hour later (the attempts' sent time moved back): looked at once each.
    await t.db.update(refundAttempts).set({ sentAt: new Date(Date.now() - 2 * 3600_000) }).where(inArray(refundAttempts.refundId, ids));
    const sentBefore = desk.sent.length;
    // The payment service answers a repeat from its journal: still outcome unknown for the third.
    desk.answer = (body) => (body.originatorConversationId === ocid(2) ? answers[2]! : defaultAnswer(body));
    await t.services.refundsJob.runOnce().finally(() => (desk.answer = defaultAnswer));
    const byId = (a: { originatorConversationId: string }, b: { originatorConversationId: string }) => a.originatorConversationId.localeCompare(b.originatorConversationId);
    const asked = desk.asked.slice(askedBefore).filter((item) => sent.some((one) => one.originatorConversationId === item.originatorConversationId));
    // Accepted: its status. Outcome unknown: sent again, still unknown, then its status (B2C and reversals alike: the payment service knows what names it).
    expect(asked.sort(byId)).toEqual(
      [
        { originatorConversationId: ocid(0), method: 'reversal', conversationId: `AG_late_${ids[0]}` },
        { originatorConversationId: ocid(2), method: 'reversal' },
      ].sort(byId),
    );
    // Never sent, and the third: the same attempt again (never a new one); the second is accepted now.
    expect(desk.sent.slice(sentBefore).map((item) => item.originatorConversationId).sort()).toEqual([ocid(1), ocid(2)].sort());
    const [second] = await t.db.select().from(refundAttempts).where(eq(refundAttempts.originatorConversationId, ocid(1)));
    expect(second).toMatchObject({ status: 'sent', conversationId: `AG_${ocid(1)}` });

    // Asked already: not again before the wait is over.
    const askedNow = desk.asked.length;
    await t.services.refundsJob.runOnce();
    expect(desk.asked.length).toBe(askedNow);

    // A result settles it: never looked at again, however old.
    await internal('POST', '/refunds/result', { originatorConversationId: ocid(0), resultCode: 0, resultDesc: 'ok', transactionId: receiptNo('Q'), source: 'status-query' });
    await t.db.update(refundAttempts).set({ sentAt: new Date(Date.now() - 4 * 3600_000), statusAskedAt: null }).where(inArray(refundAttempts.refundId, ids));
    await t.services.refundsJob.runOnce();
    const later = desk.asked.slice(askedNow).map((item) => item.originatorConversationId);
    expect(later).not.toContain(ocid(0));
    expect(later).toContain(ocid(1));
  });
});
