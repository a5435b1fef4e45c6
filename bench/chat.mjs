// bench/chat.mjs — 2,000 sockets over two API instances joined by Redis; 20,000 messages between
// users on different instances. Prints delivered, lost and p50/p99 delivery latency.
// Usage: node bench/chat.mjs   (needs PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379)
// CHAT_SYNCHRONOUS_COMMIT=false measures the servers with chat commits not waiting for the WAL flush.
// Knobs: SOCKETS=2000 MESSAGES=20000 RATE=1000 CONNECT_WAVE=500 CONNECT_TIMEOUT_MS=20000 (sockets connect in waves, each
// with a deadline; the bench stops, exit 1, if any fails to connect).
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { createDatabase, freePorts, percentile, root, startApi } from './lib.mjs';

const require = createRequire(`${root}/server/package.json`);
const { io } = require('socket.io-client');

const SOCKETS = Number(process.env.SOCKETS ?? 2000);
const MESSAGES = Number(process.env.MESSAGES ?? 20000);
const RATE = Number(process.env.RATE ?? 1000); // messages per second offered
// Sent first and not measured (JIT, connection pools, Redis subscriptions warm up), but checked for loss too.
const WARMUP = Number(process.env.WARMUP ?? 2 * RATE);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Sockets connecting at once, and how long each may take. */
const CONNECT_WAVE = Number(process.env.CONNECT_WAVE ?? 500);
const CONNECT_TIMEOUT_MS = Number(process.env.CONNECT_TIMEOUT_MS ?? 20_000);
const secret = 'bench-secret-bench-secret-bench-secret';

const database = await createDatabase('tukio_bench_chat');
const ports = await freePorts(2);
const env = (port) => ({ PORT: String(port), DATABASE_URL: database.url, REDIS_URL, JWT_SECRET: secret, DATA_DIR: `/tmp/tukio-bench-chat-${port}`, RATE_LIMIT_MAX: '1000000' });
const one = await startApi(env(ports[0]));
const two = await startApi(env(ports[1]));

const ids = Array.from({ length: SOCKETS }, (_, i) => (0x10000000 + i).toString(16).padStart(24, '0'));
const db = new pg.Client({ connectionString: database.url });
await db.connect();
const hash = '$2b$10$abcdefghijklmnopqrstuuJ5cxKq3WqvV3zRrQ7yq1RkqYq9i8bJ.'; // never used to log in
for (let i = 0; i < SOCKETS; i += 500) {
  const chunk = ids.slice(i, i + 500);
  const values = chunk.map((_, j) => `($${j * 3 + 1}, $${j * 3 + 2}, $${j * 3 + 3}, '${hash}', now())`).join(',');
  await db.query(`INSERT INTO users (id, username, email, password_hash, email_verified_at) VALUES ${values}`, chunk.flatMap((id, j) => [id, `bench${i + j}`, `bench${i + j}@bench.local`]));
}
await db.end();

const half = SOCKETS / 2;
const sockets = [];
const latencies = [];
let delivered = 0;
let warmupDelivered = 0;
let refused = 0;
const bySecond = []; // worst latency of the messages sent in each second
const ackLatencies = []; // send → the server's acknowledgement (stored), measured messages only
// This process (2,000 sockets) is part of every latency: a stalled event loop here delays the reading.
const clientLoop = monitorEventLoopDelay({ resolution: 5 });
/** One user's socket, resolved once connected; refused (connect_error, or no answer within 20 s) otherwise. */
const connect = (id, i) =>
  new Promise((resolve, reject) => {
    const token = jwt.sign({ tv: 0 }, secret, { subject: id, expiresIn: '1h' });
    const socket = io(i < half ? one.url : two.url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: CONNECT_TIMEOUT_MS });
    socket.on('msg-recieve', (text) => {
      const [sentAt, n] = text.split(':').map(Number);
      if (n < 0) {
        warmupDelivered += 1;
        return;
      }
      delivered += 1;
      const ms = performance.now() - sentAt;
      latencies.push(ms);
      const second = Math.floor(n / RATE);
      bySecond[second] = Math.max(bySecond[second] ?? 0, ms);
    });
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
    sockets[i] = socket;
  });
// In waves of CONNECT_WAVE (as users arrive, not all in one instant), each socket with a deadline: a storm that
// cannot be served ends the bench with what connected instead of waiting for ever.
const connectStarted = performance.now();
let connectFailures = 0;
for (let first = 0; first < SOCKETS; first += CONNECT_WAVE) {
  const wave = await Promise.allSettled(ids.slice(first, first + CONNECT_WAVE).map((id, j) => connect(id, first + j)));
  connectFailures += wave.filter((result) => result.status === 'rejected').length;
}
if (connectFailures > 0) {
  console.log(`${connectFailures} of ${SOCKETS} sockets did not connect within ${CONNECT_TIMEOUT_MS} ms (waves of ${CONNECT_WAVE}); stopping`);
  sockets.forEach((socket) => socket?.close());
  await one.stop();
  await two.stop();
  await database.drop();
  process.exit(1);
}
console.log(`connected ${sockets.length} sockets (${half} per instance) in ${((performance.now() - connectStarted) / 1000).toFixed(1)} s`);
// Messages are measured in steady state: the presence batches of the connect storm go out first.
await new Promise((resolve) => setTimeout(resolve, 3000));

/** Sends `count` messages at RATE, numbered from `first` (negative numbers: warm-up). Returns seconds taken. */
async function sendAtRate(first, count) {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const from = ((n % SOCKETS) + SOCKETS) % SOCKETS;
    const to = (from + half) % SOCKETS; // always the other instance
    const sentAt = performance.now();
    sockets[from].emit('send-msg', { from: ids[from], to: ids[to], message: `${sentAt}:${n}` }, (ack) => {
      if (!ack?.ok) refused += 1;
      if (n >= 0) ackLatencies.push(performance.now() - sentAt);
    });
    const due = started + ((i + 1) / RATE) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return (performance.now() - started) / 1000;
}
await sendAtRate(-WARMUP, WARMUP);
clientLoop.enable();
const sendSeconds = await sendAtRate(0, MESSAGES);
clientLoop.disable();
const deadline = Date.now() + 10_000;
while ((delivered < MESSAGES || warmupDelivered < WARMUP) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));

latencies.sort((a, b) => a - b);
ackLatencies.sort((a, b) => a - b);
sockets.forEach((socket) => socket.close());
await one.stop();
await two.stop();
await database.drop();

console.log('\nchat bench: two instances + Redis, PostgreSQL');
console.table({
  sockets: SOCKETS,
  'chat commit': process.env.CHAT_SYNCHRONOUS_COMMIT === 'false' ? 'asynchronous' : 'synchronous (default)',
  'warm-up messages (not timed)': WARMUP,
  'warm-up lost': WARMUP - warmupDelivered,
  messages: MESSAGES,
  'offered rate (msg/s)': RATE,
  'send time (s)': Number(sendSeconds.toFixed(1)),
  delivered,
  lost: MESSAGES - delivered,
  refused,
  'p50 latency (ms)': Number(percentile(latencies, 50).toFixed(1)),
  'p99 latency (ms)': Number(percentile(latencies, 99).toFixed(1)),
  'ack p50 (ms)': Number(percentile(ackLatencies, 50).toFixed(1)),
  'ack p99 (ms)': Number(percentile(ackLatencies, 99).toFixed(1)),
  'bench event-loop delay p99 (ms)': Number((clientLoop.percentile(99) / 1e6).toFixed(1)),
});
console.log(`worst latency per second of sending (ms): ${bySecond.map((ms) => Math.round(ms)).join(' ')}`);
process.exit(MESSAGES - delivered === 0 && WARMUP === warmupDelivered ? 0 : 1);
