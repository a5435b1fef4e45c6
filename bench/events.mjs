// bench/events.mjs — 100,000 events (EVENTS=1000000 for a million) in a throwaway PostgreSQL database;
// requests/s and p99 of search (/api/events?q=…) and the event page (/api/events/:id) next to a bare Express
// endpoint, same run. Targets: search p99 < 50 ms and at least half the bare endpoint's requests/s; with the
// caches off, search (specific, the broad one-word town name, thousands of distinct queries never repeated,
// typos among them) p99 < 50 ms at ≥ 500 req/s.
// Usage: node bench/events.mjs   (needs PostgreSQL on 127.0.0.1:5432; autocannon from the root devDependencies)
// Knobs: EVENTS=100000 DURATION=10 CONNECTIONS=10 ONLY=<scenario name part> KEEP_DB=1 (keep the database and print its URL)
//   REUSE_DB=<url printed by KEEP_DB> (run against that already-seeded database, kept afterwards: no seeding, which takes
//   minutes at a million; migrations added since still run when the API starts)
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase, freePort, startApi, startBareExpress } from './lib.mjs';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const SEARCH_P99_TARGET_MS = 50;
const UNCACHED_SEARCH_RPS_TARGET = 500;
const CONTRACT_LIST_MAX_EVENTS = 200_000;
/** Only clients written against the original contract read the whole list: a few seconds after a change is enough. */
const CONTRACT_LIST_FRESH_MS = 3000;
const BENCH_ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };

const GENRES = ['Jazz', 'Rock', 'Tech', 'Food', 'Art', 'Film', 'Comedy', 'Yoga', 'Marathon', 'Startup', 'Gospel', 'Benga', 'Fashion', 'Poetry', 'Chess', 'Cycling', 'Wine', 'Coffee', 'Book', 'Dance', 'Reggae', 'Salsa', 'Photography', 'Gaming'];
const KINDS = ['Night', 'Festival', 'Summit', 'Fair', 'Workshop', 'Meetup', 'Tour', 'Party', 'Expo', 'Brunch', 'Retreat', 'Showcase', 'Concert', 'Conference', 'Market', 'Walk'];
const NAIROBI_VENUES = ['KICC, Nairobi', 'Uhuru Gardens, Nairobi', 'Kasarani Stadium, Nairobi', 'Karura Forest, Nairobi', 'Carnivore Grounds, Nairobi', 'Sarit Centre, Nairobi', 'Ngong Racecourse, Nairobi'];
const OTHER_VENUES = [
  'Fort Jesus, Mombasa', 'Mama Ngina Waterfront, Mombasa', 'Nyali Beach, Mombasa', 'Diani Beach, Kwale', 'Malindi Marine Park, Malindi',
  'Dunga Beach, Kisumu', 'Impala Sanctuary, Kisumu', 'Lake Nakuru National Park, Nakuru', 'Menengai Crater, Nakuru', 'Afraha Stadium, Nakuru',
  'Kipchoge Keino Stadium, Eldoret', 'Iten Track, Iten', 'Mount Kenya Safari Club, Nanyuki', 'Crescent Island, Naivasha', 'Blue Post Hotel, Thika',
  "Machakos People's Park, Machakos", 'Dedan Kimathi University, Nyeri', 'Kinoru Stadium, Meru', 'Bukhungu Stadium, Kakamega', 'Gusii Stadium, Kisii',
  'Lamu Old Town, Lamu', 'Turtle Bay, Watamu', 'Tea Hotel, Kericho', 'Izaak Walton Inn, Embu', 'Kitale Museum, Kitale',
  "Hell's Gate, Naivasha", 'Bomas of Kenya, Langata', 'Two Rivers Mall, Ruaka', 'Garissa Stadium, Garissa', 'Kakuma Grounds, Turkana',
  'Lodwar Town Hall, Lodwar', 'Voi Wildlife Lodge, Voi', 'Kilifi Creek, Kilifi', 'Ol Pejeta Conservancy, Laikipia', 'Nyahururu Falls, Nyahururu',
];
const TOWNS = [...new Set([...NAIROBI_VENUES, ...OTHER_VENUES].map((venue) => venue.split(', ')[1]))];
const WORDS = (
  'live music food drinks family friends kids outdoor indoor workshop talks panel networking investors founders artists dancers ' +
  'runners riders chefs farmers coders designers writers readers poets singers bands deejays stalls market crafts beads kikoy ' +
  'kanga nyama choma pilau chapati mandazi chai sunset sunrise lake ocean forest hills savanna safari wildlife birds flamingo ' +
  'rhino giraffe heritage history museum culture swahili maasai luo kikuyu kalenjin luhya coast highlands valley rift ' +
  'charity fundraiser awards gala premiere launch tasting masterclass bootcamp hackathon clinic tournament league derby ' +
  'acoustic vinyl karaoke quiz trivia open mic spoken word graffiti pottery weaving baking cocktails picnic camping hiking ' +
  'sailing kayaking fishing birdwatching stargazing meditation wellness fitness boxing rugby football cricket athletics'
).split(' ');

/** A typo of a word: two letters swapped, one dropped or one doubled (deterministic per seed number). */
function typo(word, n) {
  const at = 1 + (n % Math.max(1, word.length - 2));
  switch (n % 3) {
    case 0:
      return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    default:
      return word.slice(0, at) + word[at] + word.slice(at);
  }
}

/**
 * Tens of thousands of different searches, shuffled (the same order every run): town + genre, genre + kind +
 * town, description words + town, word prefixes, and misspelt towns alone or with a genre. Popped one per request.
 */
function distinctQueries() {
  const lower = (list) => list.map((word) => word.toLowerCase());
  const [genres, kinds, towns] = [lower(GENRES), lower(KINDS), lower(TOWNS)];
  const queries = new Set();
  for (const town of towns) {
    for (const genre of genres) {
      queries.add(`${genre} ${town}`);
      for (const kind of kinds) queries.add(`${genre} ${kind} ${town}`);
    }
    for (const word of WORDS) queries.add(`${word} ${town}`);
    for (let n = 0; n < 6; n += 1) {
      const misspelt = typo(town, n);
      queries.add(misspelt);
      for (const genre of genres) queries.add(`${genre} ${misspelt}`);
    }
  }
  for (const word of WORDS) for (const other of WORDS) if (word < other) queries.add(`${word} ${other.slice(0, 4)}`);
  const list = [...queries];
  let state = 42;
  for (let i = list.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

const database = process.env.REUSE_DB ? { url: process.env.REUSE_DB, drop: async () => undefined } : await createDatabase('tukio_bench_events');
const port = await freePort();
const dataDir = `/tmp/tukio-bench-events-${port}`;
let api;
let uncached;
let bare;
try {
  // Starting the API once runs the migrations; the catalogue is then seeded with SQL in one pass.
  api = await startApi({
    PORT: String(port),
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    RATE_LIMIT_MAX: '1000000',
    // Edits an event through the API to time the contract list's answer after a change.
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_EMAIL: 'bench-admin@example.com',
    ADMIN_PASSWORD: BENCH_ADMIN.password,
  });
  const seedStarted = performance.now();
  const eventIds = process.env.REUSE_DB ? await sampleIds(database.url) : await seed(database.url, EVENTS);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  if (process.env.REUSE_DB) console.log(`reused ${database.url} (${eventIds.length} approved upcoming ids sampled)`);
  else console.log(`seeded ${EVENTS} events in ${seedSeconds.toFixed(1)} s (${eventIds.length} approved upcoming ids sampled)`);

  // A second instance on the same database with the caches off measures the queries themselves.
  uncached = await startApi({
    PORT: String(port + 1),
    DATABASE_URL: database.url,
    DATA_DIR: `${dataDir}-uncached`,
    RATE_LIMIT_MAX: '1000000',
    EVENTS_SEARCH_CACHE_MS: '0',
    EVENTS_CACHE_MS: '0',
  });
  bare = await startBareExpress(await freePort());

  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const searches = ['jazz', 'tech summit', 'mara', 'food festival nakuru', 'yoga', 'comedy mombasa', 'startup'];
  const distinct = distinctQueries();
  const nextDistinct = () => {
    const q = distinct.pop();
    if (q === undefined) throw new Error('ran out of distinct queries: raise their number in distinctQueries()');
    return `/api/events?q=${encodeURIComponent(q)}`;
  };
  const scenarios = [
    { name: 'bare Express GET /bare', url: bare.url, path: () => '/bare' },
    { name: 'search GET /api/events?q=…', url: api.url, path: () => `/api/events?q=${encodeURIComponent(pick(searches))}` },
    { name: 'search, broad (q=nairobi)', url: api.url, path: () => '/api/events?q=nairobi' },
    { name: 'search, cache off', url: uncached.url, pid: uncached.pid, path: () => `/api/events?q=${encodeURIComponent(pick(searches))}` },
    { name: 'search broad, cache off', url: uncached.url, pid: uncached.pid, path: () => '/api/events?q=nairobi' },
    // Every request a query never asked before (words, towns, typos): no cache of any kind can answer it.
    { name: 'search distinct queries, cache off', url: uncached.url, pid: uncached.pid, path: nextDistinct },
    { name: 'list page GET /api/events?page=3', url: api.url, path: () => '/api/events?page=3' },
    // Steady state: every sampled event was opened once before (warm), as on a site that has been up a while.
    { name: 'event page GET /api/events/:id', url: api.url, path: () => `/api/events/${pick(eventIds)}`, warm: eventIds.map((id) => `/api/events/${id}`) },
    { name: 'event page, cache off', url: uncached.url, pid: uncached.pid, path: () => `/api/events/${pick(eventIds)}` },
    { name: 'API middleware only (404 route)', url: api.url, path: () => '/api/no-such-route', expect404: true },
  ];

  // The machine's load drifts during a run (2 cores shared with PostgreSQL and autocannon), so every
  // scenario is compared with the bare endpoint measured right before it, not with one early figure.
  const [bareScenario, ...measured] = scenarios;
  const rows = {};
  for (const scenario of measured.filter((s) => !process.env.ONLY || s.name.includes(process.env.ONLY))) {
    if (scenario.warm) await warm(scenario.url, scenario.warm);
    await run(scenario, 2); // warm-up: JIT, pool connections, Postgres caches
    const bareResult = await run(bareScenario, DURATION);
    const cpuBefore = scenario.pid && (await cpuSeconds(scenario.pid, database.url));
    const result = await run(scenario, DURATION);
    const cpuAfter = scenario.pid && (await cpuSeconds(scenario.pid, database.url));
    const bareRps = Math.round(bareResult.requests.average);
    rows[scenario.name] = {
      'req/s': Math.round(result.requests.average),
      'p50 (ms)': result.latency.p50,
      'p99 (ms)': result.latency.p99,
      non2xx: scenario.expect404 ? 0 : result.non2xx,
      errors: result.errors + bareResult.errors,
      'bare req/s just before': bareRps,
      'vs bare': `${Math.round((result.requests.average / bareRps) * 100)}%`,
      // What a request costs, whatever else the host is running: CPU of the API process and its database sessions.
      'CPU ms/req (API + PG)': cpuBefore && cpuAfter ? cpuPerRequest(cpuBefore, cpuAfter, result.requests.total) : '–',
    };
  }

  // The whole list in one body outgrows a JavaScript string past a few hundred thousand events; ONLY picks scenarios.
  const lists = EVENTS <= CONTRACT_LIST_MAX_EVENTS && (!process.env.ONLY || 'contract list'.includes(process.env.ONLY)) ? await measureContractList(api, database.url, eventIds[0]) : undefined;

  const search = rows['search GET /api/events?q=…'];
  const page = rows['event page GET /api/events/:id'] ?? { 'req/s': NaN };
  const halfOfBare = (row) => row?.['req/s'] >= row?.['bare req/s just before'] / 2;
  console.log(`\nevents bench: ${EVENTS} events, PostgreSQL, ${CONNECTIONS} connections, ${DURATION} s each`);
  console.table(rows);
  if (lists) {
    console.log('\ncontract list GET /api/events/admin/approved (every approved event, as section-7 clients read it):');
    console.table(lists.rows);
  }
  const checks = {
    ...(lists && {
      [`contract list: fresh answer (after a change) < ${CONTRACT_LIST_FRESH_MS / 1000} s, gzip`]: lists.freshMs < CONTRACT_LIST_FRESH_MS,
      [`contract list: first answer after start (cold) < ${CONTRACT_LIST_FRESH_MS / 1000} s, gzip`]: lists.coldMs < CONTRACT_LIST_FRESH_MS,
      'contract list: repeat answered 304': lists.repeatStatus === 304,
    }),
    [`search p99 < ${SEARCH_P99_TARGET_MS} ms`]: search?.['p99 (ms)'] < SEARCH_P99_TARGET_MS,
    ...Object.fromEntries(
      ['search, cache off', 'search broad, cache off', 'search distinct queries, cache off']
        .filter((name) => rows[name])
        .map((name) => [
          `${name}: p99 < ${SEARCH_P99_TARGET_MS} ms at ≥ ${UNCACHED_SEARCH_RPS_TARGET} req/s`,
          rows[name]['p99 (ms)'] < SEARCH_P99_TARGET_MS && rows[name]['req/s'] >= UNCACHED_SEARCH_RPS_TARGET,
        ]),
    ),
    'search ≥ 50% of bare req/s': halfOfBare(search),
    'event page ≥ 50% of bare req/s': halfOfBare(page),
    'no errors or non-2xx': Object.values(rows).every((row) => row.non2xx === 0 && row.errors === 0),
  };
  console.table(Object.fromEntries(Object.entries(checks).map(([name, ok]) => [name, ok ? 'met' : 'NOT met'])));
  process.exitCode = checks[`search p99 < ${SEARCH_P99_TARGET_MS} ms`] && checks['no errors or non-2xx'] ? 0 : 1;
} finally {
  await bare?.stop();
  await uncached?.stop();
  await api?.stop();
  if (process.env.KEEP_DB || process.env.REUSE_DB) console.log(`kept ${database.url}`);
  else await database.drop();
}

/**
 * The whole-list contract answer: the first one after the server started (every event read and serialized),
 * again from memory, a repeat with its ETag, then the first answers after one event was edited through the
 * API (every event read and serialized again). Sizes are what went over the wire. While the answer after the
 * edit is built, /api/health is asked one request after another: its slowest answer is how long other
 * requests waited for the API's main thread meanwhile.
 */
async function measureContractList(api, databaseUrl, eventId) {
  const { url } = api;
  // node:http rather than fetch: the body is counted as it travelled, not decompressed (the answer is streamed
  // compressed, without Content-Length).
  const timed = (headers) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const request = http.get(`${url}/api/events/admin/approved`, { headers }, (response) => {
        let length = 0;
        response.on('data', (chunk) => (length += chunk.length));
        response.on('end', () => resolve({ ms: Math.round(performance.now() - started), status: response.statusCode, etag: response.headers.etag, encoding: response.headers['content-encoding'], length }));
      });
      request.on('error', reject);
    });
  const cold = await timed({ 'accept-encoding': 'gzip' });
  const plain = await timed({ 'accept-encoding': 'identity' });
  const served = await timed({ 'accept-encoding': 'gzip' });
  // As a browser revalidates.
  const repeat = await timed({ 'accept-encoding': 'gzip', 'if-none-match': served.etag ?? '', 'cache-control': 'max-age=0' });
  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_ADMIN) });
  const { token } = await login.json();
  const edit = async () => {
    const response = await fetch(`${url}/api/events/${eventId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: `Edited for the bench ${Date.now()}` }),
    });
    if (!response.ok) throw new Error(`editing ${eventId} failed: ${response.status}`);
  };
  // CPU of one answer after a change (API process and its PostgreSQL sessions), whatever else the host runs.
  await edit();
  const cpuBefore = await cpuSeconds(api.pid, databaseUrl);
  const alone = await timed({ 'accept-encoding': 'gzip' });
  const cpuAfter = await cpuSeconds(api.pid, databaseUrl);
  await edit();
  let building = true;
  let healthMaxMs = 0;
  const health = (async () => {
    while (building) {
      const started = performance.now();
      await (await fetch(`${url}/api/health`)).arrayBuffer();
      healthMaxMs = Math.max(healthMaxMs, Math.round(performance.now() - started));
    }
  })();
  const changed = await timed({ 'accept-encoding': 'gzip' });
  building = false;
  await health;
  const changedPlain = await timed({ 'accept-encoding': 'identity' });
  const rows = {
    'first answer after start (read + serialize + compress), gzip': { ms: cold.ms, status: cold.status, 'bytes on the wire': cold.length },
    'same, identity': { ms: plain.ms, status: plain.status, 'bytes on the wire': plain.length },
    'gzip again (JSON from memory, compressed again)': { ms: served.ms, status: served.status, 'bytes on the wire': served.length },
    'repeat with If-None-Match': { ms: repeat.ms, status: repeat.status, 'bytes on the wire': 0 },
    'after one event was edited, gzip': { ms: changed.ms, status: changed.status, 'bytes on the wire': changed.length },
    'meanwhile, slowest GET /api/health': { ms: healthMaxMs, status: 200, 'bytes on the wire': '–' },
    'CPU of an answer after an edit (API + PG)': { ms: cpuBefore && cpuAfter ? cpuPerRequest(cpuBefore, cpuAfter, 1) : '–', status: alone.status, 'bytes on the wire': alone.length },
    'after the edit, identity': { ms: changedPlain.ms, status: changedPlain.status, 'bytes on the wire': changedPlain.length },
  };
  if (changed.etag === served.etag) throw new Error('the list did not change after the edit');
  return { rows, coldMs: cold.ms, freshMs: changed.ms, repeatStatus: repeat.status };
}

/**
 * CPU seconds (user + system, from /proc: Linux, PostgreSQL on this host) used so far by the API process and by each
 * PostgreSQL session on the bench database. Undefined where that cannot be read.
 */
async function cpuSeconds(apiPid, url) {
  const read = async (pid) => {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields ? (Number(fields[11]) + Number(fields[12])) / 100 : undefined;
  };
  if (!['127.0.0.1', 'localhost'].includes(new URL(url).hostname)) return undefined;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    const api = await read(apiPid);
    const sessions = new Map();
    for (const { pid } of rows) {
      const seconds = await read(pid);
      if (seconds !== undefined) sessions.set(pid, seconds);
    }
    return api === undefined ? undefined : { api, sessions };
  } finally {
    await client.end();
  }
}

/** Milliseconds of CPU per request between two cpuSeconds readings; a session opened meanwhile counts from zero. */
function cpuPerRequest(before, after, requests) {
  let seconds = after.api - before.api;
  for (const [pid, used] of after.sessions) seconds += used - (before.sessions.get(pid) ?? 0);
  return Number(((seconds * 1000) / Math.max(1, requests)).toFixed(2));
}

/** Fetches every path once, a few at a time. */
async function warm(url, paths) {
  const queue = [...paths];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let path = queue.pop(); path; path = queue.pop()) await (await fetch(`${url}${path}`)).arrayBuffer();
    }),
  );
}

function run(scenario, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: scenario.url,
        connections: CONNECTIONS,
        duration,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: scenario.path() }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * Seeds one organiser and `count` events in one INSERT … SELECT: a tenth at Nairobi venues, the rest across
 * Kenyan towns; titles of a genre and a kind, a quarter naming the venue, a quarter the town; descriptions of
 * everyday words, one in twenty naming another town; 90% approved, dates from two months ago to ten months
 * ahead, a third of them paid. Each event's default ticket type is written set-based afterwards (the per-row
 * trigger would take minutes at a million). Returns approved upcoming ids.
 */
async function seed(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`INSERT INTO users (id, username, email, password_hash, email_verified_at)
      VALUES ('0000000000000000000000aa', 'bench-organiser', 'organiser@bench.local', 'x', now())`);
    const arr = (words) => `ARRAY[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]`;
    const pick = (list, salt) => `${list}[1 + abs(hashtext(i || '${salt}')) % array_length(${list}, 1)]`;
    await client.query('ALTER TABLE events DISABLE TRIGGER events_default_type');
    await client.query(
      `WITH v AS (SELECT ${arr(GENRES)} AS g, ${arr(KINDS)} AS k, ${arr(NAIROBI_VENUES)} AS nbo, ${arr(OTHER_VENUES)} AS oth, ${arr(WORDS)} AS w),
       e AS (
         SELECT i,
                CASE WHEN abs(hashtext(i || 'p')) % 100 < 10 THEN ${pick('nbo', 'v')} ELSE ${pick('oth', 'v')} END AS place,
                ${pick('g', 'g')} || ' ' || ${pick('k', 'k')} AS gk,
                ${pick('w', 'w1')} AS w1, ${pick('w', 'w2')} AS w2, ${pick('w', 'w3')} AS w3,
                ${pick('w', 'w4')} AS w4, ${pick('w', 'w5')} AS w5, ${pick('w', 'w6')} AS w6, ${pick('oth', 'n')} AS near
         FROM generate_series(1, $1::int) AS i, v
       )
       INSERT INTO events (id, title, description, starts_at, location, status, is_paid, ticket_price, ticket_price_max, capacity, user_id, latitude, longitude, opened_count)
       SELECT lpad(to_hex(i), 24, '0'),
              CASE abs(hashtext(i || 't')) % 4
                WHEN 0 THEN gk || ' at ' || split_part(place, ', ', 1)
                WHEN 1 THEN split_part(place, ', ', 2) || ' ' || gk
                ELSE gk || ' ' || initcap(w1) END,
              initcap(w2) || ' ' || w3 || ' and ' || w4 || ', with ' || w5 || ' for everyone. Come early for ' || w6 || ' and ' || w1 || '.'
                || CASE WHEN abs(hashtext(i || 'd2')) % 20 = 0 THEN ' Buses leave from ' || split_part(near, ', ', 2) || ' at noon.' ELSE '' END,
              date_trunc('hour', now()) + (abs(hashtext(i || 'd')) % 300 - 60) * interval '1 day' + (i % 12) * interval '1 hour',
              place,
              CASE WHEN abs(hashtext(i || 's')) % 10 = 0 THEN 'pending' ELSE 'approved' END,
              i % 3 = 0,
              CASE WHEN i % 3 = 0 THEN 500 + (i % 20) * 100 ELSE 0 END,
              CASE WHEN i % 3 = 0 THEN 500 + (i % 20) * 100 ELSE 0 END,
              CASE WHEN i % 4 = 0 THEN 100 + i % 900 END,
              '0000000000000000000000aa',
              -1.28 + (i % 100) / 1000.0, 36.8 + (i % 100) / 1000.0,
              i % 500
       FROM e`,
      [count],
    );
    await client.query('ALTER TABLE events ENABLE TRIGGER events_default_type');
    // The prices already agree with the one type each event gets, so the price trigger has nothing to do.
    await client.query('ALTER TABLE ticket_types DISABLE TRIGGER ticket_types_event_prices');
    await client.query(`INSERT INTO ticket_types (id, event_id, name, price, position)
      SELECT substr(md5(id || ':default-type'), 1, 24), id, 'General admission', ticket_price, 0 FROM events`);
    await client.query('ALTER TABLE ticket_types ENABLE TRIGGER ticket_types_event_prices');
    // Steady state, as autovacuum leaves it: visibility map set, GIN pending list merged, statistics fresh.
    await client.query('VACUUM ANALYZE events');
    await client.query('VACUUM ANALYZE ticket_types');
    await client.query('VACUUM ANALYZE search_words');
  } finally {
    await client.end();
  }
  return sampleIds(url);
}

/** Approved upcoming events the event page scenarios open. */
async function sampleIds(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT id FROM events WHERE status = 'approved' AND starts_at >= now() ORDER BY random() LIMIT 2000`);
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}
