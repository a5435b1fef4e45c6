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
// CPU per confirmed ticket, from /proc, in two sums: the services (API + payment instances) and everything else the
// bench started for the sale (HAProxy, its own Redis, the PostgreSQL backends serving the sale's database, the
// simulator). TOPOLOGY=cluster,single (the default) runs the same sale twice back to back, on the cluster and then
// on a single stack (one API + one payment instance talking directly, no HAProxy, no Redis: as `npm start` runs),
// and prints the cluster/single ratio per ticket. Without REDIS_URL the cluster gets a Redis of its own (redis-server
// on a free port) whose CPU and commands (INFO commandstats, printed per ticket) are the sale's alone.
// CPU_PROFILE_DIR=<dir>: every instance writes a .cpuprofile there when it stops (bench/cpu-profile.mjs;
// summarise with `node bench/cpu-profile-summary.mjs <dir>/*.cpuprofile`).
// Usage: npm run build && node --import tsx bench/flash-sale.mjs   (needs PostgreSQL, Redis and Debian's haproxy)
// Knobs: BUYERS=50000 SEATS=10000 ARRIVAL_S=60 ADMIT_PER_S=100 ADAPTIVE=0 SIMULATOR_DELAY_MS=3000 POLL_MS=3000 TIMEOUT_MS=15000 APIS=2 PAYMENTS=2
//        TOPOLOGY=cluster,single REDIS_URL=(own redis-server) CPU_PROFILE_DIR= and, with APIS=1 PAYMENTS=1 TOPOLOGY=cluster,
//        BALANCER=0: one instance of each with Redis and without HAProxy (what Redis alone costs a ticket)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createClient } from 'redis';
import { startCluster } from '../deploy/src/cluster.ts';
import { auditUntilSettled, cpuSeconds, loadAverage, seedSale } from './checkout-stack.mjs';
import { createDatabase, freePort, percentile, root } from './lib.mjs';

const BUYERS = Number(process.env.BUYERS ?? 50_000);
const SEATS = Number(process.env.SEATS ?? 10_000);
const ARRIVAL_S = Number(process.env.ARRIVAL_S ?? 60);
const SIMULATOR_DELAY_MS = Number(process.env.SIMULATOR_DELAY_MS ?? 3000);
const POLL_MS = Number(process.env.POLL_MS ?? 3000);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 15_000);
const ADMIT_PER_S = Number(process.env.ADMIT_PER_S ?? 100);
const FIXED_RATE = process.env.ADAPTIVE !== '1';
const TOPOLOGIES = (process.env.TOPOLOGY ?? 'cluster,single').split(',').filter(Boolean);
const KEY_PREFIX = `tukio-bench-flash-${process.pid}:`;
const CPU_PROFILE_DIR = process.env.CPU_PROFILE_DIR;
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

/** A Redis of the bench's own (its CPU and commands are the sale's alone), or REDIS_URL's. */
async function startRedis() {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, pid: undefined, stop: async () => undefined };
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = createClient({ url });
  probe.on('error', () => undefined);
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      break;
    } catch (error) {
      if (i > 50 || child.exitCode !== null) throw error;
      await sleep(100);
    }
  }
  await probe.quit();
  return { url, pid: child.pid, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))) };
}

/** Calls per command from INFO commandstats. */
async function commandStats(redis) {
  const info = await redis.info('commandstats');
  return Object.fromEntries([...info.matchAll(/cmdstat_(\S+?):calls=(\d+)/g)].map(([, name, calls]) => [name, Number(calls)]));
}

/**
 * The PostgreSQL backends serving the sale's database (the sampler's own connection left out), sampled every second: a
 * backend that ends before the last sample keeps the CPU it had then. A backend born during the sale counts whole.
 */
function postgresCpu(url) {
  // A connection of its own: the sale's queries are not kept waiting behind the samples.
  const db = new pg.Client({ connectionString: url });
  const seen = new Map();
  const sample = async (initial) => {
    const { rows } = await db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    for (const { pid } of rows) {
      const now = cpuSeconds(pid);
      const entry = seen.get(pid) ?? { from: initial ? now : 0, last: now };
      entry.last = Math.max(entry.last, now);
      seen.set(pid, entry);
    }
  };
  let timer;
  return {
    async start() {
      await db.connect();
      await sample(true);
      timer = setInterval(() => void sample(false).catch(() => undefined), 1000);
    },
    async stop() {
      clearInterval(timer);
      await sample(false);
      await db.end();
      return [...seen.values()].reduce((sum, entry) => sum + entry.last - entry.from, 0);
    },
  };
}

async function runSale(topology) {
const single = topology === 'single';
const database = await createDatabase('tukio_bench_flash');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-bench-flash-'));
const redisServer = single ? undefined : await startRedis();
const REDIS_URL = redisServer?.url;
let cluster;
let db;
let result;
if (CPU_PROFILE_DIR) mkdirSync(path.join(CPU_PROFILE_DIR, topology), { recursive: true });
const profiling = CPU_PROFILE_DIR ? { NODE_OPTIONS: `--import ${path.join(root, 'bench/cpu-profile.mjs')}`, CPU_PROFILE_DIR: path.join(CPU_PROFILE_DIR, topology) } : {};
try {
  cluster = await startCluster({
    apis: single ? 1 : Number(process.env.APIS ?? 2),
    payments: single ? 1 : Number(process.env.PAYMENTS ?? 2),
    balancer: !single && process.env.BALANCER !== '0',
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
      ...profiling,
      REDIS_KEY_PREFIX: KEY_PREFIX, WAITING_ROOM_RATE: String(ADMIT_PER_S), WAITING_ROOM_BURST: String(ADMIT_PER_S), WAITING_ROOM_ADAPTIVE: String(!FIXED_RATE) },
    paymentEnv: { RECONCILE_INTERVAL_MS: '5000', ...profiling },
    output: (name, line) => {
      if (/"level":(?:50|60)|ALERT|Error|heap|^exited/.test(line)) console.error(`[${name}] ${line.slice(0, 300)}`);
    },
  });
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const sale = await seedSale(db, { buyers: BUYERS, seats: SEATS, secret: cluster.apiEnv.JWT_SECRET });
  const processes = [...cluster.apis, ...cluster.payments];
  const others = [...cluster.support, ...(redisServer?.pid ? [{ name: 'redis', pid: redisServer.pid }] : [])];
  const redisStats = REDIS_URL ? createClient({ url: REDIS_URL }) : undefined;
  await redisStats?.connect();
  const commandsBefore = redisStats ? await commandStats(redisStats) : {};
  const postgres = postgresCpu(database.url);
  await postgres.start();
  const cpuBefore = processes.map((instance) => cpuSeconds(instance.pid));
  const othersBefore = others.map((instance) => cpuSeconds(instance.pid));
  // A process that dies mid-sale keeps the CPU it had last been seen with (/proc forgets it).
  const lastSeen = new Map([...processes, ...others].map((instance) => [instance.pid, cpuSeconds(instance.pid)]));
  const cpuNow = (pid) => {
    const now = cpuSeconds(pid);
    if (now > 0) lastSeen.set(pid, now);
    return lastSeen.get(pid) ?? 0;
  };
  const cpuWatch = setInterval(() => [...lastSeen.keys()].forEach(cpuNow), 1000);
  console.log(
    `\n${topology}: ${BUYERS} buyers within ${ARRIVAL_S} s for ${SEATS} seats; ${single ? '1 API + 1 payment instance, no balancer, no Redis' : `${cluster.apis.length} API + ${cluster.payments.length} payment instances behind HAProxy, Redis`}; ` +
      `waiting room admits ${FIXED_RATE ? `${ADMIT_PER_S}/s` : `from ${ADMIT_PER_S}/s, following the load`}; PIN after ${SIMULATOR_DELAY_MS} ms, polls every ${POLL_MS} ms, timeout ${TIMEOUT_MS} ms; load average before: ${loadAverage()} on ${os.cpus().length} cores`,
  );

  // Arrival times drawn once; buyer i's rank is its place in the arrival order.
  const arrivals = sale.buyers.map((buyer) => ({ buyer, at: Math.random() * ARRIVAL_S * 1000 })).sort((a, b) => a.at - b.at);
  const counts = { holds: 0, soldOut: 0, serverErrors: 0, timeouts: 0, refused: 0, otherFailures: 0, confirmed: 0, failedPayments: 0, queued: 0, queuePolls: 0, toldSoldOut: 0 };
  const queueWaits = [];
  const otherStatuses = new Map();
  const holdLatency = [];
  const confirmedRanks = [];
  let lastConfirmedAt = 0;
  const started = performance.now();
  // The admission rate the instances agree on (their shared vote in Redis), once a second.
  const rates = [];
  const rateSampler = setInterval(() => {
    void redisStats?.hGet(`${KEY_PREFIX}waiting-room:rate`, 'rate').then((value) => value && rates.push(Number(value)), () => undefined);
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
            // A refused connection: the instance is gone, asking again would loop for ever.
            if (!place.timedOut) return void counts.refused++;
            counts.timeouts += 1;
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
      if (push.status !== 200) {
        const why = `${push.status} ${push.body.code ?? ''}`.trim();
        otherStatuses.set(why, (otherStatuses.get(why) ?? 0) + 1);
        return void counts.otherFailures++;
      }
      counts.holds += 1;
      for (;;) {
        await sleep(POLL_MS);
        const res = await post(`${cluster.url}/pay/confirmPayment`, buyer.token, { CheckoutRequestID: push.body.CheckoutRequestID });
        if (res.status === 0) {
          if (!res.timedOut) return void counts.refused++;
          counts.timeouts += 1;
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
  const seconds = (lastConfirmedAt - started) / 1000;
  const wall = (performance.now() - started) / 1000;
  clearInterval(cpuWatch);
  const cpuOf = processes.map((instance, index) => cpuNow(instance.pid) - cpuBefore[index]);
  const cpu = cpuOf.reduce((a, b) => a + b, 0);
  const otherCpuOf = others.map((instance, index) => cpuNow(instance.pid) - othersBefore[index]);
  const postgresSeconds = await postgres.stop();
  const otherCpu = otherCpuOf.reduce((a, b) => a + b, 0) + postgresSeconds;
  const commandsAfter = redisStats ? await commandStats(redisStats) : {};
  await redisStats?.quit();
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
  const perTicket = (value) => (value / Math.max(counts.confirmed, 1)) * 1000;
  console.log(`confirmed: ${counts.confirmed} in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} tickets/s (goal >= ${GOALS.ticketsPerSecond})`);
  console.log(
    `CPU per ticket: ${perTicket(cpu).toFixed(1)} ms services (${processes.map((instance, index) => `${instance.name} ${perTicket(cpuOf[index]).toFixed(1)}`).join(', ')}); ` +
      `${perTicket(otherCpu).toFixed(1)} ms everything else (${[...others.map((instance, index) => `${instance.name} ${perTicket(otherCpuOf[index]).toFixed(1)}`), `postgres ${perTicket(postgresSeconds).toFixed(1)}`].join(', ')}); ` +
      `over ${wall.toFixed(1)} s`,
  );
  if (redisStats) {
    const deltas = Object.entries(commandsAfter).map(([name, calls]) => [name, calls - (commandsBefore[name] ?? 0)]).filter(([name, calls]) => calls > 0 && name !== 'info').sort((a, b) => b[1] - a[1]);
    const total = deltas.reduce((sum, [, calls]) => sum + calls, 0);
    console.log(`Redis commands per ticket: ${(total / Math.max(counts.confirmed, 1)).toFixed(1)} (${deltas.slice(0, 8).map(([name, calls]) => `${name} ${(calls / Math.max(counts.confirmed, 1)).toFixed(1)}`).join(', ')})`);
  }
  console.log(`fairness: ${(fair * 100).toFixed(1)} % of the tickets went to the first ${SEATS} buyers to arrive`);
  console.log(`5xx: ${counts.serverErrors} (goal 0); timeouts: ${counts.timeouts} (goal 0); refused connections: ${counts.refused}; sold-out answers: ${counts.soldOut}; other refusals: ${counts.otherFailures}${otherStatuses.size ? ` (${[...otherStatuses].map(([why, n]) => `${why}: ${n}`).join(', ')})` : ''}; payments failed: ${counts.failedPayments}`);
  // The audit is not profiled.
  const { NODE_OPTIONS: _profiler, ...auditEnv } = cluster.paymentEnvOf(0);
  const audit = await auditUntilSettled({ paymentEnv: auditEnv, ledgerUrl: `${cluster.darajaUrl}/simulator/ledger?key=${cluster.simulatorKey}` });
  const met = oversold === 0 && counts.serverErrors === 0 && counts.timeouts === 0 && audit.discrepancies === 0 && percentile(holdLatency, 99) < GOALS.holdP99Ms && rate >= GOALS.ticketsPerSecond;
  console.log(met ? 'every goal met' : 'goals not met (above)');
  const held = oversold === 0 && counts.serverErrors === 0 && counts.timeouts === 0 && audit.discrepancies === 0;
  result = { met, held, services: perTicket(cpu), others: perTicket(otherCpu) };
} finally {
  await db?.end().catch(() => undefined);
  await cluster?.stop();
  await redisServer?.stop();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
return result;
}

const results = {};
for (const topology of TOPOLOGIES) {
  if (topology !== 'cluster' && topology !== 'single') throw new Error(`TOPOLOGY: cluster and/or single, not ${topology}`);
  results[topology] = await runSale(topology);
}
if (results.cluster && results.single) {
  console.log(
    `\ncluster / single per ticket: services ${(results.cluster.services / results.single.services).toFixed(2)}× (${results.cluster.services.toFixed(1)} / ${results.single.services.toFixed(1)} ms; goal <= 1.5×), ` +
      `everything else ${(results.cluster.others / results.single.others).toFixed(2)}× (${results.cluster.others.toFixed(1)} / ${results.single.others.toFixed(1)} ms); load average now ${loadAverage()}`,
  );
}
// Exit status: the first topology's goals (the cluster's when it ran); the others must still hold their invariants.
const [first, ...rest] = Object.values(results);
process.exit(first.met && rest.every((other) => other.held) ? 0 : 1);
