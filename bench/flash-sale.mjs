// bench/flash-sale.mjs — a sold-out stadium concert: BUYERS arrive within ARRIVAL_S seconds (uniformly at random)
// for SEATS seats, through HAProxy in front of 2 API and 2 payment-service instances (deploy/src/cluster.ts, built
// code), on PostgreSQL and Redis, with the Daraja simulator answering every prompt after SIMULATOR_DELAY_MS. Each
// buyer asks for one seat (stkPush) and, when a prompt was sent, polls confirmPayment every POLL_MS as the client
// does until it is final. Prints each figure beside its goal:
//   oversold (0) · seat-hold latency p50/p99 (stkPush answered; p99 < 250 ms once admitted) · confirmed tickets/s
//   (>= 200) · fairness (the share of tickets that went to the first SEATS buyers to arrive) · 5xx and timeouts (0)
//   · the payments audit (0 discrepancies).
// The waiting room (docs/decisions/waiting-room.md) admits buyers at the rate that follows the load, starting from
// ADMIT_PER_S a second with ADAPTIVE=1 (otherwise fixed at ADMIT_PER_S); the rate it settled at is printed. As our client does, each
// buyer first takes a place (POST /api/events/:id/queue); one not admitted asks GET /api/events/:id/queue when told
// (pollAfterMs) until admitted, then pushes; a push answered 429 waiting_room_queued waits the same way; a buyer told
// the event sold out stops. Seat-hold latency counts the admitted push only.
// Usage: npm run build && node --import tsx bench/flash-sale.mjs   (needs PostgreSQL, Redis and Debian's haproxy)
// Knobs: BUYERS=50000 SEATS=10000 ARRIVAL_S=60 ADMIT_PER_S=100 ADAPTIVE=0 SIMULATOR_DELAY_MS=3000 POLL_MS=3000 TIMEOUT_MS=15000 APIS=2 PAYMENTS=2
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createClient } from 'redis';
import { startCluster } from '../deploy/src/cluster.ts';
import { auditUntilSettled, cpuSeconds, loadAverage, seedSale } from './checkout-stack.mjs';
import { createDatabase, percentile } from './lib.mjs';

const BUYERS = Number(process.env.BUYERS ?? 50_000);
const SEATS = Number(process.env.SEATS ?? 10_000);
const ARRIVAL_S = Number(process.env.ARRIVAL_S ?? 60);
const SIMULATOR_DELAY_MS = Number(process.env.SIMULATOR_DELAY_MS ?? 3000);
const POLL_MS = Number(process.env.POLL_MS ?? 3000);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 15_000);
const ADMIT_PER_S = Number(process.env.ADMIT_PER_S ?? 100);
const FIXED_RATE = process.env.ADAPTIVE !== '1';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY_PREFIX = `tukio-bench-flash-${process.pid}:`;
const GOALS = { holdP99Ms: 250, ticketsPerSecond: 200 };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST (or GET without a body) with the buyer's token; a timeout or a refused connection is status 0, with why. */
async function post(url, token, body) {
  try {
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: response.status, body: await response.json().catch(() => ({})) };
  } catch (error) {
    return { status: 0, timedOut: error?.name === 'TimeoutError', body: {} };
  }
}

const database = await createDatabase('tukio_bench_flash');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-bench-flash-'));
let cluster;
let db;
let exitCode;
try {
  cluster = await startCluster({
    apis: Number(process.env.APIS ?? 2),
    payments: Number(process.env.PAYMENTS ?? 2),
    databaseUrl: database.url,
    redisUrl: REDIS_URL,
    dataDir,
    simulatorDelayMs: SIMULATOR_DELAY_MS,
    env: {
      RATE_LIMIT_MAX: '100000000',
      STK_RATE_LIMIT_PER_IP: '100000000',
      STK_RATE_LIMIT_PER_USER: '100000000',
      STK_RATE_LIMIT_PER_USER_DAY: '100000000',
      STK_RATE_LIMIT_PER_PHONE: '100000000',
      REDIS_KEY_PREFIX: KEY_PREFIX, WAITING_ROOM_RATE: String(ADMIT_PER_S), WAITING_ROOM_BURST: String(ADMIT_PER_S), WAITING_ROOM_ADAPTIVE: String(!FIXED_RATE) },
    paymentEnv: { RECONCILE_INTERVAL_MS: '5000' },
    output: (name, line) => {
      if (/"level":(?:50|60)|ALERT/.test(line)) console.error(`[${name}] ${line.slice(0, 300)}`);
    },
  });
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const sale = await seedSale(db, { buyers: BUYERS, seats: SEATS, secret: cluster.apiEnv.JWT_SECRET });
  const processes = [...cluster.apis, ...cluster.payments];
  const cpuBefore = processes.map((instance) => cpuSeconds(instance.pid));
  console.log(
    `${BUYERS} buyers within ${ARRIVAL_S} s for ${SEATS} seats; ${cluster.apis.length} API + ${cluster.payments.length} payment instances behind HAProxy; ` +
      `waiting room admits ${FIXED_RATE ? `${ADMIT_PER_S}/s` : `from ${ADMIT_PER_S}/s, following the load`}; PIN after ${SIMULATOR_DELAY_MS} ms, polls every ${POLL_MS} ms, timeout ${TIMEOUT_MS} ms; load average before: ${loadAverage()} on ${os.cpus().length} cores`,
  );

  // Arrival times drawn once; buyer i's rank is its place in the arrival order.
  const arrivals = sale.buyers.map((buyer) => ({ buyer, at: Math.random() * ARRIVAL_S * 1000 })).sort((a, b) => a.at - b.at);
  const counts = { holds: 0, soldOut: 0, serverErrors: 0, timeouts: 0, refused: 0, otherFailures: 0, confirmed: 0, failedPayments: 0, queued: 0, queuePolls: 0, toldSoldOut: 0 };
  const queueWaits = [];
  const holdLatency = [];
  const confirmedRanks = [];
  let lastConfirmedAt = 0;
  const started = performance.now();
  // The admission rate the instances agree on (their shared vote in Redis), once a second.
  const redis = createClient({ url: REDIS_URL });
  await redis.connect();
  const rates = [];
  const rateSampler = setInterval(() => {
    void redis.hGet(`${KEY_PREFIX}waiting-room:rate`, 'rate').then((value) => value && rates.push(Number(value)), () => undefined);
  }, 1000);
  await Promise.all(
    arrivals.map(async ({ buyer, at }, rank) => {
      await sleep(at);
      const arrived = performance.now();
      const pushBody = { phone: buyer.phone, amount: 1, Order_ID: `${sale.eventId}_${buyer.phone}`, quantity: 1 };
      const lineUrl = `${cluster.url}/api/events/${sale.eventId}/queue`;
      const joined = await post(lineUrl, buyer.token, {});
      if (joined.status === 0) return void (joined.timedOut ? counts.timeouts++ : counts.refused++);
      if (joined.status >= 500) return void counts.serverErrors++;
      const admitted = joined.status === 200 && joined.body.admitted;
      let t0 = performance.now();
      let push = admitted ? await post(`${cluster.url}/pay/stkPush`, buyer.token, pushBody) : { status: 429, body: { code: 'waiting_room_queued' } };
      if (push.status === 429 && push.body.code === 'waiting_room_queued') {
        // In the line: ask when told until admitted (or sold out), then push.
        counts.queued += 1;
        let wait = joined.body.pollAfterMs ?? 1000;
        for (;;) {
          await sleep(wait);
          const place = await post(lineUrl, buyer.token);
          counts.queuePolls += 1;
          if (place.status === 0) {
            if (place.timedOut) counts.timeouts += 1;
            continue;
          }
          if (place.status >= 500) counts.serverErrors += 1;
          if (place.status !== 200) continue;
          if (place.body.admitted || !place.body.inLine) break;
          if (place.body.soldOut) return void counts.toldSoldOut++;
          wait = place.body.pollAfterMs;
        }
        queueWaits.push(performance.now() - arrived);
        t0 = performance.now();
        push = await post(`${cluster.url}/pay/stkPush`, buyer.token, pushBody);
      }
      holdLatency.push(performance.now() - t0);
      if (push.status === 0) return void (push.timedOut ? counts.timeouts++ : counts.refused++);
      if (push.status >= 500) return void counts.serverErrors++;
      if (push.status === 409) return void counts.soldOut++;
      if (push.status !== 200) return void counts.otherFailures++;
      counts.holds += 1;
      for (;;) {
        await sleep(POLL_MS);
        const res = await post(`${cluster.url}/pay/confirmPayment`, buyer.token, { CheckoutRequestID: push.body.CheckoutRequestID });
        if (res.status === 0) {
          if (res.timedOut) counts.timeouts += 1;
          continue;
        }
        if (res.status >= 500) counts.serverErrors += 1;
        if (res.status !== 200 || res.body.status === 'pending') continue;
        if (res.body.success) {
          counts.confirmed += 1;
          confirmedRanks.push(rank);
          lastConfirmedAt = performance.now();
        } else counts.failedPayments += 1;
        return;
      }
    }),
  );
  clearInterval(rateSampler);
  await redis.quit();
  const seconds = (lastConfirmedAt - started) / 1000;
  const cpu = processes.reduce((sum, instance, index) => sum + cpuSeconds(instance.pid) - cpuBefore[index], 0);
  holdLatency.sort((a, b) => a - b);
  queueWaits.sort((a, b) => a - b);
  const { rows } = await db.query('SELECT count(*)::int AS n FROM tickets WHERE event_id = $1', [sale.eventId]);
  const oversold = Math.max(0, rows[0].n - SEATS);
  // Fairness: of the tickets sold, the share that went to buyers among the first SEATS to arrive.
  const fair = confirmedRanks.filter((rank) => rank < SEATS).length / Math.max(1, confirmedRanks.length);
  const rate = counts.confirmed / Math.max(seconds, 0.001);

  console.log(`load average after: ${loadAverage()}`);
  console.log(`oversold: ${oversold} (goal 0); tickets in the database ${rows[0].n} of ${SEATS}`);
  console.log(`seat holds answered (the admitted push): p50 ${percentile(holdLatency, 50).toFixed(0)} ms, p99 ${percentile(holdLatency, 99).toFixed(0)} ms (goal p99 < ${GOALS.holdP99Ms} ms after admission)`);
  console.log(`waiting room: ${counts.queued} buyers queued, ${counts.queuePolls} place requests; wait in line p50 ${(percentile(queueWaits, 50) / 1000).toFixed(1)} s, p99 ${(percentile(queueWaits, 99) / 1000).toFixed(1)} s; told sold out while waiting: ${counts.toldSoldOut}`);
  if (rates.length) console.log(`admission rate (buyers/s): started ${ADMIT_PER_S}, ranged ${Math.min(...rates).toFixed(1)}–${Math.max(...rates).toFixed(1)}, ended ${rates.at(-1).toFixed(1)}; median ${percentile([...rates].sort((a, b) => a - b), 50).toFixed(1)}`);
  console.log(`confirmed: ${counts.confirmed} in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} tickets/s (goal >= ${GOALS.ticketsPerSecond}); ${(((cpu / Math.max(counts.confirmed, 1)) * 1000) || 0).toFixed(1)} ms of API + payment CPU per ticket`);
  console.log(`fairness: ${(fair * 100).toFixed(1)} % of the tickets went to the first ${SEATS} buyers to arrive`);
  console.log(`5xx: ${counts.serverErrors} (goal 0); timeouts: ${counts.timeouts} (goal 0); refused connections: ${counts.refused}; sold-out answers: ${counts.soldOut}; other refusals: ${counts.otherFailures}; payments failed: ${counts.failedPayments}`);
  const audit = await auditUntilSettled({ paymentEnv: cluster.paymentEnvOf(0), ledgerUrl: `${cluster.darajaUrl}/simulator/ledger?key=${cluster.simulatorKey}` });
  const met = oversold === 0 && counts.serverErrors === 0 && counts.timeouts === 0 && audit.discrepancies === 0 && percentile(holdLatency, 99) < GOALS.holdP99Ms && rate >= GOALS.ticketsPerSecond;
  console.log(met ? 'every goal met' : 'goals not met (above)');
  exitCode = met ? 0 : 1;
} finally {
  await db?.end().catch(() => undefined);
  await cluster?.stop();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
