import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import type { RetentionMap } from '../../lib/retention.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import type { AuthUser } from '../auth/index.js';
import { createRetentionRepository } from './retention.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Due events read at a time; each is shredded in its own transaction. */
const BATCH = 50;

export interface RetentionServiceDeps {
  db: Database;
  map: RetentionMap;
  logger: Logger;
  /** PERSONAL_DATA_RETENTION_DAYS: days after an event ends before its buyers' details are erased. */
  retentionDays: number;
  /** How often the job looks for due events (a day; 0: only when a test asks). */
  everyMs?: number | undefined;
  jobs?: JobQueue | undefined;
}

/**
 * Retention (docs/decisions/data-rights.md, "Retention"): once a day a job erases, from every event that ended
 * more than `retentionDays` ago, the columns the modules' retention declarations name (src/retention-map.ts), each
 * event exactly once (its event_shreds row). An administrator can erase one ended event's now.
 */
export function createRetentionService(deps: RetentionServiceDeps) {
  const { db, map, logger } = deps;

  async function shredDueNow(now = new Date()): Promise<string[]> {
    const cutoff = new Date(now.getTime() - deps.retentionDays * DAY_MS);
    const shredded: string[] = [];
    // Batch after batch until none is due (the first run on old data has a backlog); a batch in which nothing
    // could be shredded (each failed, logged) ends the run, and its events wait for tomorrow's.
    for (;;) {
      const due = await createRetentionRepository(db).dueEvents(cutoff, BATCH);
      let progress = false;
      for (const eventId of due) {
        // One transaction per event: a failure leaves that event for the next run, the others done.
        const done = await db.transaction((tx) => createRetentionRepository(tx).shred(map, eventId, null)).catch((error: unknown) => {
          logger.error(`retention: event ${eventId} could not be shredded`, error);
          return undefined;
        });
        if (!done) continue;
        progress = true;
        shredded.push(eventId);
        logger.info(`retention: event ${eventId} shredded (${done.rowsErased} rows), ${deps.retentionDays} days after it ended`);
      }
      if (due.length < BATCH || !progress) return shredded;
    }
  }

  const task = createRepeatingTask('personal data retention', () => shredDueNow(), { everyMs: deps.everyMs ?? DAY_MS, logger, jobs: deps.jobs });

  return {
    retentionDays: deps.retentionDays,
    /** The daily run now (tests; the job calls it): the events it shredded. */
    shredDue: (now?: Date) => (now ? shredDueNow(now) : task.runOnce()),

    /** POST /api/admin/events/:id/shred: an ended event's personal data erased now, with the reason kept and logged. */
    async shredEvent(eventId: string, reason: string, admin: AuthUser) {
      const now = new Date();
      const done = await db.transaction(async (tx) => {
        const repo = createRetentionRepository(tx);
        const state = await repo.eventState(eventId, now);
        if (!state) throw AppError.notFound('event_not_found', 'Event not found.');
        if (state.shreddedAt) throw AppError.conflict('retention_already_shredded', "This event's personal data was already erased.");
        if (!state.ended) throw AppError.conflict('retention_event_not_ended', "This event has not ended yet: its buyers' details are still needed. You can erase them once the event is over.");
        if (state.refundsOpen) throw AppError.conflict('retention_refunds_open', "This event still has refunds not yet paid: the buyers' phone numbers are needed to send them. Settle the refunds first.");
        const shred = await repo.shred(map, eventId, { adminId: admin.id, reason });
        if (!shred) throw AppError.conflict('retention_already_shredded', "This event's personal data was already erased.");
        return shred;
      });
      logger.info(`retention: event ${eventId} shredded early by admin ${admin.id} (${done.rowsErased} rows): ${reason}`);
      return { eventId, shreddedAt: done.shreddedAt.toISOString(), rowsErased: done.rowsErased, reason };
    },

    start() {
      task.start();
    },
    stop() {
      return task.stop();
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
