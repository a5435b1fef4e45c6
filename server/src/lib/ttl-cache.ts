/**
 * A small in-process cache with a time-to-live and a size bound (oldest entry evicted first).
 * Its users drop entries on every write they hear of through the change feed (lib/change-feed.ts),
 * so an instance never serves a stale result of its own writes and, with Redis, of other instances'
 * writes after a round trip; the time to live bounds a change nobody announced.
 *
 * An expired entry is kept for another `ttlMs` so `lookup` can hand it out as stale while the caller
 * refreshes it in the background: a popular search never waits for its ranked query again.
 */
export function createTtlCache<T>(options: { ttlMs: number; max: number; now?: () => number }) {
  const entries = new Map<string, { value: T; expires: number }>();
  const now = options.now ?? Date.now;

  function lookup(key: string): { value: T; fresh: boolean } | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    const at = now();
    if (entry.expires + options.ttlMs <= at) {
      entries.delete(key);
      return undefined;
    }
    return { value: entry.value, fresh: entry.expires > at };
  }

  return {
    get enabled() {
      return options.ttlMs > 0;
    },

    lookup,

    /** Fresh entries only. */
    get(key: string): T | undefined {
      const found = lookup(key);
      return found?.fresh ? found.value : undefined;
    },

    set(key: string, value: T) {
      if (options.ttlMs <= 0) return;
      entries.delete(key);
      if (entries.size >= options.max) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expires: now() + options.ttlMs });
    },

    /** Changes a cached value in place, keeping its expiry; nothing happens when the key is absent. */
    update(key: string, change: (value: T) => T) {
      const entry = entries.get(key);
      if (entry) entry.value = change(entry.value);
    },

    /** Drops one entry, or every entry for `null` (a change feed's "possibly everything"). */
    forget(key: string | null) {
      if (key === null) entries.clear();
      else entries.delete(key);
    },

    clear() {
      entries.clear();
    },
  };
}
