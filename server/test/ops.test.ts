import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from './helpers/events.js';
import { listenerClosed, sampleValue, slowPost, waitFor } from './helpers/ops.js';
import { createMigratedPostgresDatabase } from './helpers/test-database.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Operations (docs/decisions/operations.md): GET /healthz (the process answers), GET /readyz (it can
 * serve: database, Redis when configured), GET /metrics (Prometheus text behind METRICS_TOKEN), and a
 * shutdown that lets requests in flight finish.
 */

const METRICS_TOKEN = 'test-metrics-token-0123456789';

const scrape = async (t: TestServer, token = METRICS_TOKEN) => {
  const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

describe('probes and metrics', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ METRICS_TOKEN });
  });
  afterAll(async () => {
    await t?.close();
  });

  // A whole server start (database, migrations) runs before the port is tried: a hook's budget, not a test's.
  it('a second server on its port fails its start with EADDRINUSE, a rejection the caller can report, and leaves this one alone', async () => {
    await expect(startTestServer({ PORT: String(t.port) })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect((await t.api('GET', '/healthz')).status).toBe(200);
  }, 60_000);

  it('GET /healthz answers 200 {status:"ok"}, not cached', async () => {
    const res = await t.api('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /readyz answers 200 {status:"ready"} when the database answers', async () => {
    const res = await t.api('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });

  it('GET /metrics refuses a missing or wrong token with 401 and reveals no metric', async () => {
    const missing = await t.api('GET', '/metrics');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ msg: expect.any(String), message: expect.any(String) });
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    for (const token of ['wrong-token-0123456789abcdef', `${METRICS_TOKEN}x`, METRICS_TOKEN.slice(0, -1)]) {
      const wrong = await scrape(t, token);
      expect(wrong.status, token).toBe(401);
      expect(wrong.text).not.toContain('http_requests_total');
    }
  });

  it('GET /metrics with the token counts requests per route pattern (never the raw path) and exposes the process and app gauges', async () => {
    const admin = await t.loginAdmin();
    const eventId = await insertEventRow(t.db, { ownerId: admin.user._id, days: 7, title: 'Metrics night' });
    const before = await scrape(t);
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain/);
    const healthz = { method: 'GET', route: '/healthz', status: '200' };
    const eventRoute = { method: 'GET', route: '/api/events/:id', status: '200' };
    const healthzBefore = sampleValue(before.text, 'http_requests_total', healthz);
    const eventBefore = sampleValue(before.text, 'http_requests_total', eventRoute);
    // Refused by the app's error handler, where Express no longer says where the router is mounted.
    const refused = { method: 'GET', route: '/api/events/:id', status: '404' };
    const refusedBefore = sampleValue(before.text, 'http_requests_total', refused);

    for (let i = 0; i < 3; i += 1) expect((await t.api('GET', '/healthz')).status).toBe(200);
    expect((await t.api('GET', `/api/events/${eventId}`)).status).toBe(200);
    expect((await t.api('GET', '/api/no-such-route')).status).toBe(404);
    expect((await t.api('GET', '/api/events/not-an-id')).status).toBe(404);

    const after = await scrape(t);
    expect(sampleValue(after.text, 'http_requests_total', healthz)).toBe(healthzBefore + 3);
    expect(sampleValue(after.text, 'http_requests_total', eventRoute)).toBe(eventBefore + 1);
    expect(sampleValue(after.text, 'http_requests_total', refused)).toBe(refusedBefore + 1);
    expect(after.text).not.toMatch(/route="\/:id"/);
    expect(sampleValue(after.text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/events/:id' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after.text, 'http_requests_total', { route: '(unmatched)', status: '404' })).toBeGreaterThanOrEqual(1);
    // Bounded label values: the id is never a label, nor is an unknown path.
    expect(after.text).not.toContain(eventId);
    expect(after.text).not.toContain('no-such-route');

    // Node's own metrics (event-loop delay among them) and the app's gauges, read at scrape time.
    expect(after.text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(after.text).toMatch(/^socket_connections 0$/m);
    expect(after.text).toMatch(/^refunds\{state="refund_due"\} 0$/m);
    expect(after.text).toMatch(/^background_queue_depth\{queue="ticket-mail"\} \d+$/m);
    expect(after.text).toMatch(/^background_queue_depth\{queue="account-mail"\} \d+$/m);
    expect(after.text).toContain('# TYPE payment_settlements_total counter');
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404: metrics are disabled until a token is configured', async () => {
    expect((await t.api('GET', '/metrics')).status).toBe(404);
    expect((await t.api('GET', '/metrics', { headers: { authorization: 'Bearer undefined' } })).status).toBe(404);
    // The probes do not depend on it.
    expect((await t.api('GET', '/healthz')).status).toBe(200);
  });
});

describe('GET /readyz while PostgreSQL refuses connections', () => {
  const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  let database: Awaited<ReturnType<typeof createMigratedPostgresDatabase>>;
  let t: TestServer;
  let name: string;
  async function admin(sql: string) {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }
  beforeAll(async () => {
    database = await createMigratedPostgresDatabase();
    name = new URL(database.url).pathname.slice(1);
    t = await startTestServer({ LOG_LEVEL: 'silent' }, { databaseUrl: database.url });
  }, 120_000);
  afterAll(async () => {
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await t?.close();
    await database?.drop();
  });

  it('answers 503 {status:"not-ready", checks:{database:"down"}} with no error text, /healthz stays 200, and it is ready again once the database is back', async () => {
    expect((await t.api('GET', '/readyz')).status).toBe(200);
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);

    const down = await t.api('GET', '/readyz');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'not-ready', checks: { database: 'down' } });
    expect((await t.api('GET', '/healthz')).status).toBe(200);

    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await waitFor(async () => (await t.api('GET', '/readyz')).status === 200, 'readiness after the outage');
  });
});

describe('graceful shutdown', () => {
  it('lets a request in flight finish (on an open database) and tells its client to reconnect elsewhere', async () => {
    const t = await startTestServer({ METRICS_TOKEN });
    let closing: Promise<void> | undefined;
    // A login whose body is still arriving: Express is answering it when the shutdown begins.
    const login = slowPost(t.port, '/api/auth/login', { username: 'admin', password: 'admin-password' });
    try {
      // In flight: this scrape and the login.
      await waitFor(async () => sampleValue((await scrape(t)).text, 'http_requests_in_flight') >= 2, 'the login to be in flight');
      closing = t.close();
      // New connections are refused while the login is still being answered.
      await listenerClosed(t.port);
      const response = await login.finish();
      expect(response.head).toMatch(/^HTTP\/1\.1 200 /);
      expect(response.head).toMatch(/\r\nconnection: close(\r\n|$)/i);
      expect(response.body).toMatchObject({ status: true, token: expect.any(String) });
      await closing;
    } finally {
      login.destroy();
      await (closing ?? t.close());
    }
  });
});
