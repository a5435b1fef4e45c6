// bench/embedded.mjs — the default `npm start` setup under load: the built API server on embedded PGlite with its
// demo data (log level as shipped: one log line per request, read from a pipe), hit with autocannon at 50 and at
// 2,000 connections on the contract's event list, our client's list, an event's JSON and an event's HTML page,
// beside a bare Express hello-world measured in the same run. With --postgres the same server and scenarios run
// again on a fresh PostgreSQL database, and PGlite is compared with it.
// Goals (issues 17 and 19): ≥ 2,000 req/s at 50 connections (PGlite within 2× of PostgreSQL); at 2,000 connections
// every request answered within 5 s: 0 timeouts, 0 errors, 0 non-2xx.
// Usage: npm run build && node bench/embedded.mjs [--postgres]
//   (--postgres needs PostgreSQL on 127.0.0.1:5432, or BENCH_DATABASE_URL; DATABASE_URL=postgres://… uses that
//   database as it is instead of a fresh one, and implies --postgres)
// Knobs: DURATION=10 (s per scenario) CONNECTIONS=50 MANY=2000 (connections of the second round) TIMEOUT=5 (s)
//   ONLY=<scenario name part> ROUNDS=50,2000 (which rounds) LOG_LEVEL=info (the default's) PROFILE=<dir> (the API server runs with
//   --cpu-prof into that directory; open the .cpuprofile in Chrome DevTools or speedscope)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createDatabase, freePort, root, startBareExpress, startService } from './lib.mjs';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const MANY = Number(process.env.MANY ?? 2000);
const TIMEOUT_S = Number(process.env.TIMEOUT ?? 5);
const ROUNDS = (process.env.ROUNDS ?? `${CONNECTIONS},${MANY}`).split(',').map(Number);
const RPS_GOAL = 2000;
const withPostgres = process.argv.includes('--postgres') || Boolean(process.env.DATABASE_URL);

for (const built of ['server/dist/index.js', 'client/dist/index.html', 'client/dist-ssr/prerender.js']) {
  if (!existsSync(path.join(root, built))) throw new Error(`${built} is missing: run \`npm run build\` first (the bench measures the built app, as npm start runs it)`);
}

// Browsers send these; the list and the page are then compressed, as real visitors get them.
const headers = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json, text/html' };

/** The API as `npm start` runs it: built, demo data, default log level; only the per-address limits are lifted. */
async function startEmbeddedApi(name, databaseUrl) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), `tukio-bench-embedded-${name}-`));
  const profile = process.env.PROFILE ? path.resolve(process.env.PROFILE) : undefined;
  const previousFlags = process.env.NODE_FLAGS;
  if (profile) process.env.NODE_FLAGS = `${previousFlags ?? ''} --cpu-prof --cpu-prof-dir=${profile} --cpu-prof-name=api-${name}-${Date.now()}.cpuprofile`;
  try {
    const api = await startService(
      'server/dist/index.js',
      {
        PORT: String(port),
        DATA_DIR: dataDir,
        // Empty = PGlite (the default), whatever the bench's own environment says.
        DATABASE_URL: databaseUrl ?? '',
        SEED_DEMO: 'true',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
        // One bench client is one address: the per-address list limit (600 per 15 min by default) would answer 429.
        RATE_LIMIT_MAX: '1000000',
      },
      port,
      { built: true, discardStdout: true },
    );
    return {
      ...api,
      async stop() {
        await api.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } finally {
    if (profile) process.env.NODE_FLAGS = previousFlags ?? '';
  }
}

/** Approved demo events' ids, read the way a client reads them. */
async function approvedIds(url) {
  const events = await (await fetch(`${url}/api/events/admin/approved`)).json();
  const ids = events.map((event) => event._id);
  if (ids.length === 0) throw new Error('no approved demo events: was the demo data seeded?');
  return ids;
}

function scenariosFor(url, ids) {
  let next = 0;
  const anyId = () => ids[(next++) % ids.length];
  // What our client's events page asks for (features/events/hooks/use-event-search.ts: 12 per page).
  const clientLists = ['/api/events?limit=12', '/api/events?page=2&limit=12', '/api/events?free=true&limit=12', '/api/events?q=nairobi&limit=12'];
  return [
    { name: 'contract list GET /api/events/admin/approved', url, path: () => '/api/events/admin/approved' },
    { name: 'client list GET /api/events?limit=12…', url, path: () => clientLists[(next++) % clientLists.length] },
    { name: 'event JSON GET /api/events/:id', url, path: () => `/api/events/${anyId()}` },
    { name: 'event page GET /events/:id (HTML)', url, path: () => `/events/${anyId()}` },
  ];
}

function run(scenario, connections, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: scenario.url,
        connections,
        duration,
        timeout: TIMEOUT_S,
        headers,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: scenario.path() }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

function row(result, connections, bareRps) {
  const rps = Math.round(result.requests.average);
  const many = connections >= MANY;
  const clean = result.timeouts === 0 && result.errors === 0 && result.non2xx === 0;
  return {
    connections,
    'req/s': rps,
    'p50 (ms)': result.latency.p50,
    'p99 (ms)': result.latency.p99,
    'max (ms)': result.latency.max,
    timeouts: result.timeouts,
    errors: result.errors,
    non2xx: result.non2xx,
    'bare req/s': bareRps ?? '–',
    'vs bare': bareRps ? `${Math.round((rps / bareRps) * 100)}%` : '–',
    goal: many
      ? `all answered < ${TIMEOUT_S} s: ${clean && result.latency.max < TIMEOUT_S * 1000 ? 'met' : 'NOT met'}`
      : `≥ ${RPS_GOAL} req/s: ${rps >= RPS_GOAL && clean ? 'met' : 'NOT met'}`,
  };
}

/** Every scenario at every round against one server; the bare endpoint is measured once per round, first. */
async function measure(label, api, bare) {
  const ids = await approvedIds(api.url);
  const scenarios = scenariosFor(api.url, ids).filter((s) => !process.env.ONLY || s.name.includes(process.env.ONLY));
  const bareScenario = { name: 'bare Express GET /bare', url: bare.url, path: () => '/bare' };
  const rows = {};
  for (const connections of ROUNDS) {
    await run(bareScenario, connections, 2);
    const bareResult = await run(bareScenario, connections, DURATION);
    const bareRps = Math.round(bareResult.requests.average);
    rows[`${bareScenario.name} @${connections}`] = row(bareResult, connections, undefined);
    for (const scenario of scenarios) {
      await run(scenario, Math.min(connections, CONNECTIONS), 2); // warm-up: JIT, caches, compressed bodies
      rows[`${scenario.name} @${connections}`] = row(await run(scenario, connections, DURATION), connections, bareRps);
    }
  }
  console.log(`\n${label}: ${ids.length} approved demo events, ${DURATION} s per scenario, timeout ${TIMEOUT_S} s`);
  console.table(rows);
  return rows;
}

const bare = await startBareExpress(await freePort());
const results = {};
let database;
try {
  const embedded = await startEmbeddedApi('pglite');
  try {
    results.pglite = await measure('PGlite (embedded, the npm start default)', embedded, bare);
  } finally {
    await embedded.stop();
  }
  if (withPostgres) {
    database = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, drop: async () => undefined } : await createDatabase('tukio_bench_embedded');
    const postgres = await startEmbeddedApi('postgres', database.url);
    try {
      results.postgres = await measure('PostgreSQL', postgres, bare);
    } finally {
      await postgres.stop();
    }
  }
} finally {
  await bare.stop();
  await database?.drop();
}

if (results.postgres) {
  const comparison = {};
  for (const [name, embedded] of Object.entries(results.pglite)) {
    const server = results.postgres[name];
    if (!server || name.startsWith('bare')) continue;
    const ratio = server['req/s'] / Math.max(1, embedded['req/s']);
    comparison[name] = { 'PGlite req/s': embedded['req/s'], 'PostgreSQL req/s': server['req/s'], 'PostgreSQL / PGlite': ratio.toFixed(2), 'within 2×': ratio <= 2 ? 'met' : 'NOT met' };
  }
  console.log('\nPGlite beside PostgreSQL (goal: within 2×)');
  console.table(comparison);
}
const failed = Object.values(results).flatMap((rows) => Object.entries(rows).filter(([name, r]) => !name.startsWith('bare') && r.goal.endsWith('NOT met')));
process.exitCode = failed.length > 0 ? 1 : 0;
