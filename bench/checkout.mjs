// bench/checkout.mjs — 1,000 concurrent buyers through the whole paid checkout on PostgreSQL:
// payment service (stkPush) -> API server (order + seat hold) -> Daraja simulator -> callback ->
// settlement (tickets issued) -> buyers polling confirmPayment. Prints confirmed tickets/s, p50/p99
// latencies and the oversold count. Targets: >= 50 confirmed tickets/s, 0 oversold, no 5xx.
// Usage: node bench/checkout.mjs   (needs PostgreSQL on 127.0.0.1:5432)
// Knobs: BUYERS=1000 SEATS=900 SIMULATOR_DELAY_MS=200 POLL_MS=3000 (the client polls every 3 s)
import { readFileSync } from 'node:fs';
import os from 'node:os';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { createDatabase, freePorts, percentile, startApi, startService } from './lib.mjs';

const BUYERS = Number(process.env.BUYERS ?? 1000);
const SEATS = Number(process.env.SEATS ?? 900);
const SIMULATOR_DELAY_MS = Number(process.env.SIMULATOR_DELAY_MS ?? 200);
const POLL_MS = Number(process.env.POLL_MS ?? 3000);
const PRICE = 500;
const secret = 'bench-secret-bench-secret-bench-secret';
const internalKey = 'bench-internal-key-bench-internal-key';

const database = await createDatabase('tukio_bench_checkout');
const [apiPort, payPort] = await freePorts(2);
const dataDir = `/tmp/tukio-bench-checkout-${apiPort}`;
let api;
let pay;
let exitCode = 0;

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

let networkErrors = 0;
async function post(url, token, body) {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => ({})) };
  } catch {
    networkErrors += 1;
    return { status: 0, body: {} };
  }
}

try {
  api = await startApi({
    PORT: String(apiPort),
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    JWT_SECRET: secret,
    INTERNAL_API_KEY: internalKey,
    RATE_LIMIT_MAX: '1000000',
  });
  pay = await startService('payment-service/src/index.ts', {
    PAYMENT_PORT: String(payPort),
    PORT: String(apiPort),
    API_URL: api.url,
    DATA_DIR: dataDir,
    INTERNAL_API_KEY: internalKey,
    SIMULATOR_DELAY_MS: String(SIMULATOR_DELAY_MS),
    RECONCILE_INTERVAL_MS: '5000',
    STK_RATE_LIMIT_PER_IP: '1000000',
    STK_RATE_LIMIT_PER_USER: '1000000',
  }, payPort);

  // Buyers and the event go straight into the database; tokens are signed like the server's.
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const ids = Array.from({ length: BUYERS + 1 }, (_, i) => (0x20000000 + i).toString(16).padStart(24, '0'));
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const values = chunk.map((_, j) => `($${j * 3 + 1}, $${j * 3 + 2}, $${j * 3 + 3}, 'x', now())`).join(',');
    await db.query(
      `INSERT INTO users (id, username, email, password_hash, email_verified_at) VALUES ${values}`,
      chunk.flatMap((id, j) => [id, `buyer${i + j}`, `buyer${i + j}@bench.local`]),
    );
  }
  const [organiser, ...buyers] = ids;
  const eventId = 'e'.repeat(24);
  await db.query(
    `INSERT INTO events (id, title, description, starts_at, location, status, is_paid, ticket_price, capacity, user_id)
     VALUES ($1, 'Bench Concert', 'bench', now() + interval '30 days', 'Nairobi', 'approved', true, $2, $3, $4)`,
    [eventId, PRICE, SEATS, organiser],
  );
  const tokens = buyers.map((id) => jwt.sign({ tv: 0 }, secret, { subject: id, expiresIn: '1h' }));

  console.log(`${BUYERS} buyers, ${SEATS} seats, simulator delay ${SIMULATOR_DELAY_MS} ms, polling every ${POLL_MS} ms; load average before: ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  const pushLatency = [];
  const confirmLatency = [];
  let confirmed = 0;
  let soldOut = 0;
  let serverErrors = 0;
  let otherFailures = 0;
  let lastConfirmedAt = 0;
  const started = performance.now();
  const backendPids = async () => (await db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  const cpuBefore = { api: cpuSeconds(api.pid), pay: cpuSeconds(pay.pid), bench: process.cpuUsage() };
  const pgBefore = new Map((await backendPids()).map((pid) => [pid, cpuSeconds(pid)]));

  await Promise.all(
    tokens.map(async (token, i) => {
      const phone = `25471${String(i).padStart(7, '0')}`;
      const t0 = performance.now();
      const push = await post(`${pay.url}/api/stkPush`, token, { phone, amount: 1, Order_ID: `${eventId}_${phone}`, quantity: 1 });
      pushLatency.push(performance.now() - t0);
      if (push.status >= 500) serverErrors += 1;
      if (push.status === 409) soldOut += 1;
      if (push.status !== 200) {
        if (push.status !== 409 && push.status < 500) otherFailures += 1;
        if (push.status === 0) serverErrors += 1;
        return;
      }
      for (let attempt = 0; attempt < 240; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const res = await post(`${pay.url}/api/confirmPayment`, token, { CheckoutRequestID: push.body.CheckoutRequestID });
        if (res.status >= 500) serverErrors += 1;
        if (res.status !== 200 || res.body.status === 'pending') continue;
        if (res.body.success) {
          confirmed += 1;
          lastConfirmedAt = performance.now();
          confirmLatency.push(lastConfirmedAt - t0);
        } else otherFailures += 1;
        return;
      }
      otherFailures += 1;
    }),
  );

  const seconds = (lastConfirmedAt - started) / 1000;
  const benchCpu = process.cpuUsage(cpuBefore.bench);
  let pgCpu = 0;
  for (const pid of await backendPids()) pgCpu += cpuSeconds(pid) - (pgBefore.get(pid) ?? 0);
  const cpu = { api: cpuSeconds(api.pid) - cpuBefore.api, pay: cpuSeconds(pay.pid) - cpuBefore.pay, pg: pgCpu, bench: (benchCpu.user + benchCpu.system) / 1e6 };
  const { rows } = await db.query('SELECT count(*)::int AS n FROM tickets WHERE event_id = $1', [eventId]);
  await db.end();
  const issued = rows[0].n;
  const oversold = Math.max(0, issued - SEATS);
  pushLatency.sort((a, b) => a - b);
  confirmLatency.sort((a, b) => a - b);
  const rate = confirmed / seconds;
  console.log(`load average after: ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} (API server, payment service, PostgreSQL and these buyers share the machine)`);
  console.log(`confirmed tickets: ${confirmed} in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} tickets/s (target >= 50)`);
  console.log(`tickets in the database: ${issued} of ${SEATS} seats; oversold: ${oversold} (target 0)`);
  console.log(`sold-out refusals: ${soldOut}; 5xx or dropped pushes: ${serverErrors}; other failures: ${otherFailures}; network errors (retried polls included): ${networkErrors}`);
  console.log(`stkPush latency p50 ${percentile(pushLatency, 50).toFixed(0)} ms, p99 ${percentile(pushLatency, 99).toFixed(0)} ms`);
  console.log(
    `push-to-confirmed p50 ${percentile(confirmLatency, 50).toFixed(0)} ms, p99 ${percentile(confirmLatency, 99).toFixed(0)} ms (includes the ${SIMULATOR_DELAY_MS} ms simulated PIN entry and ${POLL_MS} ms polling)`,
  );
  const serverCpu = cpu.api + cpu.pay + cpu.pg;
  const perTicketMs = (serverCpu / Math.max(confirmed, 1)) * 1000;
  console.log(
    `CPU used: API ${cpu.api.toFixed(1)} s, payment service + simulator ${cpu.pay.toFixed(1)} s, PostgreSQL ~${cpu.pg.toFixed(1)} s (backends still open), bench client ${cpu.bench.toFixed(1)} s`,
  );
  console.log(
    `server-side CPU per confirmed ticket: ${perTicketMs.toFixed(1)} ms -> about ${(2000 / perTicketMs).toFixed(0)} tickets/s if the services had the machine's 2 cores to themselves`,
  );
  if (rate < 50 || oversold > 0 || serverErrors > 0 || issued !== confirmed || confirmed !== Math.min(SEATS, BUYERS)) exitCode = 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await pay?.stop();
  await api?.stop();
  await database.drop();
}
process.exit(exitCode);
