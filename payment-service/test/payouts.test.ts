import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { payoutAttemptId, type PayoutDestination } from '@tukio/shared/internal-payouts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { providerBooks } from '../src/audit.js';
import { loadPaymentConfig } from '../src/config.js';
import { readParkedPayoutResults } from '../src/payouts/payout-outbox.js';
import { startPaymentService, type RunningPaymentService } from '../src/start.js';
import { startTestSimulator, type TestSimulator } from './helpers/daraja-simulator.js';
import { freePort, startService } from './helpers/processes.js';
import { startResultsReceiver } from './helpers/results-receiver.js';

/**
 * Organiser payouts over the real Daraja simulator: the payment service sends each attempt once (B2C to a phone,
 * B2B to a Paybill account or a Till), turns Daraja's results and Transaction Status answers into results, and its
 * outbox delivers each to the API server (a recording receiver here, which refuses the first calls) until
 * acknowledged — across a kill -9 of the payment service too.
 */

const INTERNAL_KEY = 'payouts-test-internal-key';
const CALLBACK_SECRET = 'payouts-test-callback-secret-0123';
let dataDir: string;
let sim: TestSimulator;
let receiver: Awaited<ReturnType<typeof startResultsReceiver>>;
let pay: RunningPaymentService;

const serviceEnv = (dir: string) => ({
  DATA_DIR: dir,
  API_URL: receiver.url,
  INTERNAL_API_KEY: INTERNAL_KEY,
  CALLBACK_SECRET,
  ...sim.paymentEnv,
  RECONCILE_INTERVAL_MS: '0',
  PAYOUT_RESULT_RETRY_MS: '20',
  LOG_LEVEL: 'silent',
});

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-payouts-test-'));
  sim = await startTestSimulator(dataDir, { SIMULATOR_DELAY_MS: '20' });
  // The first three deliveries are refused: the first result gets through only by retrying.
  receiver = await startResultsReceiver({ internalKey: INTERNAL_KEY, failFirst: 3 });
  pay = await startPaymentService(loadPaymentConfig({ NODE_ENV: 'test', PAYMENT_PORT: '0', ...serviceEnv(path.join(dataDir, 'payments')) }));
  sim.allowCallbacksTo(pay.url);
});
afterAll(async () => {
  await pay?.close();
  await sim?.close();
  await receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const newAttempt = (attempt = 1) => payoutAttemptId(randomBytes(12).toString('hex'), attempt);
let phoneCounter = 0;
const nextPhone = () => `2547220${String(++phoneCounter).padStart(5, '0')}`;
const nextShortcode = () => String(600_100 + ++phoneCounter);

async function post(base: string, route: string, body: unknown) {
  const res = await fetch(`${base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-internal-key': INTERNAL_KEY }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

const sendPayout = (attempt: string, destination: PayoutDestination, amount = 1500, base = pay.url) =>
  post(base, '/internal/payouts', { originatorConversationId: attempt, amount, destination, remarks: 'Tukio payout for Nairobi Jazz Night' });

/** Queues a failure mode on the simulator for the next payout to `party` (a phone, Paybill or Till). */
async function payoutMode(mode: string, party: string) {
  const res = await fetch(`${sim.url}/simulator/payouts/modes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-simulator-key': sim.key },
    body: JSON.stringify({ mode, phone: party }),
  });
  expect(res.status).toBe(201);
}

/** The simulator's records of requests to `party`. */
const simulated = (party: string) => [...sim.running.simulator.payouts.payouts.values()].filter((payout) => payout.phone === party);

/** The result the API server acknowledged for `attempt`, once it has. */
const resultOf = (attempt: string) =>
  vi.waitFor(
    () => {
      const [result] = receiver.resultsOf(attempt);
      if (!result) throw new Error(`no result acknowledged for ${attempt}`);
      return result;
    },
    { timeout: 10_000, interval: 20 },
  );

describe('organiser payouts', () => {
  it('pays a B2C payout to a phone and delivers its result through the refusals', async () => {
    const attempt = newAttempt();
    const phone = nextPhone();
    const sent = await sendPayout(attempt, { method: 'mpesa', phone });
    expect(sent).toMatchObject({ status: 200, body: { outcome: 'accepted', conversationId: expect.stringMatching(/^AG_/) } });
    const result = await resultOf(attempt);
    const [paid] = simulated(phone);
    expect(result).toEqual({
      originatorConversationId: attempt,
      conversationId: sent.body.conversationId,
      resultCode: '0',
      resultDesc: expect.any(String),
      transactionId: paid!.transactionId,
      amount: 1500,
      source: 'callback',
    });
    // Refused three times (500), then acknowledged once; nothing is left in the outbox.
    expect(receiver.callsFor(attempt).map((call) => call.status)).toEqual([500, 500, 500, 200]);
    await vi.waitFor(() => expect(pay.payoutOutbox.pending()).toEqual([]));
  });

  it('pays a Paybill account (BusinessPayBill) and a Till (BusinessBuyGoods)', async () => {
    const paybill = nextShortcode();
    const till = nextShortcode();
    const toPaybill = newAttempt();
    const toTill = newAttempt();
    expect((await sendPayout(toPaybill, { method: 'paybill', shortcode: paybill, accountReference: 'ORG-4471' }, 20_000)).body.outcome).toBe('accepted');
    expect((await sendPayout(toTill, { method: 'till', shortcode: till }, 750)).body.outcome).toBe('accepted');
    const [paybillResult, tillResult] = await Promise.all([resultOf(toPaybill), resultOf(toTill)]);
    expect(simulated(paybill)).toMatchObject([{ kind: 'b2b', commandId: 'BusinessPayBill', accountReference: 'ORG-4471', amount: 20_000, status: 'paid' }]);
    expect(simulated(till)).toMatchObject([{ kind: 'b2b', commandId: 'BusinessBuyGoods', amount: 750, status: 'paid' }]);
    expect(simulated(till)[0]!.accountReference).toBeUndefined();
    expect(paybillResult).toMatchObject({ resultCode: '0', transactionId: simulated(paybill)[0]!.transactionId, amount: 20_000, source: 'callback' });
    // DebitPartyCharges is empty when M-Pesa charged nothing.
    expect(paybillResult).not.toHaveProperty('charge');
    expect(tillResult).toMatchObject({ resultCode: '0', transactionId: simulated(till)[0]!.transactionId, amount: 750, source: 'callback' });
  });

  it('reports insufficient float and an invalid account as failed results that paid nothing', async () => {
    const phone = nextPhone();
    const paybill = nextShortcode();
    await payoutMode('insufficient-float', phone);
    await payoutMode('invalid-account', paybill);
    const noFloat = newAttempt();
    const badAccount = newAttempt();
    expect((await sendPayout(noFloat, { method: 'mpesa', phone })).body.outcome).toBe('accepted');
    expect((await sendPayout(badAccount, { method: 'paybill', shortcode: paybill, accountReference: 'NO-SUCH' })).body.outcome).toBe('accepted');
    const [floatResult, accountResult] = await Promise.all([resultOf(noFloat), resultOf(badAccount)]);
    expect(floatResult).toMatchObject({ resultCode: '1', source: 'callback' });
    expect(accountResult).toMatchObject({ resultCode: '2040', source: 'callback' });
    // A failure's TransactionID is a placeholder, not a receipt.
    expect(floatResult.transactionId).toBeUndefined();
    expect(accountResult.transactionId).toBeUndefined();
    expect([...simulated(phone), ...simulated(paybill)].map((payout) => payout.status)).toEqual(['failed', 'failed']);
  });

  it('answers a request Daraja refuses synchronously as rejected, and the same again without resending', async () => {
    const attempt = newAttempt();
    const phone = nextPhone();
    const before = sim.running.simulator.payouts.payouts.size;
    // Configured with a shortcode M-Pesa does not know as ours: every request is refused (400.002.02) at once.
    const refusing = await startPaymentService(
      loadPaymentConfig({ NODE_ENV: 'test', PAYMENT_PORT: '0', ...serviceEnv(path.join(dataDir, 'refused')), DARAJA_B2C_SHORTCODE: '999999' }),
    );
    try {
      const first = await sendPayout(attempt, { method: 'mpesa', phone }, 1500, refusing.url);
      expect(first).toMatchObject({ status: 200, body: { outcome: 'rejected', resultCode: '400.002.02', resultDesc: 'Bad Request - Invalid PartyA' } });
      const again = await sendPayout(attempt, { method: 'mpesa', phone }, 1500, refusing.url);
      expect(again.body).toEqual(first.body);
      expect(sim.running.simulator.payouts.payouts.size).toBe(before);
    } finally {
      await refusing.close();
    }
  });

  it('sends the same attempt once, however often and concurrently it is asked', async () => {
    const phone = nextPhone();
    const till = nextShortcode();
    const toPhone = newAttempt();
    const toTill = newAttempt();
    const answers = await Promise.all([
      sendPayout(toPhone, { method: 'mpesa', phone }),
      sendPayout(toPhone, { method: 'mpesa', phone }),
      sendPayout(toTill, { method: 'till', shortcode: till }),
      sendPayout(toTill, { method: 'till', shortcode: till }),
    ]);
    await Promise.all([resultOf(toPhone), resultOf(toTill)]);
    const later = [await sendPayout(toPhone, { method: 'mpesa', phone }), await sendPayout(toTill, { method: 'till', shortcode: till })];
    expect(answers[1]!.body).toEqual(answers[0]!.body);
    expect(answers[3]!.body).toEqual(answers[2]!.body);
    expect(later.map((answer) => answer.body)).toEqual([answers[0]!.body, answers[2]!.body]);
    expect(simulated(phone)).toHaveLength(1);
    expect(simulated(till)).toHaveLength(1);
    expect(receiver.resultsOf(toPhone)).toHaveLength(1);
    expect(receiver.resultsOf(toTill)).toHaveLength(1);
  });

  it('settles a payout whose result never comes through a Transaction Status query (B2C and B2B)', async () => {
    const phone = nextPhone();
    const till = nextShortcode();
    await payoutMode('no-result', phone);
    await payoutMode('no-result', till);
    const toPhone = newAttempt();
    const toTill = newAttempt();
    const sentToTill = await sendPayout(toTill, { method: 'till', shortcode: till }, 900);
    expect((await sendPayout(toPhone, { method: 'mpesa', phone }, 1200)).body.outcome).toBe('accepted');
    await vi.waitFor(() => expect([...simulated(phone), ...simulated(till)].map((payout) => payout.posted)).toEqual(['nothing', 'nothing']));
    expect(receiver.resultsOf(toPhone)).toEqual([]);

    expect(await post(pay.url, '/internal/payouts/status', { originatorConversationId: toPhone, destination: { method: 'mpesa', phone } })).toEqual({ status: 202, body: { asked: true } });
    expect((await post(pay.url, '/internal/payouts/status', { originatorConversationId: toTill, destination: { method: 'till', shortcode: till }, conversationId: sentToTill.body.conversationId })).status).toBe(202);
    const [phoneResult, tillResult] = await Promise.all([resultOf(toPhone), resultOf(toTill)]);
    expect(phoneResult).toMatchObject({ resultCode: '0', transactionId: simulated(phone)[0]!.transactionId, amount: 1200, charge: 22.4, source: 'status-query' });
    expect(tillResult).toMatchObject({ resultCode: '0', transactionId: simulated(till)[0]!.transactionId, amount: 900, source: 'status-query' });
  });

  it('delivers nothing for a queue timeout; the status query then says it was never paid', async () => {
    const phone = nextPhone();
    await payoutMode('queue-timeout', phone);
    const attempt = newAttempt();
    expect((await sendPayout(attempt, { method: 'mpesa', phone })).body.outcome).toBe('accepted');
    await vi.waitFor(() => expect(simulated(phone)[0]?.posted).toBe('timeout'));
    expect(receiver.callsFor(attempt)).toEqual([]);
    expect((await post(pay.url, '/internal/payouts/status', { originatorConversationId: attempt, destination: { method: 'mpesa', phone } })).status).toBe(202);
    expect(await resultOf(attempt)).toMatchObject({ resultCode: 'SFC_IC0003', source: 'status-query' });
    expect((await resultOf(attempt)).transactionId).toBeUndefined();
  });

  it('refuses a callback on a wrong secret path and one for no attempt of ours', async () => {
    const result = { Result: { ResultType: 0, ResultCode: 0, ResultDesc: 'ok', OriginatorConversationID: 'x', ConversationID: 'AG_1', TransactionID: 'SG632NMUAB' } };
    const wrongSecret = await fetch(`${pay.url}/api/mpesa/payout/result/not-the-secret?ocid=${newAttempt()}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) });
    expect(wrongSecret.status).toBe(404);
    const noAttempt = await fetch(`${pay.url}/api/mpesa/payout/result/${CALLBACK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) });
    expect(noAttempt.status).toBe(404);
  });

  it('parks a result the API server refuses for good (409): tried once, kept on disk, never redelivered', async () => {
    const attempt = newAttempt();
    receiver.refuse(attempt, 409);
    expect((await sendPayout(attempt, { method: 'mpesa', phone: nextPhone() })).body).toMatchObject({ outcome: 'accepted' });
    await vi.waitFor(() => expect(pay.payoutOutbox.parked().map((entry) => entry.result.originatorConversationId)).toEqual([attempt]), { timeout: 10_000, interval: 20 });
    expect(pay.payoutOutbox.parked()[0]).toMatchObject({ status: 409, result: { resultCode: '0' } });
    expect(readParkedPayoutResults(path.join(dataDir, 'payments', 'payout-outbox')).map((entry) => entry.result.originatorConversationId)).toEqual([attempt]);
    expect(pay.payoutOutbox.pending()).toEqual([]);
    // Later deliveries of other results go on; this one is not tried again.
    const other = newAttempt();
    await sendPayout(other, { method: 'mpesa', phone: nextPhone() }, 1600);
    await resultOf(other);
    expect(receiver.callsFor(attempt).map((call) => call.status)).toEqual([409]);
  });

  it('lists the organiser payouts apart from refunds in the provider books (ledger and journal)', async () => {
    const fromLedger = await providerBooks({ ledgerUrl: `${sim.url}/simulator/ledger`, key: sim.key });
    const fromJournal = await providerBooks({ journalDir: path.join(dataDir, 'payments', 'mpesa-journal') });
    expect(fromLedger.refunds).toEqual([]);
    expect(fromJournal.refunds).toEqual([]);
    const paid = [...sim.running.simulator.payouts.payouts.values()].filter((payout) => payout.status === 'paid');
    const byTransaction = (books: typeof fromLedger) => books.payouts.map((payout) => `${payout.kind} ${payout.transactionId} ${payout.amount}`).sort();
    expect(byTransaction(fromLedger)).toEqual(paid.map((payout) => `${payout.kind} ${payout.transactionId} ${payout.amount}`).sort());
    expect(byTransaction(fromJournal)).toEqual(byTransaction(fromLedger));
    // A B2B payout is named by Daraja's ConversationID in both (the journal's from our accepted request).
    const b2bNames = (books: typeof fromLedger) => books.payouts.filter((payout) => payout.kind === 'b2b').map((payout) => `${payout.transactionId} ${payout.conversationId}`).sort();
    expect(b2bNames(fromLedger).length).toBeGreaterThan(0);
    expect(b2bNames(fromJournal)).toEqual(b2bNames(fromLedger));
  });
});

describe('a kill -9 of the payment service', () => {
  it('loses no result journaled before the API server acknowledged it: it is delivered after the restart', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const dir = path.join(dataDir, 'killed');
    const env = { ...serviceEnv(dir), PAYMENT_PORT: String(port), LOG_LEVEL: 'error' };
    sim.allowCallbacksTo(`http://127.0.0.1:${port}`);
    receiver.setDown(true);
    let service = await startService({ name: 'payment service', entry: 'payment-service/src/index.ts', port, env });
    try {
      const phone = nextPhone();
      const attempt = newAttempt();
      expect((await sendPayout(attempt, { method: 'mpesa', phone }, 3000, service.url)).body.outcome).toBe('accepted');
      // Journaled and refused at least once: on its way, never acknowledged.
      await vi.waitFor(() => expect(readFileSync(path.join(dir, 'payout-outbox', 'outbox.log'), 'utf8')).toContain(attempt), { timeout: 10_000, interval: 20 });
      await vi.waitFor(() => expect(receiver.callsFor(attempt).length).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
      await service.kill();
      expect(receiver.resultsOf(attempt)).toEqual([]);

      receiver.setDown(false);
      service = await startService({ name: 'payment service', entry: 'payment-service/src/index.ts', port, env });
      const result = await resultOf(attempt);
      expect(result).toMatchObject({ resultCode: '0', transactionId: simulated(phone)[0]!.transactionId, amount: 3000, source: 'callback' });
      await vi.waitFor(() => expect(readFileSync(path.join(dir, 'payout-outbox', 'outbox.log'), 'utf8')).toBe(''), { timeout: 10_000, interval: 20 });
      // A repeat of the attempt after the restart is answered from the journal, not sent again.
      expect((await sendPayout(attempt, { method: 'mpesa', phone }, 3000, service.url)).body.outcome).toBe('accepted');
      expect(simulated(phone)).toHaveLength(1);
    } finally {
      receiver.setDown(false);
      await service.kill();
    }
  });
});
