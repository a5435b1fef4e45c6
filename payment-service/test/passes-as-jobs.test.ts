/**
 * PAYMENT_PASSES=jobs (docs/decisions/scale-out.md, "Payment passes"): the reconciler's passes are jobs of
 * the API server's queue (refunds are the API server's own refunds job). Two API instances schedule them; each period's pass
 * reaches one of two payment instances (through a round-robin stand-in for the balancer) once, and the
 * payment instances' own timers run none. A pass that fails fails its job, which is retried and lands on
 * the other instance. The kill -9 of a payment instance mid-pass is in deploy/test/jobs.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase } from '../../server/test/helpers/test-database.js';
import { freePort, startTestServer, type TestServer } from '../../server/test/helpers/test-server.js';
import { loadPaymentConfig } from '../src/config.js';
import { startPaymentService, type RunningPaymentService } from '../src/start.js';
import { CALLBACK_SECRET, INTERNAL_KEY } from './helpers/stack.js';
import { startTestSimulator, type TestSimulator } from './helpers/daraja-simulator.js';
import { startRecordingProxy } from './helpers/recording-proxy.js';

/** Retries `check` until it passes (vitest's waitFor: its last failure is the test's when time runs out). */
const eventually = <T>(check: () => Promise<T>, timeout = 60_000) => vi.waitFor(check, { timeout, interval: 100 });

const PASS_ENV = { PAYMENT_PASSES: 'jobs', RECONCILE_INTERVAL_MS: '1000' };

/** A payment instance taking its passes from the API server's jobs, calling the API server at `apiUrl`. */
/** The Daraja simulator every payment instance here talks to (refunds on: their pass has work to ask for). */
let simulator: TestSimulator;
let simulatorDir: string;
beforeAll(async () => {
  simulatorDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-passes-daraja-'));
  simulator = await startTestSimulator(simulatorDir);
});
afterAll(async () => {
  await simulator?.close();
  if (simulatorDir) rmSync(simulatorDir, { recursive: true, force: true });
});

async function startPaymentInstance(apiUrl: string, dirs: string[]): Promise<RunningPaymentService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-passes-'));
  dirs.push(dataDir);
  return startPaymentService(
    loadPaymentConfig({
      NODE_ENV: 'test',
      PAYMENT_PORT: '0',
      DATA_DIR: dataDir,
      API_URL: apiUrl,
      INTERNAL_API_KEY: INTERNAL_KEY,
      CALLBACK_SECRET,
      RECONCILE_AFTER_SECONDS: '0',
      LOG_LEVEL: 'silent',
      ...simulator.paymentEnv,
      ...PASS_ENV,
    }),
  );
}

interface JobRow {
  name: string;
  state: string;
  retry_count: number;
  singleton_on: string | null;
}

async function passJobs(query: (text: string) => Promise<{ rows: JobRow[] }>): Promise<JobRow[]> {
  const result = await query(`SELECT name, state, retry_count, singleton_on::text AS singleton_on FROM pgboss.job WHERE name IN ('payment-reconcile', 'payment-refunds') ORDER BY created_on`);
  return result.rows;
}

describe('two API instances, two payment instances', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const dirs: string[] = [];
  const payments: RunningPaymentService[] = [];
  let apis: TestServer[] = [];
  let balancer: Awaited<ReturnType<typeof startRecordingProxy>>;
  let apiCalls: Awaited<ReturnType<typeof startRecordingProxy>>;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // The payment instances reach the first API instance through a counter: the calls their passes make.
    const apiPort = await freePort();
    apiCalls = await startRecordingProxy([`http://127.0.0.1:${apiPort}`]);
    payments.push(await startPaymentInstance(apiCalls.url, dirs), await startPaymentInstance(apiCalls.url, dirs));
    balancer = await startRecordingProxy(payments.map((instance) => instance.url));
    const env = { ...PASS_ENV, PAYMENT_URL: balancer.url, SMS_REMINDER_SWEEP_MS: '0', JOBS_RETRY_DELAY_SECONDS: '1' };
    apis = [await startTestServer({ ...env, PORT: String(apiPort) }, { databaseUrl: database.url }), await startTestServer(env, { databaseUrl: database.url })];
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apis.map((api) => api.close()));
    await Promise.all(payments.map((instance) => instance.close()));
    await balancer?.close();
    await apiCalls?.close();
    await database?.drop();
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it('runs each period of each pass once, on one payment instance, and no pass on their own timers', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await eventually(async () => {
        const completed = (await passJobs((text) => client.query<JobRow>(text))).filter((row) => row.state === 'completed');
        expect(completed.filter((row) => row.name === 'payment-reconcile').length).toBeGreaterThanOrEqual(3);
      });
      // Stopped gracefully, the API instances schedule nothing more and finish the passes in hand.
      await Promise.all(apis.map((api) => api.close()));
      apis = [];
      const jobs = await passJobs((text) => client.query<JobRow>(text));
      for (const [job, pass, firstCall] of [
        ['payment-reconcile', 'reconcile', '/api/internal/payments/pending'],
      ] as const) {
        const completed = jobs.filter((row) => row.name === job && row.state === 'completed');
        const asked = balancer.seen.filter((request) => request.path === `/internal/passes/${pass}`);
        // One job per period (both instances asked for each), each one pass, answered by one payment instance.
        expect(new Set(completed.map((row) => row.singleton_on)).size).toBe(completed.length);
        expect(asked.map((request) => request.status)).toEqual(asked.map(() => 200));
        expect(asked).toHaveLength(completed.length);
        // Every pass the API server saw was one of those: the payment instances' timers ran none.
        expect(apiCalls.seen.filter((request) => request.path === firstCall)).toHaveLength(asked.length);
      }
      expect(new Set(balancer.seen.map((request) => request.upstream))).toEqual(new Set([0, 1]));
    } finally {
      await client.end();
    }
  });
});

describe('a failing pass', () => {
  const dirs: string[] = [];
  const payments: RunningPaymentService[] = [];
  let api: TestServer;
  let balancer: Awaited<ReturnType<typeof startRecordingProxy>>;

  beforeAll(async () => {
    const apiPort = await freePort();
    // The first payment instance cannot reach the API server: its passes fail. The second can.
    payments.push(await startPaymentInstance(`http://127.0.0.1:${await freePort()}`, dirs), await startPaymentInstance(`http://127.0.0.1:${apiPort}`, dirs));
    balancer = await startRecordingProxy(payments.map((instance) => instance.url));
    // One period in the test's time: the pass is asked for below, and only its retries follow.
    api = await startTestServer({ PORT: String(apiPort), PAYMENT_PASSES: 'jobs', RECONCILE_INTERVAL_MS: String(60 * 60 * 1000), REFUND_POLL_MS: '0', PAYMENT_URL: balancer.url, JOBS_RETRY_DELAY_SECONDS: '1' });
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await Promise.all(payments.map((instance) => instance.close()));
    await balancer?.close();
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it('fails its job, which is retried with backoff and completed by the other payment instance', async () => {
    expect(await api.jobs.sendForPeriod('payment reconcile', 60 * 60 * 1000)).toBe(true);
    const [job] = await eventually(async () => {
      const rows = await passJobs((text) => api.db.execute(sql.raw(text)) as unknown as Promise<{ rows: JobRow[] }>);
      expect(rows.map((row) => [row.name, row.state])).toEqual([['payment-reconcile', 'completed']]);
      return rows;
    });
    expect(job!.retry_count).toBe(1);
    expect(balancer.seen.map((request) => [request.path, request.upstream, request.status])).toEqual([
      ['/internal/passes/reconcile', 0, 503],
      ['/internal/passes/reconcile', 1, 200],
    ]);
  });
});

describe('the pass endpoint', () => {
  const dirs: string[] = [];
  let pay: RunningPaymentService;

  beforeAll(async () => {
    pay = await startPaymentInstance(`http://127.0.0.1:${await freePort()}`, dirs);
  });

  afterAll(async () => {
    await pay?.close();
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it('is for the API server only, and knows its passes', async () => {
    const post = (pass: string, key?: string) => fetch(`${pay.url}/internal/passes/${pass}`, { method: 'POST', headers: key ? { 'x-internal-key': key } : {} });
    const anonymous = await post('reconcile');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'internal_only' });
    expect((await post('reconcile', 'wrong-key')).status).toBe(401);
    expect((await post('settle-everything', INTERNAL_KEY)).status).toBe(404);
    // This instance cannot reach the API server: the pass fails, and says so with a 503 (the job retries).
    const failed = await post('reconcile', INTERNAL_KEY);
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ code: 'service_unavailable' });
  });
});
