import { isRedisUnavailable } from '@tukio/shared/node/redis';
import { redisScript, type RedisCommands } from './redis.js';
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
export function createTokenBuckets(options: TokenBucketOptions): TokenBuckets & { take(key: string): number } {
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

/** Takes one token for a key: 0 when allowed, otherwise the milliseconds until the next token. */
export interface TokenBuckets {
  take(key: string): number | Promise<number>;
}

/**
 * The same buckets in Redis, one hash per key ({tokens, at}), so every instance draws on one budget.
 * Redis's own clock refills them (instances' clocks may differ), and a bucket expires once it would be
 * full again, like the memory version forgets it. While Redis is unavailable the buckets of this process's
 * memory answer instead (a budget per instance for the outage), so a chat message is sent, not held.
 */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local msPerToken = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if state[1] and state[2] then
  tokens = math.min(burst, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) / msPerToken)
end
if tokens < 1 then
  return math.max(1, math.ceil((1 - tokens) * msPerToken))
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens - 1), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens + 1) * msPerToken))
return 0
`;
const takeScript = redisScript(TAKE_SCRIPT);

export function createSharedTokenBuckets(redis: RedisCommands, keyPrefix: string, options: Pick<TokenBucketOptions, 'burst' | 'perSecond'>): TokenBuckets {
  const args = [String(options.burst), String(1000 / options.perSecond)];
  const local = createTokenBuckets(options);
  return {
    async take(key) {
      const redisKey = `${keyPrefix}${key}`;
      try {
        return Number(await takeScript(redis, [redisKey], args));
      } catch (error) {
        if (!isRedisUnavailable(error)) throw error;
        return local.take(key);
      }
    },
  };
}
