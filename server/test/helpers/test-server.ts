import { expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type AppConfig } from '../../src/config.js';
import type { PayoutDestinations } from '../../src/modules/payouts/index.js';
import { pgliteTemplate } from './pglite-template.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { linkIn, startSmtpServer } from './smtp.js';
import { createMigratedPostgresDatabase, createTestDatabaseUrl } from './test-database.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Test workers that may run at once (vitest's VITEST_POOL_ID, 1-based); each picks its ports from its own slice. */
const PORT_SLICES = 8;
const PORT_SLICE_SIZE = 12_000 / PORT_SLICES;

/**
 * A port nobody listens on right now, for a service that will listen on it a moment later.
 * Picked below the kernel's ephemeral range (32768–60999 on Linux): a port the OS handed out with listen(0) could
 * be handed to another parallel test's listen(0) or outgoing connection before our service binds it (it happened:
 * EADDRINUSE in CI). Below that range only another freePort can pick it, so a random pick is probed and retried,
 * and each worker picks from its own slice of the range: a service killed and restarted on its port (the fault
 * tests) leaves it free for seconds, and a file in another worker once took it meanwhile (EADDRINUSE in CI).
 */
export async function freePort(): Promise<number> {
  const slice = (Math.max(1, Number(process.env.VITEST_POOL_ID) || 1) - 1) % PORT_SLICES;
  for (;;) {
    const candidate = 20_000 + slice * PORT_SLICE_SIZE + Math.floor(Math.random() * PORT_SLICE_SIZE);
    if (await canListen(candidate)) return candidate;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * A real server on a random port with a fresh migrated database and a real SMTP inbox.
 * `env` overrides configuration the way environment variables would.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  /**
   * Share a database between servers (`databaseUrl`) or keep PGlite on disk across restarts (`dataDir`).
   * Servers sharing a database share `smtp` too: any of them may send a mail another one queued (the outbox).
   */
  options: { databaseUrl?: string | undefined; dataDir?: string; smtp?: Awaited<ReturnType<typeof startSmtpServer>>; payoutDestinations?: PayoutDestinations } = {},
) {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'tukio-test-'));
  const smtp = options.smtp ?? (await startSmtpServer());
  const database = options.databaseUrl || options.dataDir ? { url: options.databaseUrl, drop: async () => undefined } : await createTestDatabaseUrl();
  // A known port up front lets PUBLIC_URL (emailed links, image URLs) point at this very server.
  const port = env.PORT ?? String(await freePort());
  const config: AppConfig = loadConfig({
    NODE_ENV: 'test',
    PORT: port,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256',
    INTERNAL_API_KEY: 'test-internal-key',
    SMTP_URL: smtp.url,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
    RATE_LIMIT_MAX: '10000',
    // Tests send chat faster than a person types; security-sessions.test.ts sets the real budget.
    CHAT_RATE_BURST: '10000',
    ADMIN_USERNAME: 'admin',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'admin-password',
    // bcrypt at cost 4 (64 times less work than production's 10): hashes and checks passwords the same way; a test
    // server hashes at every start (system account, administrator) and for every registration and login.
    PASSWORD_HASH_COST: '4',
    CLIENT_DIST: path.join(dataDir, 'no-client'),
    // No M-Pesa charges unless a test sets a tariff (fees.test.ts): the ledger tests assert exact postings.
    MPESA_TARIFF: 'none',
    // The refunds job runs when a test asks (services.refundsJob.runOnce), never on its own timer.
    REFUND_POLL_MS: '0',
    // Paybill reconciliation with M-Pesa runs when a test asks (reconciliation.test.ts).
    PAYBILL_RECONCILE_EVERY_MS: '0',
    ...env,
  });
  // A server that fails to start (a port in use) leaves nothing behind: its database, inbox and files go.
  const cleanUp = async () => {
    if (!options.smtp) await smtp.close();
    await database.drop();
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const inMemory = !database.url && !options.dataDir;
  const server: RunningServer = await startServer(config, { databaseUrl: database.url, inMemory, startFrom: inMemory ? pgliteTemplate() : undefined, payoutDestinations: options.payoutDestinations }).catch(async (error: unknown) => {
    await cleanUp();
    throw error;
  });

  async function api<T = any>(method: string, route: string, options: { body?: unknown; token?: string | undefined; headers?: Record<string, string>; raw?: string } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${server.url}${route}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Non-JSON bodies (HTML, SVG) are returned as text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** Registers, verifies through the emailed link and logs in; returns the token and user. */
  async function createUser(username: string, password = 'secret123') {
    const email = `${username.toLowerCase()}@example.com`;
    const registered = await api('POST', '/api/auth/register', { body: { username, email, password } });
    if (registered.body?.status !== true) throw new Error(`register ${username} failed: ${JSON.stringify(registered.body)}`);
    const mail = await smtp.waitFor(email, /Verify/);
    const token = /\/verify\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    await api('GET', `/api/auth/verify-email/${token}`);
    return login(username, password);
  }

  async function login(username: string, password: string) {
    const res = await api('POST', '/api/auth/login', { body: { username, password } });
    if (res.body?.status !== true) throw new Error(`login ${username} failed: ${JSON.stringify(res.body)}`);
    return { token: res.body.token as string, user: res.body.user as { _id: string; username: string; email: string; role: string } };
  }

  return {
    url: server.url,
    port: server.port,
    config,
    smtp,
    /** The server's own database handle, for setting up rows other modules' APIs would create. */
    db: server.db,
    /** The PostgreSQL database it runs on (TEST_DB=postgres, or one given), for a second instance on the same data; undefined on PGlite. */
    databaseUrl: database.url,
    io: server.io,
    services: server.services,
    jobs: server.jobs,
    api,
    createUser,
    login,
    loginAdmin: () => login('admin', 'admin-password'),
    async close() {
      await server.close();
      await cleanUp();
    },
  };
}

/** Two API instances on one fresh PostgreSQL database, joined by Redis (REDIS_TEST_URL, default the local one). */
export async function startTwoInstancesOnRedis(env: Record<string, string> = {}) {
  const database = await createMigratedPostgresDatabase();
  // Their own key prefix: rate-limit and chat-budget counts of other runs sharing this Redis stay apart.
  const withRedis = { REDIS_KEY_PREFIX: `tukio-test-${randomUUID()}:`, ...env, REDIS_URL: process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379' };
  const smtp = await startSmtpServer();
  const one = await startTestServer(withRedis, { databaseUrl: database.url, smtp });
  const two = await startTestServer(withRedis, { databaseUrl: database.url, smtp });
  return {
    one,
    two,
    async close() {
      await one.close();
      await two.close();
      await smtp.close();
      await database.drop();
    },
  };
}

/** Resets a password the way a user does: forgot-password, the emailed link, a new password; fails the test if refused. */
export async function resetPasswordThroughMail(via: TestServer, email: string, password: string) {
  await via.api('POST', '/api/auth/forgot-password', { body: { email } });
  const mail = await via.smtp.waitFor(email, /Reset your Tukio password/);
  const reset = await via.api('POST', `/api/auth/reset-password/${linkIn(mail, 'reset-password')}`, { body: { password } });
  expect(reset.body).toMatchObject({ status: true });
}

/**
 * A server stopped and started again on the same data: `before` runs on the first start, `after` on the
 * second (PGlite keeps its files in the shared DATA_DIR; PostgreSQL keeps its throwaway database).
 */
export async function acrossRestart<T>(before: (first: TestServer) => Promise<T>, after: (second: TestServer, kept: T) => Promise<void>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-restart-'));
  const database = await createTestDatabaseUrl();
  try {
    const first = await startTestServer({}, { dataDir, databaseUrl: database.url });
    let kept: T;
    try {
      kept = await before(first);
    } finally {
      await first.close();
    }
    const second = await startTestServer({}, { dataDir, databaseUrl: database.url });
    try {
      await after(second, kept);
    } finally {
      await second.close();
    }
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
