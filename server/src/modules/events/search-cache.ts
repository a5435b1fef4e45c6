/**
 * A small in-process cache with a time-to-live and a size bound (oldest entry evicted first).
 * `clear()` is called on every event write in this process, so a single instance never serves a
 * stale result of its own writes; other instances see them after at most `ttlMs`.
 */
export function createTtlCache<T>(options: { ttlMs: number; max: number; now?: () => number }) {
  const entries = new Map<string, { value: T; expires: number }>();
  const now = options.now ?? Date.now;

  return {
    get enabled() {
      return options.ttlMs > 0;
    },

    get(key: string): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },

    set(key: string, value: T) {
      if (options.ttlMs <= 0) return;
      entries.delete(key);
      if (entries.size >= options.max) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expires: now() + options.ttlMs });
    },

    clear() {
      entries.clear();
    },
  };
}
