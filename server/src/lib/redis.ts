import { createHash } from 'node:crypto';
import { connectAll, createRedisClient, type RedisCommands } from '@tukio/shared/node/redis';
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
 * The instance's Redis connections (REDIS_URL): `publisher` runs ordinary commands too (shared rate
 * limits, chat budget), `subscriber` is kept in subscribe mode. `keyPrefix` starts every key and
 * counter this deployment keeps there (REDIS_KEY_PREFIX), so deployments can share one Redis.
 */
export type RedisConnection = Awaited<ReturnType<typeof connectRedis>>;

export async function connectRedis(url: string, keyPrefix: string, logger: Logger) {
  const publisher = createRedisClient(url);
  const subscriber = publisher.duplicate();
  publisher.on('error', (error) => logger.error('redis publisher error', error));
  subscriber.on('error', (error) => logger.error('redis subscriber error', error));
  await connectAll([publisher, subscriber]);
  return {
    publisher,
    subscriber,
    keyPrefix,
    async close() {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
