import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import type { ObjectStore, StoredEntry } from './object-store.js';

/** An upload no event shows is kept this long: the organiser uploads first and saves the event after. */
export const UNUSED_UPLOAD_AGE_MS = 24 * 60 * 60 * 1000;
/** How often the sweep runs (one run per period across instances, as a job). */
export const UNUSED_UPLOADS_SWEEP_MS = 60 * 60 * 1000;
/** Names looked up per query. */
const BATCH = 500;

/**
 * Removes event images that no event shows any more (replaced, the event deleted, or never saved) once
 * they are a day old. Uploads own no table: the events module answers which names are still in use.
 */
export function createUnusedUploadsSweep(deps: {
  store: ObjectStore;
  imagesInUse: (names: string[]) => Promise<Set<string>>;
  logger: Logger;
  jobs?: JobQueue | undefined;
  everyMs?: number;
  /** UNUSED_UPLOAD_AGE_MS unless told (a test of the S3 store, whose objects cannot be made to look old). */
  unusedAfterMs?: number;
}) {
  async function removeUnused(batch: StoredEntry[]): Promise<number> {
    const nameOf = (entry: StoredEntry) => entry.key.slice('events/'.length);
    const inUse = await deps.imagesInUse([...new Set(batch.map(nameOf))]);
    let removed = 0;
    for (const entry of batch) {
      if (inUse.has(nameOf(entry))) continue;
      await deps.store.remove(entry);
      removed++;
    }
    return removed;
  }

  /** Answers how many uploads it removed. */
  async function sweepNow(): Promise<number> {
    const cutoff = Date.now() - (deps.unusedAfterMs ?? UNUSED_UPLOAD_AGE_MS);
    let removed = 0;
    let batch: StoredEntry[] = [];
    for await (const entry of deps.store.list()) {
      if (entry.lastModified.getTime() > cutoff) continue;
      batch.push(entry);
      if (batch.length >= BATCH) {
        removed += await removeUnused(batch);
        batch = [];
      }
    }
    if (batch.length > 0) removed += await removeUnused(batch);
    if (removed > 0) deps.logger.info(`removed ${removed} unused upload(s)`);
    return removed;
  }

  return createRepeatingTask('unused uploads sweep', sweepNow, { everyMs: deps.everyMs ?? UNUSED_UPLOADS_SWEEP_MS, logger: deps.logger, jobs: deps.jobs });
}

export type UnusedUploadsSweep = ReturnType<typeof createUnusedUploadsSweep>;
