/**
 * Background sweeps as jobs (pg-boss): each period's job is queued once however many instances schedule
 * it, taken by one of them, retried with backoff when it fails; PGlite runs the same queue in-process.
 * The kill -9 case (a job finished by the other instance) is in deploy/test/jobs.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/database.js';
import { jobName, type JobQueue } from '../src/lib/job-queue.js';
import { createLogger } from '../src/lib/logger.js';
import { createRepeatingTask } from '../src/lib/repeating-task.js';
import { createMigratedPostgresDatabase } from './helpers/test-database.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

const logger = createLogger('error');

interface JobRow {
  id: string;
  state: string;
  retry_count: number;
  singleton_on: string | null;
}

async function jobsOf(db: Database, name: string): Promise<JobRow[]> {
  const result = (await db.execute(sql`SELECT id, state, retry_count, singleton_on::text AS singleton_on FROM pgboss.job WHERE name = ${jobName(name)} ORDER BY created_on`)) as unknown as { rows: JobRow[] };
  return result.rows;
}

/** Retries `check` until it passes (vitest's waitFor: its last failure is the test's when time runs out). */
const eventually = <T>(check: () => Promise<T>, timeout = 30_000) => vi.waitFor(check, { timeout, interval: 100 });

/** A job queue that counts how often this instance asked for a period's job. */
function counting(jobs: JobQueue, asked: { count: number }): JobQueue {
  return {
    ...jobs,
    sendForPeriod(name, periodMs) {
      asked.count += 1;
      return jobs.sendForPeriod(name, periodMs);
    },
  };
}

describe('jobs on PostgreSQL, two instances', () => {
  let database: Awaited<ReturnType<typeof createMigratedPostgresDatabase>>;
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    database = await createMigratedPostgresDatabase();
    // The SMS sender looks every second; a failed job's first retry waits 1-2 s, the next 2-4 s.
    const env = { SMS_POLL_MS: '1000', SMS_REMINDER_SWEEP_MS: '0', JOBS_RETRY_DELAY_SECONDS: '1' };
    one = await startTestServer(env, { databaseUrl: database.url });
    two = await startTestServer(env, { databaseUrl: database.url });
  });

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  it('runs a sweep both instances schedule once per period, on one of them', async () => {
    const runs: string[] = [];
    const asked = { one: { count: 0 }, two: { count: 0 } };
    const sweepOn = (instance: 'one' | 'two', jobs: JobQueue) =>
      createRepeatingTask(
        'jobs test sweep',
        async () => {
          runs.push(instance);
        },
        { everyMs: 1000, logger, firstAfterMs: 0, jobs: counting(jobs, asked[instance]) },
      );
    const sweeps = [sweepOn('one', one.jobs), sweepOn('two', two.jobs)];
    sweeps.forEach((sweep) => sweep.start());
    try {
      const completed = await eventually(async () => {
        const rows = (await jobsOf(one.db, 'jobs test sweep')).filter((row) => row.state === 'completed');
        expect(rows.length).toBeGreaterThanOrEqual(4);
        // A loaded machine can let one instance's timer fall behind the other's: wait for both to have asked.
        expect(asked.one.count).toBeGreaterThanOrEqual(3);
        expect(asked.two.count).toBeGreaterThanOrEqual(3);
        return rows;
      });
      await Promise.all(sweeps.map((sweep) => sweep.stop()));
      // Both instances asked for every period's job; each period got one job (fewer jobs than asks), and each job ran once.
      const all = await jobsOf(one.db, 'jobs test sweep');
      expect(all.length).toBeGreaterThanOrEqual(completed.length);
      expect(asked.one.count + asked.two.count).toBeGreaterThan(all.length);
      expect(new Set(all.map((row) => row.singleton_on)).size).toBe(all.length);
      // The last job's completion may still be on its way to the table.
      await eventually(async () => expect((await jobsOf(one.db, 'jobs test sweep')).filter((row) => row.state === 'completed').length).toBe(runs.length));
    } finally {
      await Promise.all(sweeps.map((sweep) => sweep.stop()));
    }
    // The API's own SMS sender: both instances schedule it, one job per period.
    const sender = await eventually(async () => {
      const rows = (await jobsOf(one.db, 'sms sender')).filter((row) => row.state === 'completed');
      expect(rows.length).toBeGreaterThanOrEqual(2);
      return rows;
    });
    expect(new Set(sender.map((row) => row.singleton_on)).size).toBe(sender.length);
  });

  it('retries a failing job with a growing delay until it succeeds', async () => {
    const attempts: number[] = [];
    const flaky = createRepeatingTask(
      'jobs test flaky',
      async () => {
        attempts.push(Date.now());
        if (attempts.length < 3) throw new Error(`attempt ${attempts.length} fails`);
      },
      // One period in the test's time: the same job is retried, no other is queued.
      { everyMs: 60 * 60 * 1000, logger, firstAfterMs: 0, jobs: one.jobs },
    );
    flaky.start();
    try {
      const [job] = await eventually(async () => {
        const rows = await jobsOf(one.db, 'jobs test flaky');
        expect(rows.map((row) => row.state)).toEqual(['completed']);
        return rows;
      });
      expect(job!.retry_count).toBe(2);
      expect(attempts).toHaveLength(3);
      // Backoff with a 1 s delay: the first retry waits 1-2 s, the second 2-4 s.
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
      expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(1900);
    } finally {
      await flaky.stop();
    }
  });
});

describe('jobs on the embedded PGlite', () => {
  let dataDir: string;
  let t: TestServer;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-jobs-'));
    t = await startTestServer({ SMS_POLL_MS: '1000', SMS_REMINDER_SWEEP_MS: '0' }, { dataDir });
  });

  afterAll(async () => {
    await t?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the same jobs in-process', async () => {
    let runs = 0;
    const sweep = createRepeatingTask(
      'jobs test sweep',
      async () => {
        runs += 1;
      },
      { everyMs: 1000, logger, firstAfterMs: 0, jobs: t.jobs },
    );
    sweep.start();
    try {
      await eventually(async () => {
        const rows = await jobsOf(t.db, 'jobs test sweep');
        expect(rows.filter((row) => row.state === 'completed').length).toBeGreaterThanOrEqual(2);
      });
    } finally {
      await sweep.stop();
    }
    await eventually(async () => expect((await jobsOf(t.db, 'jobs test sweep')).filter((row) => row.state === 'completed').length).toBe(runs));
    await eventually(async () => expect((await jobsOf(t.db, 'sms sender')).some((row) => row.state === 'completed')).toBe(true));
  });

  it('runs one-off jobs with the data they were sent with (a user’s data export)', async () => {
    const received: unknown[] = [];
    await t.jobs.work('jobs test one-off', async (data) => {
      received.push(data);
    });
    try {
      await t.jobs.send('jobs test one-off', { exportId: 'first' });
      await t.jobs.send('jobs test one-off', { exportId: 'second' });
      await eventually(async () => expect(received).toHaveLength(2));
      expect(received).toEqual(expect.arrayContaining([{ exportId: 'first' }, { exportId: 'second' }]));
    } finally {
      await t.jobs.offWork('jobs test one-off');
    }
  });
});
