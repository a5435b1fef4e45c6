import type { InFlightTracker } from '@tukio/shared/node/in-flight';
import type { Database } from '../../db/database.js';
import type { Metrics } from '../../lib/metrics.js';
import { createOpsRepository } from './ops.repository.js';

/** A dependency that has not answered within this long counts as down (a probe must answer fast). */
const CHECK_TIMEOUT_MS = 2000;

export type CheckState = 'ok' | 'down';

export interface Readiness {
  ready: boolean;
  /** True once a shutdown has begun: load balancers should stop sending new requests. */
  shuttingDown: boolean;
  /** Each dependency by name only: a probe is public, so it never carries error text. */
  checks: Record<string, CheckState>;
}

async function probe(check: () => Promise<unknown>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export function createOpsService(deps: {
  db: Database;
  metrics: Metrics;
  inFlight: InFlightTracker;
  /** Whether the Redis connections are up; unset when REDIS_URL is not configured. */
  redisReady?: (() => boolean) | undefined;
  /** Background queues to report as background_queue_depth{queue}. */
  queues: Record<string, () => number>;
}) {
  const repo = createOpsRepository(deps.db);
  /** Probes arriving together share one round of checks, so a flood of probes is one query. */
  let running: Promise<Readiness> | undefined;

  async function check(): Promise<Readiness> {
    const checks: Record<string, CheckState> = { database: await probe(() => repo.ping()) };
    if (deps.redisReady) checks.redis = deps.redisReady() ? 'ok' : 'down';
    const shuttingDown = deps.inFlight.draining;
    return { ready: !shuttingDown && Object.values(checks).every((state) => state === 'ok'), shuttingDown, checks };
  }

  deps.metrics.gauge('refunds', 'Orders by refund state: paid, but the seats were gone (refund_due).', async () => [
    { labels: { state: 'refund_due' }, value: await repo.countRefundsDue() },
  ], ['state']);
  deps.metrics.gauge('background_queue_depth', 'Jobs waiting or running in each background queue (emails).', () =>
    Object.entries(deps.queues).map(([queue, depth]) => ({ labels: { queue }, value: depth() })), ['queue']);
  deps.metrics.gauge('http_requests_in_flight', 'Requests Express is answering right now.', () => deps.inFlight.active);

  return {
    /** Throws when the database does not answer (GET /api/health turns that into 503). */
    pingDatabase: () => repo.ping(),
    readiness(): Promise<Readiness> {
      running ??= check().finally(() => {
        running = undefined;
      });
      return running;
    },
    metrics: () => deps.metrics.render(),
  };
}

export type OpsService = ReturnType<typeof createOpsService>;
