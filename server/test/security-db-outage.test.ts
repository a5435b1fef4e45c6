import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from './helpers/log-capture.js';
import { errorBodyProblems, jsonRequest, quiesce, rawRequest } from './helpers/security.js';
import { createMigratedPostgresDatabase } from './helpers/test-database.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The database goes away under a running server (real PostgreSQL: new connections refused with
 * ALLOW_CONNECTIONS false, open ones terminated). The API answers 503 with a clear message, then
 * recovers by itself once the database is back, without a restart.
 */

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const unavailable = 'Tukio is temporarily unavailable. Please try again in a moment.';

let database: Awaited<ReturnType<typeof createMigratedPostgresDatabase>>;
let t: TestServer;
let name: string;

async function admin<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await createMigratedPostgresDatabase();
  name = new URL(database.url).pathname.slice(1);
  t = await startTestServer({}, { databaseUrl: database.url });
}, 120_000);
afterAll(async () => {
  await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
  if (t) await quiesce(t);
  await t?.close();
  await database?.drop();
});

const send = (method: string, route: string, options: { token?: string; body?: unknown } = {}) => rawRequest(t.url, jsonRequest(method, route, options));

describe('database unreachable', () => {
  it('answers 503 with a clear message while PostgreSQL refuses connections, and recovers without a restart', async () => {
    const user = await t.createUser('outage');
    expect((await send('GET', '/api/health')).status).toBe(200);
    expect((await send('GET', '/api/tickets/mine', { token: user.token })).status).toBe(200);

    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    const terminated = await admin<{ pid: number }>(`SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
    expect(terminated.length).toBeGreaterThan(0);

    const calls: Array<[string, string, { token?: string; body?: unknown }]> = [
      ['GET', '/api/health', {}],
      ['GET', '/api/events/getevnt', {}],
      ['GET', '/api/events?q=jazz', {}],
      // Reading the token's user needs the database too.
      ['GET', '/api/tickets/mine', { token: user.token }],
      ['POST', '/api/comments/add', { token: user.token, body: { content: 'hi', eventId: 'ffffffffffffffffffffffff' } }],
      // Account calls answer failures as 2xx {status:false}; an outage is not such a failure.
      ['POST', '/api/auth/login', { body: { username: 'outage', password: 'secret123' } }],
      ['POST', '/api/auth/register', { body: { username: 'latecomer', email: 'latecomer@example.com', password: 'secret123' } }],
    ];
    const logged = captureLogs();
    for (const [method, route, options] of calls) {
      const res = await send(method, route, options);
      const where = `${method} ${route} → ${res.status} ${res.text.slice(0, 200)}`;
      expect(res.status, where).toBe(503);
      expect(res.body, where).toMatchObject({ msg: unavailable, message: unavailable });
      expect(errorBodyProblems(res), where).toEqual([]);
    }

    logged.restore();
    // The outage is logged with the driver's reason, but never the queries' parameters (who logged in, with what).
    const log = logged.text();
    expect(log).toContain('database unavailable on POST /api/auth/login');
    expect(log).toMatch(/"cause":"(55000|57P01|08\d{3})|Connection terminated/);
    expect(log).toContain('params: [not logged]');
    expect(log).not.toContain('latecomer');
    expect(log).not.toMatch(/params: (?!\[not logged\])/);

    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    const deadline = Date.now() + 15_000;
    let health = await send('GET', '/api/health');
    while (health.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      health = await send('GET', '/api/health');
    }
    expect(health.status).toBe(200);
    expect((await send('GET', '/api/tickets/mine', { token: user.token })).status).toBe(200);
    const login = await send('POST', '/api/auth/login', { body: { username: 'outage', password: 'secret123' } });
    expect(login.body.status).toBe(true);
    expect((await send('GET', '/api/events/getevnt')).status).toBe(200);
  }, 120_000);
});
