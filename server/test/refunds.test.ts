import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, refundAttempts, refunds, refundTransitions } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, settle } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The refund ledger through the internal routes the payment service calls (X-Internal-Key): claim,
 * accepted, result, unresolved, and the admin's list and retry. Refunds are made the way production
 * makes them, by cancelling an event that has paid orders.
 */

/** Long enough that the check "not due yet" right after a failure holds on a loaded machine. */
const RETRY_BASE_MS = 2000;
const MAX_ATTEMPTS = 3;

let t: TestServer;
let admin: { token: string };
let organiser: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string } };

beforeAll(async () => {
  t = await startTestServer({ REFUND_RETRY_BASE_MS: String(RETRY_BASE_MS), REFUND_MAX_ATTEMPTS: String(MAX_ATTEMPTS) });
  admin = await t.loginAdmin();
  organiser = await t.createUser('refundorganiser');
  buyer = await t.createUser('refundbuyer');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const internal = <T = any>(method: string, path: string, body?: unknown) => t.api<T>(method, `/api/internal${path}`, { headers: internalHeaders(t), body });

interface Claimed {
  refundId: string;
  originatorConversationId: string;
  method: 'reversal' | 'b2c';
  amount: number;
  phone: string;
  receipt: string | null;
  remarks: string;
}

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

/** Claims until every refund in `ids` came out (others due meanwhile are claimed too, and ignored). */
async function claimOwn(ids: string[]): Promise<Claimed[]> {
  const mine: Claimed[] = [];
  for (let round = 0; round < 10 && mine.length < ids.length; round++) {
    const res = await internal<Claimed[]>('POST', '/refunds/claim', { limit: 50 });
    expect(res.status).toBe(200);
    mine.push(...res.body.filter((item) => ids.includes(item.refundId)));
  }
  expect(mine.map((item) => item.refundId).sort()).toEqual([...ids].sort());
  return mine;
}

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
    const claims = await Promise.all([0, 1, 2].map(() => internal<Claimed[]>('POST', '/refunds/claim', { limit: 3 })));
    for (const claim of claims) expect(claim.status).toBe(200);
    const all = claims.flatMap((claim) => claim.body).filter((item) => ids.includes(item.refundId));
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
    const again = await internal<Claimed[]>('POST', '/refunds/claim', {});
    expect(again.body.filter((item) => ids.includes(item.refundId))).toEqual([]);
  });

  it('refuses a limit outside 1..50 and a call without the internal key', async () => {
    expect((await internal('POST', '/refunds/claim', { limit: 51 })).status).toBe(400);
    expect((await internal('POST', '/refunds/claim', { limit: 0 })).status).toBe(400);
    expect((await t.api('POST', '/api/internal/refunds/claim', { body: {} })).status).toBe(401);
  });
});

describe('accepted and result', () => {
  it('records the ConversationID once, a success once, and ignores duplicates and late results', async () => {
    const { ids, paid } = await dueRefunds(1, 400);
    const [claimed] = await claimOwn(ids);
    const ocid = claimed!.originatorConversationId;

    const accepted = await internal('POST', '/refunds/accepted', { originatorConversationId: ocid, conversationId: 'AG_20240706_2010364430d9bbdaf872' });
    expect(accepted).toMatchObject({ status: 200, body: { changed: true } });
    expect((await internal('POST', '/refunds/accepted', { originatorConversationId: ocid, conversationId: 'AG_20240706_2010364430d9bbdaf872' })).body).toEqual({ changed: false });
    expect((await internal('POST', '/refunds/accepted', { originatorConversationId: ocid, conversationId: 'AG_other' })).status).toBe(409);

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
    expect((await internal('POST', '/refunds/accepted', { originatorConversationId: unknown.originatorConversationId, conversationId: 'AG_x' })).status).toBe(404);
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
    // Not due yet: the claim leaves it.
    expect((await internal<Claimed[]>('POST', '/refunds/claim', { limit: 50 })).body.map((item) => item.refundId)).not.toContain(id);

    await passed(afterFirst.nextAttemptAt);
    const [second] = await claimOwn(ids);
    expect(second).toMatchObject({ method: 'b2c', originatorConversationId: `tukio-${id}-2` });
    const rejectedAt = Date.now();
    // Daraja refused the request itself (an error body): nothing was paid, the attempt failed.
    expect((await internal('POST', '/refunds/result', { originatorConversationId: second!.originatorConversationId, resultCode: '400.002.02', resultDesc: 'Bad Request - Invalid Amount', source: 'rejected' })).body).toEqual({
      refundId: id,
      status: 'due',
      changed: true,
    });
    const afterSecond = await refundRow(id);
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

describe('unresolved', () => {
  it('lists attempts still sent after olderThan seconds, for Transaction Status queries', async () => {
    const { ids } = await dueRefunds(2);
    const claimed = await claimOwn(ids);
    await internal('POST', '/refunds/accepted', { originatorConversationId: claimed[0]!.originatorConversationId, conversationId: `AG_${ids[0]}` });
    const res = await internal<Array<{ originatorConversationId: string; conversationId: string | null; method: string; sentAt: string }>>('GET', '/refunds/unresolved?olderThan=0&limit=500');
    expect(res.status).toBe(200);
    const mine = res.body.filter((row) => claimed.some((item) => item.originatorConversationId === row.originatorConversationId));
    expect(mine).toHaveLength(2);
    expect(mine.find((row) => row.originatorConversationId === claimed[0]!.originatorConversationId)).toMatchObject({ conversationId: `AG_${ids[0]}`, method: 'reversal' });
    expect(Date.parse(mine[0]!.sentAt)).toBeGreaterThan(Date.now() - 60_000);
    // Not old enough yet for a one-hour threshold; a finished attempt is never listed.
    const later = await internal<Array<{ originatorConversationId: string }>>('GET', '/refunds/unresolved?olderThan=3600');
    expect(later.body.filter((row) => claimed.some((item) => item.originatorConversationId === row.originatorConversationId))).toEqual([]);
    await internal('POST', '/refunds/result', { originatorConversationId: claimed[1]!.originatorConversationId, resultCode: 0, resultDesc: 'ok', transactionId: receiptNo('Q'), source: 'status-query' });
    const after = await internal<Array<{ originatorConversationId: string }>>('GET', '/refunds/unresolved?olderThan=0&limit=500');
    expect(after.body.map((row) => row.originatorConversationId)).toContain(claimed[0]!.originatorConversationId);
    expect(after.body.map((row) => row.originatorConversationId)).not.toContain(claimed[1]!.originatorConversationId);
  });
});
