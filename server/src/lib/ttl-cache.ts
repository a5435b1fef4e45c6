import { LRUCache } from 'lru-cache';

/**
 * A small in-process cache with a time-to-live, bounded by an entry count (`max`) and, for entries that
 * vary in size, by their estimated bytes (`maxBytes`): the least recently used entry goes first.
 * Its users drop entries on every write they hear of through the change feed (lib/change-feed.ts),
 * so an instance never serves a stale result of its own writes and, with Redis, of other instances'
 * writes after a round trip; the time to live bounds a change nobody announced.
 *
 * An expired entry is kept for another `ttlMs` so `lookup` can hand it out as stale while the caller
 * refreshes it in the background: a popular search never waits for its ranked query again.
 */
export function createTtlCache<T>(options: {
  ttlMs: number;
  max: number;
  /** Bound on the entries' estimated size (`sizeOf`); an entry larger than this is not kept. */
  maxBytes?: number;
  /** Estimated bytes of an entry; default twice its JSON length (JavaScript strings are UTF-16). */
  sizeOf?: (value: T) => number;
  now?: () => number;
}) {
  const sizeOf = options.sizeOf ?? ((value: T) => 2 * (JSON.stringify(value)?.length ?? 0));
  // Expiry is kept here rather than as lru-cache's ttl, so `now` (tests) and the stale window stay ours.
  const entries = new LRUCache<string, { value: T; expires: number }>({
    max: options.max,
    ...(options.maxBytes ? { maxSize: options.maxBytes, sizeCalculation: (entry) => Math.max(1, Math.ceil(sizeOf(entry.value))) } : {}),
  });
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
      entries.set(key, { value, expires: now() + options.ttlMs });
    },

    /** Changes a cached value in place, keeping its expiry; nothing happens when the key is absent. */
    update(key: string, change: (value: T) => T) {
      // Set again rather than changed in place, so its size is counted anew (and it counts as used).
      const entry = entries.peek(key);
      if (entry) entries.set(key, { value: change(entry.value), expires: entry.expires });
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
