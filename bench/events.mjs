// bench/events.mjs — 100,000 events in a throwaway PostgreSQL database; requests/s and p99 of search
// (/api/events?q=…) and the event page (/api/events/:id) next to a bare Express endpoint, same run.
// Targets: search p99 < 50 ms, and at least half the bare endpoint's requests/s.
// Usage: node bench/events.mjs   (needs PostgreSQL on 127.0.0.1:5432; autocannon from the root devDependencies)
// Knobs: EVENTS=100000 DURATION=10 CONNECTIONS=10 ONLY=<scenario name part> KEEP_DB=1 (keep the database and print its URL)
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase, freePort, startApi, startBareExpress } from './lib.mjs';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const SEARCH_P99_TARGET_MS = 50;

const database = await createDatabase('tukio_bench_events');
const port = await freePort();
const dataDir = `/tmp/tukio-bench-events-${port}`;
let api;
let uncached;
let bare;
try {
  // Starting the API once runs the migrations; the catalogue is then seeded with SQL in one pass.
  api = await startApi({ PORT: String(port), DATABASE_URL: database.url, DATA_DIR: dataDir, RATE_LIMIT_MAX: '1000000' });
  const seedStarted = performance.now();
  const eventIds = await seed(database.url, EVENTS);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  console.log(`seeded ${EVENTS} events in ${seedSeconds.toFixed(1)} s (${eventIds.length} approved upcoming ids sampled)`);

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
  const scenarios = [
    { name: 'bare Express GET /bare', url: bare.url, path: () => '/bare' },
    { name: 'search GET /api/events?q=…', url: api.url, path: () => `/api/events?q=${encodeURIComponent(pick(searches))}` },
    { name: 'search, broad (q=nairobi)', url: api.url, path: () => '/api/events?q=nairobi' },
    { name: 'search, cache off', url: uncached.url, path: () => `/api/events?q=${encodeURIComponent(pick(searches))}` },
    { name: 'search broad, cache off', url: uncached.url, path: () => '/api/events?q=nairobi' },
    { name: 'list page GET /api/events?page=3', url: api.url, path: () => '/api/events?page=3' },
    // Steady state: every sampled event was opened once before (warm), as on a site that has been up a while.
    { name: 'event page GET /api/events/:id', url: api.url, path: () => `/api/events/${pick(eventIds)}`, warm: eventIds.map((id) => `/api/events/${id}`) },
    { name: 'event page, cache off', url: uncached.url, path: () => `/api/events/${pick(eventIds)}` },
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
    const result = await run(scenario, DURATION);
    const bareRps = Math.round(bareResult.requests.average);
    rows[scenario.name] = {
      'req/s': Math.round(result.requests.average),
      'p50 (ms)': result.latency.p50,
      'p99 (ms)': result.latency.p99,
      non2xx: scenario.expect404 ? 0 : result.non2xx,
      errors: result.errors + bareResult.errors,
      'bare req/s just before': bareRps,
      'vs bare': `${Math.round((result.requests.average / bareRps) * 100)}%`,
    };
  }

  const lists = await measureContractList(api.url);

  const search = rows['search GET /api/events?q=…'];
  const page = rows['event page GET /api/events/:id'] ?? { 'req/s': NaN };
  const halfOfBare = (row) => row?.['req/s'] >= row?.['bare req/s just before'] / 2;
  console.log(`\nevents bench: ${EVENTS} events, PostgreSQL, ${CONNECTIONS} connections, ${DURATION} s each`);
  console.table(rows);
  console.log('\ncontract list GET /api/events/admin/approved (every approved event, as section-7 clients read it):');
  console.table(lists.rows);
  const checks = {
    'contract list: fresh answer (after a change) < 1 s, gzip': lists.freshMs < 1000,
    'contract list: repeat answered 304': lists.repeatStatus === 304,
    [`search p99 < ${SEARCH_P99_TARGET_MS} ms`]: search?.['p99 (ms)'] < SEARCH_P99_TARGET_MS,
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
  if (process.env.KEEP_DB) console.log(`kept ${database.url}`);
  else await database.drop();
}

/**
 * The whole-list contract answer: built after a change (an approval through the API moves its version),
 * then served again from memory, then a repeat with its ETag. Sizes are what went over the wire.
 */
async function measureContractList(url) {
  const timed = async (headers) => {
    const started = performance.now();
    const response = await fetch(`${url}/api/events/admin/approved`, { headers });
    const bytes = (await response.arrayBuffer()).byteLength;
    return { ms: Math.round(performance.now() - started), status: response.status, etag: response.headers.get('etag'), encoding: response.headers.get('content-encoding'), length: Number(response.headers.get('content-length') ?? bytes) };
  };
  // fetch decompresses; Content-Length says what travelled. Plain first (no compression asked for).
  const plain = await timed({ 'accept-encoding': 'identity' });
  const built = await timed({ 'accept-encoding': 'gzip' });
  const served = await timed({ 'accept-encoding': 'gzip' });
  // As a browser revalidates (fetch would otherwise add Cache-Control: no-cache to a conditional request).
  const repeat = await timed({ 'accept-encoding': 'gzip', 'if-none-match': served.etag ?? '', 'cache-control': 'max-age=0' });
  const rows = {
    'first answer (build + serialize), identity': { ms: plain.ms, status: plain.status, 'bytes on the wire': plain.length },
    'gzip (compressed once)': { ms: built.ms, status: built.status, 'bytes on the wire': built.length },
    'gzip again (from memory)': { ms: served.ms, status: served.status, 'bytes on the wire': served.length },
    'repeat with If-None-Match': { ms: repeat.ms, status: repeat.status, 'bytes on the wire': 0 },
  };
  return { rows, freshMs: plain.ms + built.ms, repeatStatus: repeat.status };
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
 * Seeds one organiser and `count` events with varied titles, places and descriptions: 90% approved,
 * dates from two months ago to ten months ahead, a third of them paid. Returns approved upcoming ids.
 */
async function seed(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`INSERT INTO users (id, username, email, password_hash, email_verified_at)
      VALUES ('0000000000000000000000aa', 'bench-organiser', 'organiser@bench.local', 'x', now())`);
    const arr = (words) => `ARRAY[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]`;
    const genres = arr(['Jazz', 'Rock', 'Tech', 'Food', 'Art', 'Film', 'Comedy', 'Yoga', 'Marathon', 'Startup', 'Gospel', 'Benga', 'Fashion', 'Poetry', 'Chess', 'Cycling', 'Wine', 'Coffee', 'Book', 'Dance']);
    const kinds = arr(['Night', 'Festival', 'Summit', 'Fair', 'Workshop', 'Meetup', 'Tour', 'Party', 'Expo', 'Brunch', 'Retreat', 'Showcase']);
    const places = arr([
      'KICC, Nairobi', 'Uhuru Gardens, Nairobi', 'Kasarani, Nairobi', 'Sarit Centre, Westlands', 'Karura Forest, Nairobi',
      'Fort Jesus, Mombasa', 'Mama Ngina Waterfront, Mombasa', 'Nyali Beach, Mombasa', 'Diani Beach, Kwale', 'Malindi',
      'Dunga Beach, Kisumu', 'Kisumu Impala Sanctuary', 'Lake Nakuru National Park, Nakuru', 'Menengai Crater, Nakuru', 'Afraha Stadium, Nakuru',
      'Kipchoge Keino Stadium, Eldoret', 'Iten', 'Nanyuki', 'Naivasha', 'Thika', 'Machakos', 'Nyeri', 'Meru', 'Kakamega', 'Kisii',
      'Lamu Old Town', 'Watamu', 'Kericho', 'Embu', 'Kitale',
    ]);
    const words = arr(
      ('live music food drinks family friends kids outdoor indoor workshop talks panel networking investors founders artists dancers ' +
        'runners riders chefs farmers coders designers writers readers poets singers bands deejays stalls market crafts beads kikoy ' +
        'kanga nyama choma pilau chapati mandazi chai sunset sunrise lake ocean forest hills savanna safari wildlife birds flamingo ' +
        'rhino giraffe heritage history museum culture swahili maasai luo kikuyu kalenjin luhya coast highlands valley rift ' +
        'charity fundraiser awards gala premiere launch tasting masterclass bootcamp hackathon clinic tournament league derby')
        .split(' '),
    );
    await client.query(
      `INSERT INTO events (id, title, description, starts_at, location, status, is_paid, ticket_price, capacity, user_id, latitude, longitude, opened_count)
       SELECT lpad(to_hex(i), 24, '0'),
              g[1 + abs(hashtext(i || 'g')) % array_length(g, 1)] || ' ' || k[1 + abs(hashtext(i || 'k')) % array_length(k, 1)] || ' ' || split_part(p[1 + abs(hashtext(i || 'p')) % array_length(p, 1)], ',', 1),
              initcap(w[1 + abs(hashtext(i || 'w3')) % array_length(w, 1)]) || ' ' || w[1 + abs(hashtext(i || 'w11')) % array_length(w, 1)] || ' and ' || w[1 + abs(hashtext(i || 'w17')) % array_length(w, 1)]
                || ', with ' || w[1 + abs(hashtext(i || 'w19')) % array_length(w, 1)] || ' ' || w[1 + abs(hashtext(i || 'w23')) % array_length(w, 1)] || ' for everyone. '
                || 'Come early for ' || w[1 + abs(hashtext(i || 'w29')) % array_length(w, 1)] || ' and ' || w[1 + abs(hashtext(i || 'w37')) % array_length(w, 1)] || '.',
              date_trunc('hour', now()) + (abs(hashtext(i || 'd')) % 300 - 60) * interval '1 day' + (i % 12) * interval '1 hour',
              p[1 + abs(hashtext(i || 'p')) % array_length(p, 1)],
              CASE WHEN abs(hashtext(i || 's')) % 10 = 0 THEN 'pending' ELSE 'approved' END,
              i % 3 = 0,
              CASE WHEN i % 3 = 0 THEN 500 + (i % 20) * 100 ELSE 0 END,
              CASE WHEN i % 4 = 0 THEN 100 + i % 900 END,
              '0000000000000000000000aa',
              -1.28 + (i % 100) / 1000.0, 36.8 + (i % 100) / 1000.0,
              i % 500
       FROM generate_series(1, $1::int) AS i,
            (SELECT ${genres} AS g, ${kinds} AS k, ${places} AS p, ${words} AS w) AS v`,
      [count],
    );
    // Steady state, as autovacuum leaves it: visibility map set, GIN pending list merged, statistics fresh.
    await client.query('VACUUM ANALYZE events');
    const { rows } = await client.query(
      `SELECT id FROM events WHERE status = 'approved' AND starts_at >= now() ORDER BY random() LIMIT 2000`,
    );
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}
