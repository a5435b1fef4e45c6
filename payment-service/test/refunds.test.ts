import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, refundAttempts, refunds, refundTransitions, tickets } from '../../server/src/db/schema.js';
import { auditPayments } from '../src/audit.js';
import { CALLBACK_SECRET, startStack, type Stack } from './helpers/stack.js';
import { root } from './helpers/processes.js';

/**
 * Refunds end to end over the real stack (API server on PGlite, or PostgreSQL with TEST_DB=postgres; the
 * payment service; the Daraja simulator): money taken for a seat nobody gets goes back through a reversal
 * of the STK payment or a B2C payout, whatever M-Pesa does on the way, and the audit of M-Pesa's books
 * against the ledger finds nothing wrong after all of it.
 */

const METRICS_TOKEN = 'refunds-test-metrics-token';
let s: Stack;
let organiser: Awaited<ReturnType<Stack['quickUser']>>;
let phoneCounter = 0;

beforeAll(async () => {
  s = await startStack({
    // Holds last 0.6 s, so a payment can arrive after its seat went to someone else; failed attempts wait 100 ms; the
    // refunds job runs every 50 ms and looks at a result still missing after a second.
    serverEnv: { HOLD_MINUTES: '0.01', REFUND_RETRY_BASE_MS: '100', REFUND_POLL_MS: '50', REFUND_RESULT_WAIT_MS: '1000' },
    paymentEnv: { METRICS_TOKEN },
  });
  organiser = await s.quickUser('refundorganiser');
});
afterAll(async () => {
  await s?.close();
});

type RefundRow = typeof refunds.$inferSelect;

const nextPhone = () => `2547110${String(++phoneCounter).padStart(5, '0')}`;

/** Queues a failure mode on the simulator for the next payout (to `phone`, when given). */
async function payoutMode(body: { mode: string; payout?: boolean; phone?: string; times?: number }) {
  const res = await s.simApi('POST', '/simulator/payouts/modes', { headers: s.simulatorKey, body });
  expect(res.status).toBe(201);
}

async function ledger() {
  return (await s.simApi('GET', '/simulator/ledger', { headers: s.simulatorKey })).body as {
    payments: Array<{ receipt: string; amount: number; checkoutRequestId: string }>;
    refunds: Array<{ transactionId: string; originatorConversationId: string; amount: number; kind: string; phone: string; originalReceipt: string | null }>;
  };
}

/** A buyer who paid for `quantity` seats of a new event; its payment's CheckoutRequestID. */
async function paidOrder(input: { price: number; quantity?: number; phone?: string; eventId?: string }) {
  const buyer = await s.quickUser(`refundbuyer${++phoneCounter}`);
  const eventId = input.eventId ?? (await s.createEvent({ ownerId: organiser.user._id, price: input.price, capacity: 50 }));
  const phone = input.phone ?? nextPhone();
  const push = await s.stkPush(buyer.token, eventId, phone, { quantity: input.quantity ?? 1 });
  expect(push.status).toBe(200);
  expect((await s.waitSettled(buyer.token, push.body.CheckoutRequestID)).body.success).toBe(true);
  return { buyer, eventId, phone, checkoutRequestId: push.body.CheckoutRequestID as string };
}

async function cancelEvent(eventId: string) {
  const res = await s.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason: 'The venue flooded.' } });
  expect(res.status).toBe(200);
  return res.body;
}

async function refundFor(checkoutRequestId: string): Promise<RefundRow | undefined> {
  const rows = await s.server.db.select({ refund: refunds }).from(refunds).innerJoin(payments, eq(refunds.paymentId, payments.id)).where(eq(payments.checkoutRequestId, checkoutRequestId));
  return rows[0]?.refund;
}

/** Waits until the payment's refund is `status` (and its pass is over: attempts no longer `sent` unless asked). */
async function refundReaches(checkoutRequestId: string, status: RefundRow['status'], timeout = 20_000): Promise<RefundRow> {
  await expect.poll(async () => (await refundFor(checkoutRequestId))?.status, { timeout, interval: 50 }).toBe(status);
  return (await refundFor(checkoutRequestId))!;
}

const attemptsOf = (refundId: string) => s.server.db.select().from(refundAttempts).where(eq(refundAttempts.refundId, refundId)).orderBy(asc(refundAttempts.sentAt), asc(refundAttempts.originatorConversationId));
const historyOf = async (refundId: string) =>
  (await s.server.db.select().from(refundTransitions).where(eq(refundTransitions.refundId, refundId)).orderBy(asc(refundTransitions.at))).map((row) => `${row.fromStatus ?? '-'}>${row.toStatus}`);

const mpesaPost = (route: string, attempt: string, body: unknown, secret = CALLBACK_SECRET) => s.payApi('POST', `/api/mpesa/${route}/${secret}?ocid=${encodeURIComponent(attempt)}`, { body });

async function metric(line: RegExp) {
  const res = await s.payApi('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const found = String(res.body)
    .split('\n')
    .find((row) => line.test(row));
  return found ? Number(found.split(' ').pop()) : 0;
}

describe('refunds over Daraja', () => {
  it('gives a sold-out late payment its money back by reversal: the refund ends succeeded with the reversal receipt', async () => {
    const buyer = await s.quickUser('latebuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 800, capacity: 1, title: 'Tiny Gig' });
    // The "waits for a person" number: the prompt is answered after the hold ran out and the seat was sold.
    const push = await s.stkPush(buyer.token, eventId, '254700000005');
    expect(push.status).toBe(200);
    const [held] = await s.server.db.select().from(orders).where(eq(orders.userId, buyer.user._id));
    await expect.poll(() => Date.now() > held!.holdExpiresAt!.getTime(), { timeout: 10_000, interval: 20 }).toBe(true);
    const other = await paidOrder({ price: 800, eventId });
    expect(other.checkoutRequestId).toBeTruthy();
    const prompt = await s.prompt(push.body.CheckoutRequestID);
    expect((await s.simApi('POST', `${prompt!.promptPath}/pay`, { body: { pin: '1234' } })).status).toBe(200);
    expect((await s.waitSettled(buyer.token, push.body.CheckoutRequestID)).body).toMatchObject({ status: 'success', orderStatus: 'refund_due' });

    const refund = await refundReaches(push.body.CheckoutRequestID, 'succeeded');
    expect(refund).toMatchObject({ amount: 800, phone: '254700000005', method: 'reversal', attempts: 1, receipt: expect.stringMatching(/^[A-Z0-9]{10}$/) });
    const [payment] = await s.server.db.select().from(payments).where(eq(payments.checkoutRequestId, push.body.CheckoutRequestID));
    // M-Pesa's books: the reversal of that very payment, to the payer, of its amount.
    expect((await ledger()).refunds.filter((paid) => paid.originalReceipt === payment!.mpesaReceiptNumber)).toEqual([
      expect.objectContaining({ transactionId: refund.receipt, amount: 800, kind: 'reversal', phone: '254700000005' }),
    ]);
    const [attempt] = await attemptsOf(refund.id);
    expect(attempt).toMatchObject({ originatorConversationId: `tukio-${refund.id}-1`, status: 'succeeded', resultCode: '0', transactionId: refund.receipt, conversationId: expect.stringMatching(/^AG_/) });
    expect(await historyOf(refund.id)).toEqual(['->due', 'due>sent', 'sent>succeeded']);
  });

  it('changes nothing for duplicate, late, timed-out or stray callbacks', async () => {
    const paid = await paidOrder({ price: 300 });
    await cancelEvent(paid.eventId);
    const refund = await refundReaches(paid.checkoutRequestId, 'succeeded');
    const [attempt] = await attemptsOf(refund.id);
    const before = { refund: await refundFor(paid.checkoutRequestId), history: await historyOf(refund.id) };
    const result = (code: number | string, transactionId: string) => ({
      Result: {
        ResultType: 0,
        ResultCode: code,
        ResultDesc: code === 0 ? 'The service request is processed successfully.' : 'The OriginalTransactionID is invalid.',
        OriginatorConversationID: 'dad6-4c34-8787-c8cb963a496d',
        ConversationID: attempt!.conversationId,
        TransactionID: transactionId,
        ResultParameters: code === 0 ? { ResultParameter: [{ Key: 'Amount', Value: 300 }, { Key: 'Charge' }] } : undefined,
        ReferenceData: { ReferenceItem: [{ Key: 'QueueTimeoutURL', Value: 'https://internalsandbox.safaricom.co.ke/mpesa/reversalresults/v1/submit' }] },
      },
    });
    const duplicate = await mpesaPost('reversal/result', attempt!.originatorConversationId, result(0, refund.receipt!));
    expect(duplicate).toMatchObject({ status: 200, body: { ResultCode: 0, outcome: 'duplicate' } });
    const late = await mpesaPost('reversal/result', attempt!.originatorConversationId, result('R000002', 'SKE0000000'));
    expect(late.body.outcome).toBe('duplicate');
    expect((await mpesaPost('reversal/timeout', attempt!.originatorConversationId, result(1, 'x'))).body).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
    // Strangers and the unknown.
    expect((await mpesaPost('reversal/result', attempt!.originatorConversationId, result(0, 'ABCDEFGHIJ'), 'not-the-secret-0123456789')).status).toBe(404);
    expect((await mpesaPost('b2c/result', `tukio-${'0'.repeat(24)}-1`, result(0, 'ABCDEFGHIJ'))).status).toBe(404);
    expect((await mpesaPost('b2c/result', attempt!.originatorConversationId, { Result: { ResultDesc: 'no code' } })).status).toBe(400);
    expect((await mpesaPost('status/result', attempt!.originatorConversationId, result(0, 'ABCDEFGHIJ'))).status).toBe(404);

    expect(await refundFor(paid.checkoutRequestId)).toEqual(before.refund);
    expect(await historyOf(refund.id)).toEqual(before.history);
    expect(await metric(/^refund_callbacks_total\{route="reversal-result",outcome="duplicate"\}/)).toBeGreaterThanOrEqual(2);
    expect(await metric(/^refund_callbacks_total\{route="reversal-timeout",outcome="timeout"\}/)).toBeGreaterThanOrEqual(1);
  });

  it("refunds a cancelled event's paid orders; a failed attempt is followed by a B2C payout that succeeds", async () => {
    const first = await paidOrder({ price: 450, quantity: 2 });
    const second = await paidOrder({ price: 450, eventId: first.eventId });
    await payoutMode({ mode: 'insufficient-float', phone: first.phone });
    const cancelled = await cancelEvent(first.eventId);
    expect(cancelled.ticketsVoided).toBe(3);

    const retried = await refundReaches(first.checkoutRequestId, 'succeeded');
    const plain = await refundReaches(second.checkoutRequestId, 'succeeded');
    expect(plain).toMatchObject({ amount: 450, method: 'reversal', attempts: 1 });
    // The reversal failed for good (insufficient balance): the next attempt paid out by B2C.
    expect(retried).toMatchObject({ amount: 900, method: 'b2c', attempts: 2, reason: 'event_cancelled', receipt: expect.stringMatching(/^[A-Z0-9]{10}$/) });
    expect((await attemptsOf(retried.id)).map((row) => [row.method, row.status, row.resultCode])).toEqual([
      ['reversal', 'failed', '1'],
      ['b2c', 'succeeded', '0'],
    ]);
    expect(await historyOf(retried.id)).toEqual(['->due', 'due>sent', 'sent>due', 'due>sent', 'sent>succeeded']);
    expect((await ledger()).refunds).toContainEqual(expect.objectContaining({ transactionId: retried.receipt, originatorConversationId: `tukio-${retried.id}-2`, amount: 900, kind: 'b2c', phone: first.phone }));
    const voided = await s.server.db.select().from(tickets).where(eq(tickets.eventId, first.eventId));
    expect(voided).toHaveLength(3);
  });

  it('settles a refund whose result never comes through Transaction Status', async () => {
    const before = await metric(/^refunds_total\{method="reversal",outcome="status-query"\}/);
    const paid = await paidOrder({ price: 260 });
    await payoutMode({ mode: 'no-result', phone: paid.phone });
    await cancelEvent(paid.eventId);
    const refund = await refundReaches(paid.checkoutRequestId, 'succeeded');
    expect(refund).toMatchObject({ method: 'reversal', attempts: 1 });
    const [transition] = (await s.server.db.select().from(refundTransitions).where(eq(refundTransitions.refundId, refund.id))).filter((row) => row.toStatus === 'succeeded');
    expect(transition!.detail).toBe(`${refund.receipt} (status-query)`);
    expect(await metric(/^refunds_total\{method="reversal",outcome="status-query"\}/)).toBeGreaterThan(before);
  });

  it('asks after a queue timeout: a payout made is found completed, one not made is found missing and sent again', async () => {
    const made = await paidOrder({ price: 120 });
    const lost = await paidOrder({ price: 120, eventId: made.eventId });
    await payoutMode({ mode: 'queue-timeout', payout: true, phone: made.phone });
    await payoutMode({ mode: 'queue-timeout', payout: false, phone: lost.phone });
    await cancelEvent(made.eventId);
    const found = await refundReaches(made.checkoutRequestId, 'succeeded');
    expect(found).toMatchObject({ method: 'reversal', attempts: 1 });
    const resent = await refundReaches(lost.checkoutRequestId, 'succeeded');
    expect((await attemptsOf(resent.id)).map((row) => [row.method, row.status, row.resultCode])).toEqual([
      ['reversal', 'failed', 'SFC_IC0003'],
      ['b2c', 'succeeded', '0'],
    ]);
  });

  it('the audit finds 0 discrepancies after all that, from the simulator ledger and from the journal of callbacks', async () => {
    // Nothing still on its way.
    await expect.poll(async () => (await s.server.db.select().from(refunds)).filter((row) => row.status !== 'succeeded').length, { timeout: 20_000, interval: 100 }).toBe(0);
    const fromLedger = await auditPayments(s.config, { ledgerUrl: `${s.sim.url}/simulator/ledger`, key: s.config.simulator.key });
    expect(fromLedger.discrepancies).toEqual([]);
    expect(fromLedger.checked.refunds).toBe(7);
    expect(fromLedger.checked.payments).toBe(8);
    const fromJournal = await auditPayments(s.config, { journalDir: path.join(s.config.dataDir, 'mpesa-journal') });
    expect(fromJournal).toEqual({ discrepancies: [], notices: [], checked: { payments: 8, refunds: 7, payouts: 0 } });
  });

  it('npm run audit:payments prints the count and exits 1 when the books disagree', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-audit-'));
    try {
      const env = { ...process.env, NODE_ENV: 'test', DATA_DIR: dir, API_URL: s.server.url, INTERNAL_API_KEY: s.config.internalApiKey, LOG_LEVEL: 'silent' };
      // Asynchronously: the API server and the payment service answer from this very process.
      const audit = (...args: string[]) =>
        new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
          execFile(process.execPath, ['scripts/audit-payments.mjs', ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
            resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr });
          });
        });
      const agreed = await audit('--ledger', `${s.sim.url}/simulator/ledger?key=${s.config.simulator.key}`);
      expect(agreed.stdout).toMatch(/^0 discrepancies$/m);
      expect(agreed.status).toBe(0);
      // A journal naming a payment nobody recorded (and none of the refunds above: each is missing at the provider).
      const journal = path.join(dir, 'journal');
      mkdirSync(journal);
      writeFileSync(path.join(journal, 'journal.log'), `${JSON.stringify({ payment: { receipt: 'ZZZ9999999', amount: 50, phone: '254712345678', checkoutRequestId: 'ws_CO_nobody', at: Date.now() } })}\n`);
      const disagreed = await audit('--journal', journal);
      expect(disagreed.stdout, disagreed.stdout).toMatch(/payment-unknown: payment ZZZ9999999/);
      const listed = disagreed.stdout.split('\n').filter((line) => /^ {2}[a-z-]+: /.test(line)).length;
      expect(disagreed.stdout).toMatch(new RegExp(`^${listed} discrepancies$`, 'm'));
      // 1 unknown payment, 7 refunds missing at the provider, and the ledger's clearing account, which holds what the simulator's books say, not the journal's.
      expect(disagreed.stdout).toMatch(/ledger-clearing: the clearing account holds/);
      expect(listed).toBe(9);
      expect(disagreed.status).toBe(1);
      // No simulator where it looks (not running, or another port): it says so and what to check, instead of "fetch failed".
      const unreachable = await audit('--ledger', 'http://127.0.0.1:9/simulator/ledger?key=secret');
      expect(unreachable.status).not.toBe(0);
      expect(unreachable.stderr).toMatch(/the Daraja simulator's ledger at http:\/\/127\.0\.0\.1:9\/simulator\/ledger\?key=… could not be read \(.+\): is npm start running/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
