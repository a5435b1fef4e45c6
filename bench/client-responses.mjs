// bench/client-responses.mjs — how large the answers our own client asks for get when everything has grown: 100,000
// events (all posted by the signed-in organiser, so her profile and the admin dashboard list them all), thousands of
// comments on one event, of forum threads on another and of posts in one thread (its newest post with thousands of
// replies), a long conversation and thousands of chat contacts. Headless Chromium walks the client's pages as that
// organiser and as an admin, records every API answer (its decoded body and the bytes on the wire) and prints the
// largest, beside the goal: none above 100 KB.
// Usage: npm run build -w client && node bench/client-responses.mjs   (PostgreSQL on 127.0.0.1:5432, /usr/bin/chromium)
// Knobs: EVENTS=100000 COMMENTS=5000 THREADS=2000 POSTS=3000 REPLIES=3000 MESSAGES=3000 CONTACTS=2000 GOAL_KB=100
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, freePort, root, startApi } from './lib.mjs';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const COMMENTS = Number(process.env.COMMENTS ?? 5000);
const THREADS = Number(process.env.THREADS ?? 2000);
const POSTS = Number(process.env.POSTS ?? 3000);
/** Replies to the big thread's newest post: the thread page must not carry them all. */
const REPLIES = Number(process.env.REPLIES ?? 3000);
const MESSAGES = Number(process.env.MESSAGES ?? 3000);
const CONTACTS = Number(process.env.CONTACTS ?? 2000);
const GOAL_BYTES = Number(process.env.GOAL_KB ?? 100) * 1024;
const ORGANISER = { username: 'wanjiku', password: 'tukio-demo' };
const ADMIN = { username: 'benchadmin', password: 'bench-admin-password', email: 'admin@bench.local' };

/** 24 hex digits from a number and a two-letter kind, so bulk rows never collide with the demo's ids. */
const hexId = (kind, expression) => `'${kind}' || lpad(to_hex(${expression}), 22, '0')`;

async function seedBulk(client, organiserId) {
  const { rows: demoEvents } = await client.query(
    `SELECT id, starts_at < now() AS past FROM events WHERE status = 'approved' ORDER BY starts_at`,
  );
  const upcoming = demoEvents.find((event) => !event.past)?.id;
  const past = demoEvents.find((event) => event.past)?.id ?? upcoming;
  // Other people: the authors of the comments and posts, and the chat contacts.
  await client.query(
    `INSERT INTO users (id, username, email, password_hash, email_verified_at, avatar_image, is_avatar_image_set)
     SELECT ${hexId('b0', 'i')}, 'benchfan' || i, 'benchfan' || i || '@bench.local', 'x', now(), '', false FROM generate_series(1, $1::int) AS i`,
    [CONTACTS],
  );
  await client.query(
    `INSERT INTO events (id, title, description, starts_at, location, status, is_paid, ticket_price, ticket_price_max, capacity, user_id)
     SELECT ${hexId('e0', 'i')}, 'Bench Night ' || i, 'Music, food and friends at the lake, number ' || i || '.',
            date_trunc('hour', now()) + (i % 300 - 30) * interval '1 day', 'Dunga Beach, Kisumu',
            CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'approved' END, false, 0, 0, NULL, $2
     FROM generate_series(1, $1::int) AS i`,
    [EVENTS, organiserId],
  );
  await client.query(
    `INSERT INTO comments (id, event_id, user_id, content, created_at)
     SELECT ${hexId('c0', 'i')}, $2, ${hexId('b0', '1 + i % $3::int')}, 'Karibu! Comment number ' || i || ' on this event.', now() - i * interval '1 second'
     FROM generate_series(1, $1::int) AS i`,
    [COMMENTS, upcoming, CONTACTS],
  );
  await client.query(
    `INSERT INTO forum_threads (id, event_id, user_id, title, created_at)
     SELECT ${hexId('f0', 'i')}, $2, ${hexId('b0', '1 + i % $3::int')}, 'Thread number ' || i, now() - i * interval '1 second'
     FROM generate_series(1, $1::int) AS i`,
    [THREADS, past, CONTACTS],
  );
  const bigThread = `f0${'1'.padStart(22, '0')}`;
  await client.query(
    `INSERT INTO forum_posts (id, thread_id, user_id, content, created_at)
     SELECT ${hexId('d0', 'i')}, $2, ${hexId('b0', '1 + i % $3::int')}, 'Post number ' || i || ': what a night it was.', now() - i * interval '1 second'
     FROM generate_series(1, $1::int) AS i`,
    [POSTS, bigThread, CONTACTS],
  );
  // Post 1 is the newest, so it is on the thread page's first page.
  await client.query(
    `INSERT INTO forum_posts (id, thread_id, parent_id, user_id, content, created_at)
     SELECT ${hexId('d1', 'i')}, $2, ${hexId('d0', '1')}, ${hexId('b0', '1 + i % $3::int')}, 'Reply number ' || i || ': I was there too!', now() - i * interval '1 millisecond'
     FROM generate_series(1, $1::int) AS i`,
    [REPLIES, bigThread, CONTACTS],
  );
  // One long conversation (with the first fan), and one message from each other fan: many contacts.
  await client.query(
    `INSERT INTO chat_messages (id, sender_id, recipient_id, text, created_at, read_at)
     SELECT ${hexId('a0', 'i')}, CASE WHEN i % 2 = 0 THEN $2 ELSE ${hexId('b0', '1')} END, CASE WHEN i % 2 = 0 THEN ${hexId('b0', '1')} ELSE $2 END,
            'Habari! Message number ' || i, now() - i * interval '1 second', now()
     FROM generate_series(1, $1::int) AS i`,
    [MESSAGES, organiserId],
  );
  await client.query(
    `INSERT INTO chat_messages (id, sender_id, recipient_id, text, created_at)
     SELECT ${hexId('a1', 'i')}, ${hexId('b0', 'i')}, $2, 'Niaje? I am fan ' || i, now() - i * interval '1 minute'
     FROM generate_series(2, $1::int) AS i`,
    [CONTACTS, organiserId],
  );
  await client.query('VACUUM ANALYZE');
  return { upcoming, past, bigThread };
}

const database = await createDatabase('tukio_bench_client');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-bench-client-'));
const port = await freePort();
let api;
let browser;
let exitCode;
try {
  api = await startApi({
    PORT: String(port),
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    CLIENT_DIST: path.join(root, 'client/dist'),
    SEED_DEMO: 'true',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_MAX: '1000000',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_EMAIL: ADMIN.email,
  });
  const login = async ({ username, password }) => {
    const res = await fetch(`${api.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
    const body = await res.json();
    if (!body.token) throw new Error(`login of ${username} failed: ${JSON.stringify(body)}`);
    return body;
  };
  const organiser = await login(ORGANISER);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const started = performance.now();
  const seeded = await seedBulk(client, organiser.user._id).finally(() => client.end());
  console.log(`seeded ${EVENTS} events, ${COMMENTS} comments, ${THREADS} threads, ${POSTS} posts in one (${REPLIES} replies to one of them), ${MESSAGES} messages in one conversation, ${CONTACTS} contacts in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const admin = await login(ADMIN);

  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const answers = [];
  async function walk(session, label, pages) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
    await context.addInitScript(([token, user]) => {
      if (localStorage.getItem('token')) return;
      localStorage.setItem('token', token);
      localStorage.setItem('tukio-user', JSON.stringify({ _id: user._id, username: user.username, isAvatarImageSet: true, avatarImage: user.avatarImage }));
      localStorage.setItem('isAvatarImageSet', 'true');
    }, [session.token, session.user]);
    const page = await context.newPage();
    // Bodies are read as they come and awaited before the context closes (a 50 MB list takes a while).
    const reads = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (!url.pathname.startsWith('/api/') && !url.pathname.startsWith('/pay/')) return;
      const request = `${response.request().method()} ${url.pathname}${url.search}`;
      reads.push(
        (async () => {
          const sizes = await response.request().sizes().catch(() => ({ responseBodySize: Number.NaN }));
          const decoded = await response.body().then((body) => body.length, () => Number.NaN);
          answers.push({ who: label, request, status: response.status(), decoded, wire: sizes.responseBodySize });
        })(),
      );
    });
    for (const [name, target, act] of pages) {
      await page.goto(`${api.url}${target}`);
      await page.waitForLoadState('networkidle');
      if (act) {
        await act(page);
        await page.waitForLoadState('networkidle');
      }
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, `client-responses-${label}-${name.replace(/\W+/g, '-')}.png`) });
      console.log(`  ${label}: ${name} (${target})`);
    }
    await Promise.allSettled(reads);
    await context.close();
  }
  await walk(organiser, ORGANISER.username, [
    ['home', '/'],
    ['events', '/events'],
    ['event with many comments', `/events/${seeded.upcoming}`],
    ['profile', '/profile'],
    ['forum threads', `/forums/${seeded.past}`],
    ['a thread with many posts', `/forum/${seeded.bigThread}`],
    ['chat, a long conversation', '/chat', async (page) => {
      await page.getByText(/^benchfan1$/).first().click({ timeout: 30_000 });
      await page.locator('.page-loader').waitFor({ state: 'detached', timeout: 60_000 });
    }],
  ]);
  await walk(admin, 'admin', [
    ['admin dashboard', '/admin'],
    ['/admpst', '/admpst'],
  ]);

  // An answer whose body could not be read counts by its bytes on the wire.
  const size = (answer) => (Number.isNaN(answer.decoded) ? answer.wire : answer.decoded);
  answers.sort((a, b) => size(b) - size(a));
  console.log(`\n${answers.length} API answers; the largest (decoded body / bytes on the wire):`);
  for (const answer of answers.slice(0, 15)) {
    console.log(`  ${(Number.isNaN(answer.decoded) ? '?' : (answer.decoded / 1024).toFixed(1)).padStart(8)} KB / ${(answer.wire / 1024).toFixed(1).padStart(7)} KB  ${answer.status} ${answer.request}  (${answer.who})`);
  }
  const over = answers.filter((answer) => size(answer) > GOAL_BYTES);
  console.log(`\nanswers above ${GOAL_BYTES / 1024} KB: ${over.length} (goal 0)`);
  exitCode = over.length === 0 ? 0 : 1;
} finally {
  await browser?.close().catch(() => undefined);
  await api?.stop();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
