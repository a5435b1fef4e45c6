import { createHash } from 'node:crypto';
import { connectAll, createRedisClient, redisCommands, type RedisCommands } from '@tukio/shared/node/redis';
import type { Logger } from './logger.js';

export type { RedisCommands };

/**
 * A Lua script run by its digest (EVALSHA). A Redis that restarted, or never saw it, has no cached script:
 * it is then sent whole once (EVAL), which caches it.
 */
export function redisScript(source: string) {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (redis: RedisCommands, keys: string[], args: string[]): Promise<unknown> => {
    try {
      return await redis.sendCommand(['EVALSHA', sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return redis.sendCommand(['EVAL', source, String(keys.length), ...keys, ...args]);
    }
  };
}

/**
 * The instance's Redis connections (REDIS_URL): `publisher` publishes (Socket.IO's adapter, the change
 * feed) and runs the ordinary commands, which go through `commands` (shared rate limits, chat budget,
 * waiting room): there an outage is a RedisUnavailableError, answered by each user's own fallback
 * (docs/decisions/scale-out.md, "Redis outage"). `subscriber` is kept in subscribe mode. `keyPrefix` starts
 * every key and counter this deployment keeps there (REDIS_KEY_PREFIX), so deployments can share one Redis.
 */
export type RedisConnection = Awaited<ReturnType<typeof connectRedis>>;

export async function connectRedis(url: string, keyPrefix: string, commandTimeoutMs: number, logger: Logger) {
  const publisher = createRedisClient(url, { commandTimeoutMs, onUnresponsive: (error) => logger.error('redis publisher unresponsive', error) });
  const subscriber = createRedisClient(url, { commandTimeoutMs, subscriber: true });
  publisher.on('error', (error) => logger.error('redis publisher error', error));
  subscriber.on('error', (error) => logger.error('redis subscriber error', error));
  await connectAll([publisher, subscriber]);
  return {
    publisher,
    subscriber,
    commands: redisCommands(publisher),
    keyPrefix,
    async close() {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
