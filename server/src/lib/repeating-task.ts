import type { JobQueue } from './job-queue.js';
import type { Logger } from './logger.js';

export interface RepeatingTaskOptions {
  everyMs: number;
  logger: Logger;
  firstAfterMs?: number;
  /**
   * The periodic runs as jobs on this queue (server.ts passes it): each period's run is queued once
   * across instances, taken by one of them, retried with backoff when it fails and elsewhere when its
   * instance dies. Without it every instance runs each period itself.
   */
  jobs?: JobQueue | undefined;
}

/**
 * Background work repeated every `everyMs` (0 = only when asked): one run at a time in this instance —
 * a call while one runs gets that run — and `stop` waits for the run in progress. `runOnce` and `soon`
 * always run here (a test, or something to do that just came up); the work itself stays safe to run on
 * several instances at once (locks, SKIP LOCKED, unique keys), as a retried job may overlap a late one.
 */
export function createRepeatingTask<T>(name: string, run: () => Promise<T>, options: RepeatingTaskOptions) {
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
      const { jobs } = options;
      if (jobs) {
        void jobs.work(name, () => task.runOnce()).catch((error: unknown) => options.logger.error(`${name}: worker not started`, error));
      }
      // Each tick runs the task here, or queues this period's job (a no-op when another instance has).
      const periodic = jobs ? () => jobs.sendForPeriod(name, options.everyMs) : () => task.runOnce();
      const tick = () => {
        periodic()
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
      await options.jobs?.offWork(name).catch(() => undefined);
      await running?.catch(() => undefined);
    },
  };
  return task;
}
