/**
 * Runs tasks one at a time per key, in arrival order. Checkouts for one event wait here, in
 * memory, instead of each holding a pooled database connection while it waits for the event's
 * row lock. The row lock still decides correctness (several API instances); this only keeps a
 * burst of buyers for one event from exhausting the connection pool.
 */
export function createKeyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    get size() {
      return tails.size;
    },
  };
}

/** Runs jobs one after another in the background; a failing job is reported and the next one runs. */
export function createBackgroundQueue() {
  const jobs: Array<{ run: () => Promise<void>; onError: (error: unknown) => void }> = [];
  let running = false;
  let idleWaiters: Array<() => void> = [];
  async function drain() {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      try {
        await job.run();
      } catch (error) {
        job.onError(error);
      }
    }
    running = false;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
  return {
    push(run: () => Promise<void>, onError: (error: unknown) => void) {
      jobs.push({ run, onError });
      if (running) return;
      running = true;
      setImmediate(() => void drain());
    },
    get pending() {
      return jobs.length + (running ? 1 : 0);
    },
    /**
     * Resolves once every job pushed so far has run, or after `timeoutMs` (true when it drained): a shutdown
     * waits here so queued work is not cut off by the database and mailer closing under it.
     */
    idle(timeoutMs: number): Promise<boolean> {
      if (!running) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        idleWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}
