import type { Logger } from './logger.js';

/**
 * Background work this instance repeats (every `everyMs`, 0 = only when asked): one run at a time — a
 * call while one runs gets that run — a failure only logged, and `stop` waits for the run in progress.
 * Jobs that must run once across instances make that hold in the database (locks, unique keys).
 */
export function createRepeatingTask<T>(name: string, run: () => Promise<T>, options: { everyMs: number; logger: Logger; firstAfterMs?: number }) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;
  let stopped = true;

  const task = {
    /** Runs now, or joins the run in progress. */
    runOnce(): Promise<T> {
      running ??= run().finally(() => {
        running = undefined;
      });
      return running;
    },
    /** A run soon (something to do just came up), unless stopped. */
    soon() {
      if (stopped) return;
      setImmediate(() => void task.runOnce().catch((error: unknown) => options.logger.error(`${name} failed`, error)));
    },
    get stopped() {
      return stopped;
    },
    start() {
      stopped = false;
      if (options.everyMs === 0) return;
      const tick = () => {
        task
          .runOnce()
          .catch((error: unknown) => options.logger.error(`${name} failed`, error))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, options.everyMs).unref();
          });
      };
      timer = setTimeout(tick, options.firstAfterMs ?? options.everyMs).unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
  return task;
}
