import PgBoss from 'pg-boss';
import type { Logger } from './logger.js';

/** Runs SQL for pg-boss: a script of several statements when `values` is empty, else one statement with parameters. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[]; rowCount: number }>;

export interface JobQueueOptions {
  executeSql: ExecuteSql;
  logger: Logger;
  /** A job still running this long is failed and retried elsewhere (its instance was killed or hangs). */
  expireSeconds: number;
  /** Retries after the first attempt fails (or expires). */
  retryLimit: number;
  /** The first retry's delay; each further one doubles it (pg-boss's backoff). */
  retryDelaySeconds: number;
}

/**
 * Background work as jobs in PostgreSQL (pg-boss, its tables in the `pgboss` schema): a job is taken by
 * one worker of one instance (SKIP LOCKED), retried with backoff when it fails, and retried by any
 * instance when the one running it dies (expiry). The embedded PGlite runs the same queue in-process.
 */
export interface JobQueue {
  /** Runs `handler` for each job of `name` this instance takes, with the job's data; a throw fails the job (retried later). */
  work(name: string, handler: (data: unknown) => Promise<unknown>): Promise<void>;
  /** Stops taking jobs of `name` (a job in hand still finishes). */
  offWork(name: string): Promise<void>;
  /**
   * Queues `name`'s job for the current period of `periodMs` unless one was already queued for it: every
   * instance may call this on its own timer, and the period gets one job. Answers whether it queued it.
   */
  sendForPeriod(name: string, periodMs: number): Promise<boolean>;
  /** Queues one job of `name` carrying `data` (a piece of work that just came up, e.g. one user's data export). */
  send(name: string, data: object, options?: { startAfter?: Date }): Promise<void>;
  /** Lets jobs in hand finish (up to `timeoutMs`), failing the rest so another instance retries them. */
  stop(timeoutMs: number): Promise<void>;
}

/** How often a worker looks for jobs nobody told it about: the retry delay, within 2–10 s. */
export const jobPollSeconds = (retryDelaySeconds: number) => Math.min(10, Math.max(2, retryDelaySeconds));

/** Queue names allow letters, digits, `_`, `-` and `.`: "sms sender" becomes "sms-sender". */
export const jobName = (name: string) => name.trim().replace(/[^\w.-]+/g, '-');

/** Creates pg-boss's tables when missing (race-safe across instances) and starts its maintenance. */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const { logger } = options;
  const boss = new PgBoss({
    db: { executeSql: (text, values) => options.executeSql(text, values) },
    // Expired jobs are found by the maintenance pass (one instance per interval): often enough that a
    // killed instance's job is retried soon after it expires.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.ceil(options.expireSeconds / 2))),
    // Cron schedules are not used: periods come from sendForPeriod.
    schedule: false,
  });
  boss.on('error', (error: unknown) => logger.error('job queue error', error));
  await boss.start();

  const jobOptions = { retryLimit: options.retryLimit, retryDelay: options.retryDelaySeconds, retryBackoff: true, expireInSeconds: options.expireSeconds };
  // Instances starting together create the same queue at once, which PostgreSQL may answer with a
  // deadlock (pg-boss adds a partition per queue): a failed attempt is retried after a random pause.
  const createQueue = async (name: string) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await boss.createQueue(name, { name, policy: 'standard', ...jobOptions });
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
      }
    }
  };
  const queues = new Map<string, Promise<void>>();
  // One creation at a time on this instance: its workers start together, and concurrent creations here
  // deadlocked each other on PostgreSQL often enough to outlast the retries (seen in CI).
  let creating: Promise<unknown> = Promise.resolve();
  const queue = (name: string) => {
    let created = queues.get(name);
    if (!created) {
      created = creating.then(() => createQueue(name));
      creating = created.catch(() => undefined);
      queues.set(name, created);
      created.catch(() => queues.delete(name));
    }
    return created;
  };
  const workers = new Map<string, string>();
  // The poll is the backstop: a job queued here wakes this instance's worker at once (notifyWorker below), so
  // a poll only finds retries (due no sooner than the retry delay), expired jobs and another instance's one-off
  // work. Every instance polls every queue (about fifteen), so at 2 s two instances ran 15 queries a second for
  // nothing; polling at the retry delay (2–10 s) delays none of those by more than one retry delay.
  const pollingIntervalSeconds = jobPollSeconds(options.retryDelaySeconds);

  return {
    async work(name, handler) {
      const queueName = jobName(name);
      await queue(queueName);
      const id = await boss.work(queueName, { pollingIntervalSeconds }, async ([job]) => {
        try {
          return await handler(job?.data);
        } catch (error) {
          logger.error(`job ${queueName} failed (retried later)`, error);
          throw error;
        }
      });
      workers.set(queueName, id);
    },
    async offWork(name) {
      const queueName = jobName(name);
      if (workers.delete(queueName)) await boss.offWork(queueName);
    },
    async sendForPeriod(name, periodMs) {
      const queueName = jobName(name);
      await queue(queueName);
      const id = await boss.send(queueName, {}, { ...jobOptions, singletonSeconds: Math.max(1, Math.round(periodMs / 1000)) });
      // Queued here: this instance's worker looks now instead of at its next poll.
      const worker = workers.get(queueName);
      if (id && worker) boss.notifyWorker(worker);
      return id !== null;
    },
    async send(name, data, options) {
      const queueName = jobName(name);
      await queue(queueName);
      // `startAfter`: work due later (an account's erasure at the end of its grace period) waits in the queue.
      const id = await boss.send(queueName, data, options?.startAfter ? { ...jobOptions, startAfter: options.startAfter } : jobOptions);
      const worker = workers.get(queueName);
      if (id && worker) boss.notifyWorker(worker);
    },
    async stop(timeoutMs) {
      workers.clear();
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
  };
}
