import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { afterEach, describe, expect, it, onTestFailed, vi } from 'vitest';
import { paymentServiceEnv } from '../../simulator/src/payment-service-env.js';
import { readPushJournal } from '../src/push-journal.js';
import { createPostgresDatabase, freePort, root, startGate, startService, type ServiceProcess } from './helpers/processes.js';

/**
 * Faults on the real PostgreSQL with real processes: a 300-buyer paid sale for 200 seats while
 *  A. the API server is SIGKILLed in the middle of the sale (pushes, callbacks and settlements in
 *     flight, some prompts sent and their pushes not yet recorded) and restarted on the same port and database;
 *  B. the payment service is SIGKILLed after pushes were sent and before their callbacks arrive
 *     — some of them never answered to the API server — and restarted.
 *  C. the payment service is SIGKILLed after refunds were sent to M-Pesa and before their results
 *     arrive (a cancelled event: reversals of every payment), and restarted;
 *  D. the payment service is SIGKILLed after the refunds' results arrived and were journaled in its outbox,
 *     before the API server took them, and restarted: each result reaches the API server once.
 * Then the reconciler settles what was left, and the books must balance: M-Pesa's side (the
 * simulator's ledger of prompts and payouts) against the database (payments, orders, tickets, refunds).
 *
 * Always PostgreSQL: TEST_DATABASE_URL, else the local server; an unreachable server fails the test.
 * Figures of a run are printed and quoted in docs/payments.md.
 */

const BUYERS = 300;
const SEATS = 200;
const PRICE = 500;
const JWT_SECRET = 'fault-test-secret-that-is-long-enough-for-hs256';
const INTERNAL_KEY = 'fault-test-internal-key-0123456789';
const CALLBACK_SECRET = 'fault-test-callback-secret-0123';
/** Reserved simulator numbers (docs/payments.md): 5 buyers each, one after another per phone. */
const SPECIAL_PHONES = ['254700000001', '254700000002', '254700000003', '254700000004'];
const PER_SPECIAL_PHONE = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The API server's "send the prompt" calls to the payment service, at the gate between them. */
const STK_PUSH = /\/internal\/stk-push$/;

interface Buyer {
  id: string;
  token: string;
  phone: string;
  quantity: number;
}

interface PushAnswer {
  buyer: Buyer;
  status: number;
  body: Record<string, any>;
}

interface Prompt {
  checkoutRequestId: string;
  phone: string;
  amount: number;
  receipt: string | null;
  status: 'pending' | 'completed';
  resultCode: number | null;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => console.error('cleanup failed', error));
});

/** Throwaway database, data directory, ports and an API server process (`env`: where it reaches the payment service). */
async function startApi(env: Record<string, string>) {
  const database = await createPostgresDatabase('tukio_faults');
  cleanups.push(() => database.drop());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-faults-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const apiPort = await freePort();
  const apiEnv = {
    PORT: String(apiPort),
    DATABASE_URL: database.url,
    DATA_DIR: path.join(dataDir, 'api'),
    JWT_SECRET,
    INTERNAL_API_KEY: INTERNAL_KEY,
    RATE_LIMIT_MAX: '1000000',
    SEED_DEMO: 'false',
    CONFIRM_QUERY_AFTER_SECONDS: '3600',
    STK_RATE_LIMIT_PER_IP: '1000000',
    STK_RATE_LIMIT_PER_USER: '1000000',
    STK_RATE_LIMIT_PER_USER_DAY: '1000000',
    STK_RATE_LIMIT_PER_PHONE: '1000000',
    ...env,
  };
  const processes: { api?: ServiceProcess; pay?: ServiceProcess; sim?: ServiceProcess } = {};
  cleanups.push(async () => {
    await Promise.all([processes.pay?.kill(), processes.sim?.kill(), processes.api?.kill()]);
  });
  onTestFailed(() => {
    for (const service of [processes.api, processes.pay, processes.sim]) {
      if (service) console.error(`--- last output of the ${service.name} ---\n${service.output().split('\n').slice(-40).join('\n')}`);
    }
  });
  const launchApi = async () => {
    processes.api = await startService({ name: 'API server', entry: 'server/src/index.ts', port: apiPort, env: apiEnv });
    return processes.api;
  };
  await launchApi();
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  cleanups.push(() => db.end());
  return { database, dataDir, apiPort, apiEnv, processes, launchApi, db };
}

/** An organiser, 300 verified buyers with signed login tokens and a 200-seat paid event, straight into the database. */
async function seedSale(db: pg.Client) {
  const ids = Array.from({ length: BUYERS + 1 }, (_, i) => (0x30000000 + i).toString(16).padStart(24, '0'));
  const values = ids.map((_, j) => `($${j * 3 + 1}, $${j * 3 + 2}, $${j * 3 + 3}, 'x', now())`).join(',');
  await db.query(
    `INSERT INTO users (id, username, email, password_hash, email_verified_at) VALUES ${values}`,
    ids.flatMap((id, j) => [id, `faultbuyer${j}`, `faultbuyer${j}@faults.test`]),
  );
  const [organiser, ...buyerIds] = ids;
  const eventId = 'f'.repeat(24);
  await db.query(
    `INSERT INTO events (id, title, description, starts_at, location, status, is_paid, ticket_price, capacity, user_id)
     VALUES ($1, 'Fault Concert', 'faults', now() + interval '30 days', 'Nairobi', 'approved', true, $2, $3, $4)`,
    [eventId, PRICE, SEATS, organiser],
  );
  const specialCount = SPECIAL_PHONES.length * PER_SPECIAL_PHONE;
  const buyers: Buyer[] = buyerIds.map((id, i) => ({
    id,
    token: jwt.sign({ tv: 0 }, JWT_SECRET, { subject: id, expiresIn: '1h' }),
    // The last 20 buyers use the reserved numbers (cancel, insufficient funds, unreachable, no callback).
    phone: i >= BUYERS - specialCount ? SPECIAL_PHONES[(i - (BUYERS - specialCount)) % SPECIAL_PHONES.length]! : `25471${String(i).padStart(7, '0')}`,
    quantity: i % 5 === 0 ? 2 : 1,
  }));
  return { eventId, buyers, organiserToken: jwt.sign({ tv: 0 }, JWT_SECRET, { subject: organiser!, expiresIn: '1h' }) };
}

async function post(url: string, token: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, any> };
  } catch {
    return { status: 0, body: {} };
  }
}

/**
 * Every buyer starts a checkout as the client does (POST /pay/stkPush), arrivals spread over
 * `spreadMs`, and tries again 2 s later while the service is unavailable (5xx or no answer),
 * as a person would. Buyers on a reserved number share the phone, so they go one after another
 * and also wait while M-Pesa says a prompt is already pending on the phone (1001). `inFlight`
 * counts the stkPush requests not yet answered; while `paused`, no new one starts.
 */
/**
 * A queued buyer waits as the app does: asking the waiting room for their place until their turn comes (or their
 * place is gone, or the event sold out); then they ask for the push again. An API server down meanwhile is "not yet".
 */
async function turnInLine(apiUrl: string, eventId: string, token: string, deadline: number): Promise<void> {
  await vi
    .waitFor(
      async () => {
        const response = await fetch(`${apiUrl}/api/events/${eventId}/queue`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
        const place = (await response.json()) as { inLine?: boolean; admitted?: boolean; soldOut?: boolean };
        if (!response.ok || (place.inLine && !place.admitted && !place.soldOut)) throw new Error('still waiting in line');
      },
      { timeout: Math.max(1000, deadline - Date.now()), interval: 500 },
    )
    // Past the sale's deadline the buyer asks once more and the answer is recorded as it is.
    .catch(() => undefined);
}

function runSale(apiUrl: string, eventId: string, buyers: Buyer[], spreadMs: number) {
  const answers: PushAnswer[] = [];
  const sale = { answers, inFlight: 0, unavailable: 0, paused: false, done: Promise.resolve() as Promise<unknown> };
  const push = async (buyer: Buyer) => {
    while (sale.paused) await sleep(20);
    sale.inFlight += 1;
    try {
      const answer = await post(`${apiUrl}/pay/stkPush`, buyer.token, { phone: buyer.phone, amount: 1, Order_ID: `${eventId}_${buyer.phone}`, quantity: buyer.quantity });
      if (answer.status === 0 || answer.status >= 500) sale.unavailable += 1;
      return answer;
    } finally {
      sale.inFlight -= 1;
    }
  };
  const normal = buyers.filter((buyer) => !SPECIAL_PHONES.includes(buyer.phone));
  const chains = SPECIAL_PHONES.map((phone) => buyers.filter((buyer) => buyer.phone === phone));
  const deadline = Date.now() + 60_000;
  sale.done = Promise.all([
    ...normal.map(async (buyer, i) => {
      await sleep((i / normal.length) * spreadMs);
      for (;;) {
        const answer = await push(buyer);
        if ((answer.status === 0 || answer.status >= 500) && Date.now() < deadline) {
          await sleep(2000);
          continue;
        }
        // Queued by the waiting room: the buyer's place is kept and the app asks again when told to.
        if (answer.status === 429 && answer.body?.code === 'waiting_room_queued' && Date.now() < deadline) {
          await turnInLine(apiUrl, eventId, buyer.token, deadline);
          continue;
        }
        answers.push({ buyer, ...answer });
        break;
      }
    }),
    ...chains.map(async (chain, c) => {
      await sleep(c * 50);
      for (const buyer of chain) {
        for (;;) {
          const answer = await push(buyer);
          const retry = (answer.status === 409 && answer.body.errorCode === '500.001.1001') || answer.status === 0 || answer.status >= 500;
          if (retry && Date.now() < deadline) {
            await sleep(250);
            continue;
          }
          answers.push({ buyer, ...answer });
          break;
        }
      }
    }),
  ]);
  return sale;
}

/** The standalone simulator's key to its list of every prompt. */
const SIMULATOR_KEY = 'faults-test-simulator-key';

/**
 * Daraja is someone else's server: the simulator runs as its own process (as `npm start` runs it), so killing the
 * payment service does not kill the customers' phones. Returns what the payment service on `payPort` is configured
 * with to use it as Daraja, its certificate written into `dataDir`.
 */
async function startSimulatorProcess(processes: { sim?: ServiceProcess }, dataDir: string, payPort: number, delayMs: number) {
  const simPort = await freePort();
  processes.sim = await startService({
    name: 'Daraja simulator',
    entry: 'simulator/src/index.ts',
    port: simPort,
    env: { SIMULATOR_PORT: String(simPort), SIMULATOR_DELAY_MS: String(delayMs), SIMULATOR_KEY, SIMULATOR_CALLBACK_ORIGINS: `http://127.0.0.1:${payPort}` },
    healthPath: '/simulator/phone.js',
  });
  const certificate = await (await fetch(`${processes.sim.url}/simulator/certificate.pem`)).text();
  return {
    simulatorUrl: processes.sim.url,
    env: { ...paymentServiceEnv(processes.sim.url, certificate, path.join(dataDir, 'daraja-simulator.pem')), DARAJA_CALLBACK_URL: `http://127.0.0.1:${payPort}/api/mpesa/callback` },
  };
}

async function prompts(simulatorUrl: string): Promise<Prompt[]> {
  const response = await fetch(`${simulatorUrl}/simulator/prompts`, { headers: { 'x-simulator-key': SIMULATOR_KEY } });
  return (await response.json()) as Prompt[];
}

async function count(db: pg.Client, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

/** Polls `check` until true (returns true) or `timeoutMs` passes (returns false). */
async function poll(check: () => Promise<boolean>, timeoutMs: number, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, everyMs = 100) {
  if (!(await poll(check, timeoutMs, everyMs))) throw new Error(`timed out waiting for ${what}`);
}

/**
 * Settled = no payment pending in the database, no prompt pending on the simulated phones, and
 * every prompt M-Pesa knows has its payment recorded in a final state.
 */
async function settledNow(db: pg.Client, simulatorUrl: string) {
  const [pendingPayments, ledger] = await Promise.all([count(db, `SELECT count(*)::int AS n FROM payments WHERE status = 'pending'`), prompts(simulatorUrl)]);
  if (pendingPayments > 0 || ledger.some((prompt) => prompt.status !== 'completed')) return false;
  const { rows } = await db.query<{ checkout_request_id: string }>(`SELECT checkout_request_id FROM payments WHERE status <> 'pending'`);
  const final = new Set(rows.map((row) => row.checkout_request_id));
  return ledger.every((prompt) => final.has(prompt.checkoutRequestId));
}

/** The books, checked with SQL and against the simulator's ledger; returns figures for the report. */
async function checkInvariants(db: pg.Client, eventId: string, simulatorUrl: string) {
  const ledger = await prompts(simulatorUrl);
  const { rows: payments } = await db.query<{ checkout_request_id: string; status: string; mpesa_receipt_number: string | null; amount: number; order_id: string; result_code: number | null }>(
    `SELECT checkout_request_id, status, mpesa_receipt_number, amount, order_id, result_code FROM payments WHERE event_id = $1`,
    [eventId],
  );
  const byCheckout = new Map(payments.map((payment) => [payment.checkout_request_id, payment]));

  // No payment stuck pending once the reconciler ran, and no prompt left on a phone.
  expect(payments.filter((payment) => payment.status === 'pending').map((payment) => payment.checkout_request_id)).toEqual([]);
  expect(ledger.filter((prompt) => prompt.status !== 'completed').map((prompt) => prompt.checkoutRequestId)).toEqual([]);

  // M-Pesa's side: every prompt the customer paid is a successful payment here (same amount and,
  // when the callback brought one, the same receipt); every refused prompt is a failed/cancelled one.
  const paidButNotRecorded = ledger.filter((prompt) => prompt.resultCode === 0 && byCheckout.get(prompt.checkoutRequestId)?.status !== 'success');
  expect(paidButNotRecorded.map((prompt) => `${prompt.checkoutRequestId} ${prompt.phone}: ${byCheckout.get(prompt.checkoutRequestId)?.status ?? 'no payment'}`)).toEqual([]);
  for (const prompt of ledger) {
    const payment = byCheckout.get(prompt.checkoutRequestId);
    if (prompt.resultCode === 0) {
      expect(payment!.amount).toBe(prompt.amount);
      if (payment!.mpesa_receipt_number !== null) expect(payment!.mpesa_receipt_number).toBe(prompt.receipt);
    } else {
      expect(payment?.status, `${prompt.checkoutRequestId} answered ${prompt.resultCode}`).toMatch(/^(failed|cancelled)$/);
    }
  }
  // …and nothing succeeded here that M-Pesa did not confirm.
  const ledgerPaid = new Set(ledger.filter((prompt) => prompt.resultCode === 0).map((prompt) => prompt.checkoutRequestId));
  expect(payments.filter((payment) => payment.status === 'success' && !ledgerPaid.has(payment.checkout_request_id))).toEqual([]);

  // Every confirmed payment has exactly its quantity of tickets (its order paid). refund_due is the
  // designed outcome for a payment confirmed after its hold expired with the event full; holds last
  // HOLD_MINUTES (5) here, longer than the test, so none is expected.
  const { rows: confirmedOrders } = await db.query<{ id: string; status: string; quantity: number; tickets: number; successes: number }>(
    `SELECT o.id, o.status, o.quantity,
            (SELECT count(*)::int FROM tickets t WHERE t.order_id = o.id) AS tickets,
            (SELECT count(*)::int FROM payments p WHERE p.order_id = o.id AND p.status = 'success') AS successes
       FROM orders o WHERE o.event_id = $1 AND EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status = 'success')`,
    [eventId],
  );
  expect(confirmedOrders.filter((order) => order.status !== 'paid' || order.tickets !== order.quantity || order.successes !== 1)).toEqual([]);

  // No ticket without a confirmed payment; failed, cancelled, expired and pending orders have none.
  expect(
    await count(
      db,
      `SELECT count(*)::int AS n FROM tickets t
        WHERE t.event_id = $1 AND (t.order_id IS NULL OR NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = t.order_id AND p.status = 'success'))`,
      [eventId],
    ),
  ).toBe(0);
  expect(await count(db, `SELECT count(*)::int AS n FROM tickets t JOIN orders o ON o.id = t.order_id WHERE t.event_id = $1 AND o.status <> 'paid'`, [eventId])).toBe(0);

  // No seat sold twice: tickets within capacity, each code unique, and issued tickets plus
  // live holds never above capacity.
  const tickets = await count(db, `SELECT count(*)::int AS n FROM tickets WHERE event_id = $1`, [eventId]);
  expect(tickets).toBeLessThanOrEqual(SEATS);
  expect(await count(db, `SELECT count(DISTINCT code)::int AS n FROM tickets WHERE event_id = $1`, [eventId])).toBe(tickets);
  const held = await count(db, `SELECT coalesce(sum(quantity), 0)::int AS n FROM orders WHERE event_id = $1 AND status = 'pending' AND hold_expires_at > now()`, [eventId]);
  expect(tickets + held).toBeLessThanOrEqual(SEATS);
  expect(await count(db, `SELECT count(*)::int AS n FROM orders WHERE event_id = $1 AND status = 'refund_due'`, [eventId])).toBe(0);

  const confirmed = payments.filter((payment) => payment.status === 'success');
  return {
    prompts: ledger.length,
    confirmed: confirmed.length,
    confirmedByQuery: confirmed.filter((payment) => payment.mpesa_receipt_number === null).length,
    failed: payments.filter((payment) => payment.status === 'failed' || payment.status === 'cancelled').length,
    tickets,
    heldWithoutPush: held,
  };
}

function summarise(answers: PushAnswer[]) {
  const by = (predicate: (answer: PushAnswer) => boolean) => answers.filter(predicate).length;
  return {
    accepted: by((answer) => answer.status === 200),
    soldOut: by((answer) => answer.status === 409 && /sold out|tickets left/i.test(String(answer.body.msg))),
    gaveUp: by((answer) => answer.status >= 500 || answer.status === 0),
    other: by((answer) => answer.status !== 200 && answer.status !== 409 && answer.status < 500 && answer.status !== 0),
  };
}

/** `npm run audit:payments [-- args]` with the payment service's settings `env`, as an operator runs it. */
const audit = (env: Record<string, string>, ...args: string[]) =>
  new Promise<{ status: number; stdout: string }>((resolve) => {
    const auditEnv = { ...process.env, NODE_ENV: 'production', ...env, LOG_LEVEL: 'error' };
    execFile(process.execPath, ['scripts/audit-payments.mjs', ...args], { cwd: root, env: auditEnv, encoding: 'utf8', timeout: 60_000 }, (error, stdout) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, stdout });
    });
  });

/** The audit finds nothing: M-Pesa's side (`args` says where from; default the payment service's) matches the books. */
async function expectCleanAudit(env: Record<string, string>, ...args: string[]) {
  const result = await audit(env, ...args);
  expect(result.stdout).toMatch(/^0 discrepancies$/m);
  expect(result.status).toBe(0);
  return result;
}

/** "N payments, M refunds checked, 0 discrepancies" from the audit's output, for the figures line. */
const auditSummary = (stdout: string) => {
  const checked = /Checked (\d+) payments, (\d+) refunds/.exec(stdout);
  return `${checked?.[1] ?? '?'} payments and ${checked?.[2] ?? '?'} refunds checked, 0 discrepancies`;
};

const paymentEnv = (apiPort: number, payPort: number, dataDir: string, extra: Record<string, string>) => ({
  PAYMENT_PORT: String(payPort),
  PORT: String(apiPort),
  API_URL: `http://127.0.0.1:${apiPort}`,
  DATA_DIR: path.join(dataDir, 'payments'),
  INTERNAL_API_KEY: INTERNAL_KEY,
  CALLBACK_SECRET,
  // The reconciler every second for pushes pending 3 s (defaults: 15 s and 30 s).
  RECONCILE_INTERVAL_MS: '1000',
  RECONCILE_AFTER_SECONDS: '3',
  SIMULATOR_KEY,
  ...extra,
});

/**
 * The API server (its refunds job every 200 ms, `apiEnv` added), M-Pesa (the simulator, its results posted 3 s after
 * each request) and the payment service (`payEnv` added, given the API server's port); 12 buyers pay (one of them for
 * two seats), then the organiser cancels the event: every payment is to be reversed.
 */
async function cancelledSale(apiEnv: Record<string, string>, payEnv: (apiPort: number) => Promise<Record<string, string>> = async () => ({})) {
  const payPort = await freePort();
  const stack = await startApi({ PAYMENT_PORT: String(payPort), REFUND_POLL_MS: '200', ...apiEnv });
  const { db, processes } = stack;
  const { eventId, buyers, organiserToken } = await seedSale(db);
  const refunded = buyers.slice(0, 12);
  // M-Pesa (the simulator) is its own process and keeps going.
  // Its key, as a Daraja portal gives the M-Pesa certificate: the initiator password is encrypted with it at start.
  const daraja = await startSimulatorProcess(processes, stack.dataDir, payPort, 3000);
  const env = paymentEnv(stack.apiPort, payPort, stack.dataDir, { ...daraja.env, ...(await payEnv(stack.apiPort)) });
  const launchPay = async () => {
    processes.pay = await startService({ name: 'payment service', entry: 'payment-service/src/index.ts', port: payPort, env });
    return processes.pay;
  };
  await launchPay();

  const answers = await Promise.all(
    refunded.map((buyer) => post(`${processes.pay!.url}/api/stkPush`, buyer.token, { phone: buyer.phone, amount: 1, Order_ID: `${eventId}_${buyer.phone}`, quantity: buyer.quantity })),
  );
  expect(answers.map((answer) => answer.status)).toEqual(refunded.map(() => 200));
  await waitFor('12 confirmed payments', async () => (await count(db, `SELECT count(*)::int AS n FROM payments WHERE status = 'success'`)) === refunded.length, 30_000);
  const cancel = await fetch(`${stack.processes.api!.url}/api/events/${eventId}/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${organiserToken}` },
    body: JSON.stringify({ reason: 'The fault test cancels it.' }),
  });
  expect(cancel.status).toBe(200);
  /** M-Pesa's own list of what it paid out (the simulator's). */
  const payouts = async () => (await (await fetch(`${daraja.simulatorUrl}/simulator/payouts`, { headers: { 'x-simulator-key': SIMULATOR_KEY } })).json()) as Array<{ status: string }>;
  return { db, processes, daraja, env, launchPay, refunded, payouts, dataDir: stack.dataDir };
}

describe('SIGKILL during a 300-buyer paid sale on PostgreSQL', () => {
  it('A: the API server killed mid-sale and restarted; the reconciler settles; the books balance', { timeout: 110_000 }, async () => {
    // The API server reaches the payment service through a gate, which can keep the payment service's answers from it.
    const payPort = await freePort();
    const gate = await startGate(`http://127.0.0.1:${payPort}`);
    cleanups.push(() => gate.close());
    const stack = await startApi({ PAYMENT_URL: gate.url });
    const { db, processes } = stack;
    const { eventId, buyers } = await seedSale(db);
    // The simulator and the payment service both stay up here.
    const daraja = await startSimulatorProcess(processes, stack.dataDir, payPort, 1500);
    const env = paymentEnv(stack.apiPort, payPort, stack.dataDir, daraja.env);
    const pay = await startService({ name: 'payment service', entry: 'payment-service/src/index.ts', port: payPort, env });
    processes.pay = pay;

    const sale = runSale(`http://127.0.0.1:${stack.apiPort}`, eventId, buyers, 12_000);
    const started = Date.now();
    // Some payments confirmed, early enough that buyers are still pushing (they arrive over 12 s): waiting for 80 let
    // every buyer push first on a quick host, and then no prompt was left to hold at the gate.
    await waitFor('20 confirmed payments', async () => (await count(db, `SELECT count(*)::int AS n FROM payments WHERE status = 'success'`)) >= 20, 60_000, 50);
    // Checkouts, callbacks and settlements are in flight whenever the API server dies; to be sure some prompts
    // were sent and their pushes not recorded, the payment service's answers wait at the gate until the kill.
    const journal = path.join(stack.dataDir, 'payments', 'unrecorded-pushes');
    gate.holdAnswers(STK_PUSH);
    await waitFor('5 prompts sent and not answered', async () => gate.held(STK_PUSH).length >= 5, 30_000, 20);
    const before = {
      confirmed: await count(db, `SELECT count(*)::int AS n FROM payments WHERE status = 'success'`),
      recorded: await count(db, `SELECT count(*)::int AS n FROM payments`),
      answered: sale.answers.length,
    };
    await processes.api!.kill();
    const killedAt = Date.now();
    const cutOff = gate.held(STK_PUSH).length;
    const journaled = readPushJournal(journal).length;
    gate.dropHeld();
    gate.holdAnswers(undefined);
    await sleep(4000);
    await stack.launchApi();
    const restartedAt = Date.now();
    await sale.done;
    // On a timeout the checks below say what is left unsettled.
    await poll(() => settledNow(db, daraja.simulatorUrl), 45_000, 250);
    const settleSeconds = (Date.now() - restartedAt) / 1000;

    const figures = await checkInvariants(db, eventId, daraja.simulatorUrl);
    // The audit, as an operator runs it: the simulator's ledger (its default with DARAJA_SIMULATOR) against the API server's books.
    const audited = await expectCleanAudit(env);
    const answers = summarise(sale.answers);
    console.log(
      `[faults A] ${BUYERS} buyers, ${SEATS} seats: API SIGKILLed ${((killedAt - started) / 1000).toFixed(1)} s into the sale ` +
        `(${before.confirmed} confirmed, ${before.recorded} pushes recorded, ${cutOff} prompts sent and not answered, ${journaled} pushes in the journal, ${before.answered} buyers answered), down ${((restartedAt - killedAt) / 1000).toFixed(1)} s; ` +
        `stkPush answers ${JSON.stringify(answers)} (${sale.unavailable} 5xx/refused tries, retried); prompts ${figures.prompts}, confirmed ${figures.confirmed} (${figures.confirmedByQuery} by STK query), ` +
        `failed/cancelled ${figures.failed}, tickets ${figures.tickets}, seats still held by orders without a push ${figures.heldWithoutPush}; ` +
        `settled ${settleSeconds.toFixed(1)} s after the restart; audit: ${auditSummary(audited.stdout)}`,
    );
    expect(figures.confirmed).toBeGreaterThanOrEqual(100);
    // Those prompts' pushes reached the books from the payment service's journal alone (every prompt M-Pesa knows is settled above).
    expect(cutOff).toBeGreaterThanOrEqual(5);
  });

  it('B: the payment service killed between push and callback and restarted; the reconciler settles; the books balance', { timeout: 110_000 }, async () => {
    // Callbacks sent while the payment service is down are lost (Daraja does not retry them); the restarted
    // service must query.
    const payPort = await freePort();
    const gate = await startGate(`http://127.0.0.1:${payPort}`);
    cleanups.push(() => gate.close());
    const stack = await startApi({ PAYMENT_URL: gate.url });
    const { db, processes } = stack;
    const { eventId, buyers } = await seedSale(db);
    const DELAY_MS = 6000;
    const daraja = await startSimulatorProcess(processes, stack.dataDir, payPort, DELAY_MS);
    const env = paymentEnv(stack.apiPort, payPort, stack.dataDir, daraja.env);
    const launchPay = async () => {
      processes.pay = await startService({ name: 'payment service', entry: 'payment-service/src/index.ts', port: payPort, env });
      return processes.pay;
    };
    await launchPay();

    const sale = runSale(`http://127.0.0.1:${stack.apiPort}`, eventId, buyers, 3000);
    const started = Date.now();
    await waitFor('60 pushes recorded', async () => (await count(db, `SELECT count(*)::int AS n FROM payments`)) >= 60, 60_000, 20);
    // Prompts Daraja accepts from now on stay unanswered to the API server (their pushes journaled only): the
    // payment service dies with them, and the API server's calls with it.
    gate.holdAnswers(STK_PUSH);
    await waitFor('5 prompts sent and not answered', async () => gate.held(STK_PUSH).length >= 5, 30_000, 5);
    // No new checkout starts. Once every prompt request that reached the payment service has its answer held — none
    // is between Daraja accepting its push and the payment service writing it down, the one window no service can
    // close (docs/payments.md) — the payment service is killed, in that same tick. (Requests queued behind the held
    // ones in the API server's connection pool have not reached it.)
    sale.paused = true;
    await waitFor('every stkPush in flight to have its answer held', async () => gate.forwarding(STK_PUSH).length === 0, 15_000, 1).catch(
      (error: unknown) => {
        throw new Error(`${String(error)}: ${gate.held(STK_PUSH).length} held, ${gate.forwarding(STK_PUSH).length} at the payment service, ${sale.inFlight} stkPush in flight`, { cause: error });
      },
    );
    await processes.pay!.kill();
    sale.paused = false;
    const killedAt = Date.now();
    const cutOff = gate.held(STK_PUSH).length;
    gate.dropHeld();
    gate.holdAnswers(undefined);
    const journaled = readPushJournal(path.join(stack.dataDir, 'payments', 'unrecorded-pushes')).length;
    const before = {
      confirmed: await count(db, `SELECT count(*)::int AS n FROM payments WHERE status = 'success'`),
      recorded: await count(db, `SELECT count(*)::int AS n FROM payments`),
      pendingPrompts: (await prompts(daraja.simulatorUrl)).filter((prompt) => prompt.status === 'pending').length,
    };
    // Down until every customer has answered: all those callbacks are lost.
    await waitFor('the customers to answer', async () => (await prompts(daraja.simulatorUrl)).every((prompt) => prompt.status === 'completed'), 60_000, 250);
    await launchPay();
    const restartedAt = Date.now();
    await sale.done;
    await poll(() => settledNow(db, daraja.simulatorUrl), 45_000, 250);
    const settleSeconds = (Date.now() - restartedAt) / 1000;

    const figures = await checkInvariants(db, eventId, daraja.simulatorUrl);
    // The audit, as an operator runs it, from the simulator's ledger: the journal has no receipt for a payment
    // confirmed by STK query, and this run has some.
    const audited = await expectCleanAudit(env, '--ledger', `${daraja.simulatorUrl}/simulator/ledger?key=${SIMULATOR_KEY}`);
    const answers = summarise(sale.answers);
    console.log(
      `[faults B] ${BUYERS} buyers, ${SEATS} seats: payment service SIGKILLed ${((killedAt - started) / 1000).toFixed(1)} s into the sale ` +
        `(${before.recorded} pushes recorded, ${cutOff} prompts sent and not answered, ${journaled} pushes in the journal, ${before.pendingPrompts} prompts awaiting the customer, ${before.confirmed} confirmed), down ${((restartedAt - killedAt) / 1000).toFixed(1)} s; ` +
        `stkPush answers ${JSON.stringify(answers)} (${sale.unavailable} 5xx/refused tries, retried); prompts ${figures.prompts}, confirmed ${figures.confirmed} (${figures.confirmedByQuery} by STK query), ` +
        `failed/cancelled ${figures.failed}, tickets ${figures.tickets}; settled ${settleSeconds.toFixed(1)} s after the restart; audit: ${auditSummary(audited.stdout)}`,
    );
    expect(journaled).toBeGreaterThanOrEqual(5);
    expect(before.pendingPrompts).toBeGreaterThan(0);
    expect(figures.confirmedByQuery).toBeGreaterThan(0);
  });

  it('C: the payment service killed between refunds sent and their results, restarted; Transaction Status settles them; the audit finds 0 discrepancies', { timeout: 110_000 }, async () => {
    // The API server asks about an attempt without a result 2 s after it was sent.
    const { db, processes, daraja, env, launchPay, refunded, payouts } = await cancelledSale({ REFUND_RESULT_WAIT_MS: '2000' });

    // Every refund sent and accepted by M-Pesa, none answered yet: the payment service dies now.
    await waitFor(
      'every refund sent and accepted',
      async () => (await count(db, `SELECT count(*)::int AS n FROM refund_attempts WHERE status = 'sent' AND conversation_id IS NOT NULL`)) === refunded.length,
      15_000,
      20,
    );
    expect(await count(db, `SELECT count(*)::int AS n FROM refund_attempts WHERE status <> 'sent'`)).toBe(0);
    await processes.pay!.kill();
    // M-Pesa pays and posts its results to nobody (Daraja does not retry them).
    await waitFor('M-Pesa to pay every refund', async () => (await payouts()).filter((payout) => payout.status === 'paid').length === refunded.length, 20_000, 100);
    expect(await count(db, `SELECT count(*)::int AS n FROM refunds WHERE status = 'sent'`)).toBe(refunded.length);

    const restartedAt = Date.now();
    await launchPay();
    await waitFor('every refund settled', async () => (await count(db, `SELECT count(*)::int AS n FROM refunds WHERE status = 'succeeded'`)) === refunded.length, 30_000, 100);
    const settleSeconds = (Date.now() - restartedAt) / 1000;
    const { rows: attempts } = await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM refund_attempts GROUP BY status`);
    expect(attempts).toEqual([{ status: 'succeeded', n: refunded.length }]);

    // The audit, as an operator runs it: the simulator's ledger, then the journal the payment service kept across the kill.
    await expectCleanAudit(env, '--ledger', `${daraja.simulatorUrl}/simulator/ledger?key=${SIMULATOR_KEY}`);
    const fromJournal = await expectCleanAudit(env);
    expect(fromJournal.stdout).toMatch(/Checked 12 payments, 12 refunds and 0 organiser payouts/);
    console.log(`[faults C] ${refunded.length} refunds sent, payment service SIGKILLed before any result, M-Pesa paid them all; settled by Transaction Status ${settleSeconds.toFixed(1)} s after the restart; audit: 0 discrepancies`);
  });

  it("D: the payment service killed after M-Pesa's refund results came in and before the API server took them, restarted; each result reaches it once", { timeout: 110_000 }, async () => {
    // The payment service reaches the API server through a gate that refuses the refund results for now (as if the
    // API server were down); the API server asks about a late result only after an hour: only the outbox settles them.
    const RESULTS = /^\/api\/internal\/refunds\/result/;
    let gate!: Awaited<ReturnType<typeof startGate>>;
    const { db, processes, daraja, env, launchPay, refunded, dataDir } = await cancelledSale({ REFUND_RESULT_WAIT_MS: '3600000' }, async (apiPort) => {
      gate = await startGate(`http://127.0.0.1:${apiPort}`);
      cleanups.push(() => gate.close());
      gate.refuse(RESULTS);
      return { API_URL: gate.url };
    });

    // M-Pesa pays every refund and posts its results: each is journaled in the outbox, and refused by the API server.
    const refusedAttempts = () => new Set(gate.refused(RESULTS).map((request) => (JSON.parse(request.body) as { originatorConversationId: string }).originatorConversationId));
    await waitFor('every refund result in the outbox and refused', async () => refusedAttempts().size === refunded.length, 30_000, 50);
    expect(await count(db, `SELECT count(*)::int AS n FROM refunds WHERE status = 'sent'`)).toBe(refunded.length);
    await processes.pay!.kill();

    // The API server answers again; the payment service restarts and delivers what its outbox kept.
    gate.refuse(undefined);
    const restartedAt = Date.now();
    await launchPay();
    await waitFor('every refund settled', async () => (await count(db, `SELECT count(*)::int AS n FROM refunds WHERE status = 'succeeded'`)) === refunded.length, 30_000, 100);
    const settleSeconds = (Date.now() - restartedAt) / 1000;
    // Once each: one success per attempt, one transition to succeeded and one refund_paid posting per refund.
    const { rows: attempts } = await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM refund_attempts GROUP BY status`);
    expect(attempts).toEqual([{ status: 'succeeded', n: refunded.length }]);
    expect(await count(db, `SELECT count(*)::int AS n FROM refund_transitions WHERE to_status = 'succeeded'`)).toBe(refunded.length);
    expect(await count(db, `SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'refund_paid'`)).toBe(refunded.length);
    // Delivered and acknowledged: the outbox is empty, and nothing is parked.
    await waitFor('the refund outbox emptied', async () => readFileSync(path.join(dataDir, 'payments', 'refund-outbox', 'outbox.log'), 'utf8') === '', 10_000, 50);
    expect(existsSync(path.join(dataDir, 'payments', 'refund-outbox', 'parked.log'))).toBe(false);

    await expectCleanAudit(env, '--ledger', `${daraja.simulatorUrl}/simulator/ledger?key=${SIMULATOR_KEY}`);
    const fromJournal = await expectCleanAudit(env);
    expect(fromJournal.stdout).toMatch(/Checked 12 payments, 12 refunds and 0 organiser payouts/);
    console.log(`[faults D] ${refunded.length} refund results in the outbox, payment service SIGKILLed before the API server took any; delivered once each ${settleSeconds.toFixed(1)} s after the restart; audit: 0 discrepancies`);
  });
});
