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
