// What the checkout and refunds benches share: the API server and the payment service on a throwaway
// PostgreSQL database, talking to the Daraja simulator in a process of its own as it would talk to Safaricom
// (so the figures count our services' CPU, not the simulator's), one organiser's paid event and its buyers seeded with SQL, the
// sale itself (every buyer at once through stkPush, then polling confirmPayment as the client does), and the
// payments audit run as an operator runs it (`npm run audit:payments` with the payment service's settings).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import jwt from 'jsonwebtoken';
import pg from 'pg';
// The simulator's own credentials, given to the payment service as if they were a Daraja app's.
import SIMULATOR_CREDENTIALS from '../simulator/src/credentials.json' with { type: 'json' };
import { createDatabase, freePorts, root, startApi, startService } from './lib.mjs';

// The payment dialog's push of its result (docs/decisions/payments.md, "Payment results by push"), as the browser follows it.
const { io } = createRequire(`${root}/server/package.json`)('socket.io-client');
/** While the push is followed, the dialog's poll is only a fallback (client/src/features/tickets/hooks/use-ticket-payment.ts). */
export const FALLBACK_POLL_MS = 15_000;

// Measuring helpers the benches on this stack import from here too.
export { cpuSeconds, loadAverage } from './lib.mjs';

export const PRICE = 500;
const secret = 'bench-secret-bench-secret-bench-secret';
const internalKey = 'bench-internal-key-bench-internal-key';
const metricsToken = 'bench-metrics-token-bench-metrics-token';
const simulatorKey = 'bench-simulator-key-bench-simulator-key';

/** Sends a JSON request with a bearer token; network errors are counted, answered as status 0. */
export function createClient() {
  const client = {
    networkErrors: 0,
    async request(method, url, token, body) {
      try {
        const response = await fetch(url, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: await response.json().catch(() => ({})) };
      } catch {
        client.networkErrors += 1;
        return { status: 0, body: {} };
      }
    },
    post: (url, token, body) => client.request('POST', url, token, body),
  };
  return client;
}

/**
 * Starts the stack and seeds `buyers` verified buyers and a paid event of `seats` seats. `paymentEnv` adds
 * settings to the payment service's (and so to the audit's), `apiEnv` to the API server's. `seed(db, {secret})`
 * replaces that seeding (what it returns is merged into the stack: `buyers`, each with its `eventId` or the
 * stack's `eventId`). `embedded`: the API server on PGlite in DATA_DIR (as `npm start` runs by default; `stack.db`
 * is then unset during the run, the database being the API server's alone). `DATABASE_URL` set: the stack runs on that database as it is (not dropped afterwards)
 * instead of a fresh one. Call `stop()` in a finally.
 */
export async function startCheckoutStack({ name, buyers: buyerCount, seats, simulatorDelayMs, paymentEnv = {}, apiEnv = {}, seed, typed = false, embedded = false }) {
  const database = process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, drop: async () => {} }
    : embedded
      ? { url: '', drop: async () => rmSync(dataDir, { recursive: true, force: true }) }
      : await createDatabase(name);
  const [apiPort, payPort, darajaPort] = await freePorts(3);
  const dataDir = `/tmp/${name.replaceAll('_', '-')}-${apiPort}`;
  const stack = {
    database,
    api: undefined,
    pay: undefined,
    daraja: undefined,
    db: undefined,
    dataDir,
    // The simulator's ledger, for the audit (`npm run audit:payments -- --ledger <url>`).
    ledgerUrl: `http://127.0.0.1:${darajaPort}/simulator/ledger?key=${simulatorKey}`,
    paymentEnv: {
      PAYMENT_PORT: String(payPort),
      PORT: String(apiPort),
      API_URL: `http://127.0.0.1:${apiPort}`,
      DATA_DIR: dataDir,
      INTERNAL_API_KEY: internalKey,
      METRICS_TOKEN: metricsToken,
      // Real Daraja mode against the simulator's standalone process: its own credentials, its certificate
      // for the B2C SecurityCredential (written below once it runs), callbacks to this payment service.
      DARAJA_SIMULATOR: 'false',
      DARAJA_BASE_URL: `http://127.0.0.1:${darajaPort}`,
      DARAJA_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey,
      DARAJA_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret,
      DARAJA_SHORTCODE: SIMULATOR_CREDENTIALS.shortcode,
      DARAJA_PASSKEY: SIMULATOR_CREDENTIALS.passkey,
      DARAJA_INITIATOR_NAME: SIMULATOR_CREDENTIALS.initiatorName,
      DARAJA_INITIATOR_PASSWORD: SIMULATOR_CREDENTIALS.initiatorPassword,
      DARAJA_B2C_SHORTCODE: SIMULATOR_CREDENTIALS.b2cShortcode,
      DARAJA_CERT_PATH: path.join(dataDir, 'daraja-simulator.pem'),
      DARAJA_CALLBACK_URL: `http://127.0.0.1:${payPort}/api/mpesa/callback`,
      RECONCILE_INTERVAL_MS: '5000',
      ...paymentEnv,
    },
    async stop() {
      await stack.db?.end().catch(() => {});
      await stack.pay?.stop();
      await stack.daraja?.stop();
      await stack.api?.stop();
      await database.drop();
    },
  };
  const seedWith = (db) => (seed ? seed(db, { secret }) : seedSale(db, { buyers: buyerCount, seats, secret, typed }));
  try {
    const apiSettings = {
      PORT: String(apiPort),
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      JWT_SECRET: secret,
      INTERNAL_API_KEY: internalKey,
      METRICS_TOKEN: metricsToken,
      PAYMENT_PORT: String(payPort),
      RATE_LIMIT_MAX: '1000000',
      STK_RATE_LIMIT_PER_IP: '1000000',
      STK_RATE_LIMIT_PER_USER: '1000000',
      STK_RATE_LIMIT_PER_USER_DAY: '1000000',
      STK_RATE_LIMIT_PER_PHONE: '1000000',
      // Every buyer goes straight to the hold, as before the waiting room: these benches measure the checkout's
      // own throughput (the line in front of it is bench/flash-sale.mjs's subject).
      WAITING_ROOM_BURST: '100000',
      ...apiEnv,
    };
    if (database.url === '') {
      // PGlite opens in one process: the API server makes the schema, the bench seeds it, then the API server runs on it.
      await (await startApi(apiSettings)).stop();
      const db = new PGlite({ dataDir: path.join(dataDir, 'pglite'), extensions: { pg_trgm } });
      try {
        Object.assign(stack, await seedWith(db));
      } finally {
        await db.close();
      }
    }
    stack.api = await startApi(apiSettings);
    stack.daraja = await startService(
      'simulator/src/index.ts',
      // Callbacks go to this stack's payment service, on its random port.
      { SIMULATOR_PORT: String(darajaPort), SIMULATOR_KEY: simulatorKey, SIMULATOR_DELAY_MS: String(simulatorDelayMs), SIMULATOR_CALLBACK_ORIGINS: `http://127.0.0.1:${payPort}` },
      darajaPort,
      { healthPath: '/simulator/certificate.pem' },
    );
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(stack.paymentEnv.DARAJA_CERT_PATH, await (await fetch(`${stack.daraja.url}/simulator/certificate.pem`)).text());
    stack.pay = await startService('payment-service/src/index.ts', stack.paymentEnv, payPort);

    if (database.url !== '') {
      const db = new pg.Client({ connectionString: database.url });
      stack.db = db;
      await db.connect();
      Object.assign(stack, await seedWith(db));
    }
    return stack;
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/**
 * Buyers and one paid event go straight into the database (`buyers` verified accounts, an event of `seats`
 * seats at PRICE); tokens are signed as the API server signs them (`secret` is its JWT_SECRET). `typed`: three
 * ticket types and a promo code, `purchase(index)` says what buyer `index` picks.
 */
export async function seedSale(db, { buyers: buyerCount, seats, secret: jwtSecret, typed = false }) {
  const sale = { eventId: 'e'.repeat(24), purchase: undefined };
  const ids = Array.from({ length: buyerCount + 1 }, (_, i) => (0x20000000 + i).toString(16).padStart(24, '0'));
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const values = chunk.map((_, j) => `($${j * 3 + 1}, $${j * 3 + 2}, $${j * 3 + 3}, 'x', now())`).join(',');
    await db.query(
      `INSERT INTO users (id, username, email, password_hash, email_verified_at) VALUES ${values}`,
      chunk.flatMap((id, j) => [id, `buyer${i + j}`, `buyer${i + j}@bench.local`]),
    );
  }
  const [organiser, ...buyerIds] = ids;
  await db.query(
    `INSERT INTO events (id, title, description, starts_at, location, status, is_paid, ticket_price, capacity, user_id)
     VALUES ($1, 'Bench Concert', 'bench', now() + interval '30 days', 'Nairobi', 'approved', true, $2, $3, $4)`,
    [sale.eventId, PRICE, seats, organiser],
  );
  if (typed) {
    // Three ticket types (the default one renamed Regular) and a 10% code: buyers pick a type in turn,
    // every other one with the code, so each purchase prices several rows as a real sale does.
    const typeIds = ['f'.repeat(23) + '1', 'f'.repeat(23) + '2'];
    await db.query(`UPDATE ticket_types SET name = 'Regular' WHERE event_id = $1`, [sale.eventId]);
    await db.query(
      `INSERT INTO ticket_types (id, event_id, name, price, capacity, max_per_order, position)
       VALUES ($1, $3, 'Early Bird', $4, NULL, 4, 1), ($2, $3, 'VIP', $5, $6, 2, 2)`,
      [...typeIds, sale.eventId, PRICE - 100, PRICE * 3, Math.ceil(seats / 3)],
    );
    await db.query(`INSERT INTO promo_codes (id, event_id, code, kind, value, max_uses) VALUES ($1, $2, 'BENCH', 'percent', 10, $3)`, ['d'.repeat(24), sale.eventId, buyerCount]);
    const { rows } = await db.query('SELECT id FROM ticket_types WHERE event_id = $1 ORDER BY position', [sale.eventId]);
    const types = rows.map((row) => row.id);
    sale.purchase = (index) => ({ items: [{ typeId: types[index % types.length], quantity: 1 }], ...(index % 2 === 0 ? { promoCode: 'BENCH' } : {}) });
  }
  const sign = (id) => jwt.sign({ tv: 0 }, jwtSecret, { subject: id, expiresIn: '2h' });
  sale.organiserToken = sign(organiser);
  // 25471…: clear of the simulator's reserved test numbers (2547000000NN cancel, fail or never answer).
  sale.buyers = buyerIds.map((id, i) => ({ id, token: sign(id), phone: `25471${String(i).padStart(7, '0')}` }));
  return sale;
}

/**
 * What the payment dialog does once its push is accepted (client/src/features/tickets/lib/payment-updates.ts and
 * hooks/use-ticket-payment.ts): one Socket.IO connection (websocket only) to the API server's /payments namespace,
 * `payment:follow` with the CheckoutRequestID. `nextPoll(pollMs)` resolves when the dialog would ask confirmPayment
 * next: at once when the server says the result is recorded (or had been, in the follow's acknowledgement); after
 * FALLBACK_POLL_MS while the socket follows; after `pollMs` while it does not (yet). `close()` ends the connection,
 * as the dialog does once the outcome is known.
 */
export function followPayment(apiUrl, checkoutRequestId) {
  const socket = io(`${apiUrl}/payments`, { transports: ['websocket'], reconnection: false, timeout: 10_000 });
  let following = false;
  let woken = false;
  let waiter;
  const wake = () => (waiter ? waiter() : (woken = true));
  socket.on('payment:settled', (message) => message?.checkoutRequestId === checkoutRequestId && wake());
  socket.once('connect', () =>
    socket.timeout(10_000).emit('payment:follow', { checkoutRequestId }, (error, answer) => {
      following = !error && answer?.ok === true;
      if (following && answer.settled) wake();
    }),
  );
  return {
    nextPoll: (pollMs) =>
      new Promise((resolve) => {
        if (woken) {
          woken = false;
          resolve();
          return;
        }
        const done = () => {
          clearTimeout(soon);
          clearTimeout(fallback);
          waiter = undefined;
          resolve();
        };
        const soon = setTimeout(() => following || done(), pollMs);
        const fallback = setTimeout(done, FALLBACK_POLL_MS);
        waiter = done;
      }),
    close: () => socket.close(),
  };
}

/**
 * Every buyer starts a checkout at once (one seat each), then follows its payment as the browser's dialog does:
 * by push (`followPayment`), asking confirmPayment once the result is recorded, with a fallback poll every
 * FALLBACK_POLL_MS; or every `pollMs` while the socket cannot follow (`FOLLOW=poll`: always, the client before the push).
 * Returns the counts, the latencies (ms, unsorted), when the last ticket was confirmed, and the buyers whose
 * payment was confirmed.
 */
export async function runSale(stack, { pollMs, client = createClient(), follow = process.env.FOLLOW ?? (process.env.CHECKOUT_VIA === 'adapter' ? 'poll' : 'push') }) {
  // The browser's path (the API server's /pay), or CHECKOUT_VIA=adapter: the original contract's /api on the payment service.
  const checkout = process.env.CHECKOUT_VIA === 'adapter' ? `${stack.pay.url}/api` : `${stack.api.url}/pay`;
  const sale = { pushLatency: [], confirmLatency: [], confirmed: 0, confirmRequests: 0, soldOut: 0, serverErrors: 0, otherFailures: 0, lastConfirmedAt: 0, paid: [], client };
  sale.startedAt = performance.now();
  await Promise.all(
    stack.buyers.map(async (buyer, index) => {
      const t0 = performance.now();
      const push = await client.post(`${checkout}/stkPush`, buyer.token, {
        phone: buyer.phone,
        amount: 1,
        Order_ID: `${buyer.eventId ?? stack.eventId}_${buyer.phone}`,
        quantity: 1,
        ...stack.purchase?.(index),
      });
      sale.pushLatency.push(performance.now() - t0);
      if (push.status >= 500) sale.serverErrors += 1;
      if (push.status === 409) sale.soldOut += 1;
      if (push.status !== 200) {
        if (push.status !== 409 && push.status < 500) sale.otherFailures += 1;
        if (push.status === 0) sale.serverErrors += 1;
        return;
      }
      const followed = follow === 'push' ? followPayment(stack.api.url, push.body.CheckoutRequestID) : undefined;
      try {
        for (let attempt = 0; attempt < 240; attempt++) {
          await (followed ? followed.nextPoll(pollMs) : new Promise((resolve) => setTimeout(resolve, pollMs)));
          const res = await client.post(`${checkout}/confirmPayment`, buyer.token, { CheckoutRequestID: push.body.CheckoutRequestID });
          sale.confirmRequests += 1;
          if (res.status >= 500) sale.serverErrors += 1;
          if (res.status !== 200 || res.body.status === 'pending') continue;
          if (res.body.success) {
            sale.confirmed += 1;
            sale.lastConfirmedAt = performance.now();
            sale.confirmLatency.push(sale.lastConfirmedAt - t0);
            sale.paid.push(buyer);
          } else sale.otherFailures += 1;
          return;
        }
        sale.otherFailures += 1;
      } finally {
        followed?.close();
      }
    }),
  );
  sale.pushLatency.sort((a, b) => a - b);
  sale.confirmLatency.sort((a, b) => a - b);
  return sale;
}

/**
 * Waits until `count` ticket emails (QR codes rendered, written to the outbox without SMTP) are written after a
 * sale, or `timeoutMs` passed, and answers how many there are: their CPU is part of a sale's cost, not what follows.
 */
export async function waitForTicketEmails(stack, count, timeoutMs = 120_000) {
  const outbox = path.join(stack.dataDir, 'outbox');
  const written = () => {
    try {
      return readdirSync(outbox).length;
    } catch {
      return 0;
    }
  };
  const deadline = performance.now() + timeoutMs;
  while (written() < count && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return written();
}

/**
 * `npm run audit:payments` against the stack (the simulator's ledger against the API server's books),
 * its output printed as it comes. Returns the number of discrepancies it printed (NaN if none was) and its exit code.
 */
export function auditPayments(stack) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'audit:payments', '--', '--ledger', stack.ledgerUrl], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'error', ...stack.paymentEnv },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let printed = 0;
    // Lists of transactions (indented lines, one per payout at a payouts bench's scale) print their first 5 only.
    let listed = 0;
    const printLines = (upTo) => {
      for (const line of output.slice(printed, upTo).split('\n').filter(Boolean)) {
        listed = line.startsWith('  ') ? listed + 1 : 0;
        if (listed <= 5) process.stdout.write(`audit: ${listed === 5 ? '  …' : line}\n`);
      }
      printed = upTo;
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      printLines(output.lastIndexOf('\n') + 1);
    });
    child.on('error', () => resolve({ discrepancies: NaN, code: 127 }));
    child.on('close', (code) => {
      printLines(output.length);
      const match = /^(\d+) discrepancies$/m.exec(output);
      resolve({ discrepancies: match ? Number(match[1]) : NaN, code: code ?? 1 });
    });
  });
}

/**
 * The books: what the simulator says was paid (and paid back) against payments, orders, tickets and refunds.
 * On an overloaded host some prompts are paid but not recorded yet when the buyers stop polling (the payment
 * service journals them and its reconciler records them): the books are audited again until they close or
 * AUDIT_SETTLE_S (default 180) runs out, and the wait is printed with the result.
 */
export async function auditUntilSettled(stack) {
  const settleMs = Number(process.env.AUDIT_SETTLE_S ?? 180) * 1000;
  const auditStarted = performance.now();
  let audit = await auditPayments(stack);
  while (audit.discrepancies > 0 && performance.now() - auditStarted < settleMs) {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    audit = await auditPayments(stack);
  }
  const waited = (performance.now() - auditStarted) / 1000;
  console.log(
    `payments audit: ${Number.isNaN(audit.discrepancies) ? `did not run (exit ${audit.code})` : `${audit.discrepancies} discrepancies`} (target 0)${waited > 15 ? `, after waiting ${waited.toFixed(0)} s for in-flight payments to be recorded` : ''}`,
  );
  return audit;
}

/**
 * One bench run on a fresh stack, ended by the audit: `body(stack, fail)` runs the bench and calls
 * `fail()` for any figure off target; the process exits 1 when anything failed, the audit found a
 * discrepancy or did not run, 0 otherwise. The stack is stopped whatever happens.
 */
export async function runBenchWithAudit(stackOptions, body) {
  let stack;
  let failed = false;
  const fail = () => {
    failed = true;
  };
  try {
    stack = await startCheckoutStack(stackOptions);
    await body(stack, fail);
    const audit = await auditUntilSettled(stack);
    if (audit.discrepancies !== 0 || audit.code !== 0) fail();
  } catch (error) {
    console.error(error);
    fail();
  } finally {
    await stack?.stop();
  }
  process.exit(failed ? 1 : 0);
}

/**
 * Requests one service made to the other, read from their Prometheus counters: the API server's internal routes
 * (`/api/internal/*`, the payment service's calls), the payment service's (`/internal/*`, the API server's calls),
 * and the payment service's `/api/stkPush` and `/api/confirmPayment`, each forwarded to the API server (through
 * the original contract's adapter; in builds before it, forwarded there by the API server's /pay). A sale's count
 * divided by its tickets is the internal requests per ticket.
 */
export async function internalRequests(stack) {
  const count = async (url, routes) => {
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    if (!res.ok) throw new Error(`GET ${url}/metrics answered ${res.status}`);
    let total = 0;
    for (const line of (await res.text()).split('\n')) {
      if (line.startsWith('http_requests_total{') && routes.test(line)) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return total;
  };
  return (await count(stack.api.url, /route="\/api\/internal/)) + (await count(stack.pay.url, /route="(\/internal\/stk-|\/api\/(stkPush|confirmPayment)")/));
}
