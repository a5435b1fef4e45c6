import { createTtlCache } from './ttl-cache.js';

export interface TokenBucketOptions {
  /** How many actions may come at once. */
  burst: number;
  /** How many more are allowed per second after that. */
  perSecond: number;
  /** Keys remembered at most (oldest dropped first: a dropped key starts again with a full bucket). */
  maxKeys?: number;
  now?: () => number;
}

/**
 * Token buckets by key, in memory: each key may act `burst` times at once, then `perSecond`. A bucket
 * left alone long enough to fill up is forgotten (it would be full anyway), so memory follows the
 * number of recently active keys, not of all keys ever seen.
 */
export function createTokenBuckets(options: TokenBucketOptions) {
  const now = options.now ?? Date.now;
  const msPerToken = 1000 / options.perSecond;
  const buckets = createTtlCache<{ tokens: number; at: number }>({
    ttlMs: Math.max(1, Math.ceil(options.burst * msPerToken)),
    max: options.maxKeys ?? 100_000,
    now,
  });

  return {
    /** Takes one token for `key`: 0 when allowed, otherwise the milliseconds until the next token. */
    take(key: string): number {
      const at = now();
      const previous = buckets.get(key);
      const tokens = previous ? Math.min(options.burst, previous.tokens + (at - previous.at) / msPerToken) : options.burst;
      if (tokens < 1) {
        // Not stored: a refused attempt does not push the refill further away.
        return Math.max(1, Math.ceil((1 - tokens) * msPerToken));
      }
      buckets.set(key, { tokens: tokens - 1, at });
      return 0;
    },
  };
}

export type TokenBuckets = ReturnType<typeof createTokenBuckets>;
