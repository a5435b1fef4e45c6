import type { Server as HttpServer } from 'node:http';
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import { ConfigError, type AppConfig } from './config.js';
import type { Logger } from './lib/logger.js';
import { attachChatSocket } from './modules/chat/chat.socket.js';
import type { Services } from './app.js';

const REDIS_PING_INTERVAL_MS = 10_000;

/**
 * Redis 7 sharded pub/sub with a channel per room: a message to a user reaches only the instances where
 * that user has a socket, not every instance. Older Redis gets the classic adapter.
 */
export function chooseRedisAdapter(wanted: AppConfig['socketRedisAdapter'], serverInfo: string): 'sharded' | 'classic' {
  const major = Number(/redis_version:(\d+)/.exec(serverInfo)?.[1] ?? 0);
  if (wanted === 'classic' || (wanted === 'auto' && major < 7)) return 'classic';
  if (major < 7) {
    throw new ConfigError(`SOCKET_REDIS_ADAPTER=sharded needs Redis 7 or later (sharded pub/sub); this server reports ${major || 'an unknown version'}. Use auto or classic.`);
  }
  return 'sharded';
}

/** Socket.IO on the API server; with REDIS_URL the Redis adapter carries events between instances. */
export async function createRealtime(httpServer: HttpServer, config: AppConfig, services: Services, logger: Logger) {
  const io = new Server(httpServer, {
    cors: { origin: config.corsOrigins, credentials: true },
    maxHttpBufferSize: 64 * 1024,
  });
  const closers: Array<() => Promise<unknown>> = [];
  if (config.redisUrl) {
    // No per-command timeout: node-redis arms a 5 s AbortSignal timer for every command by default, and at
    // thousands of publishes a second those timers (each alive 5 s) filled the old generation and caused
    // the long garbage-collection pauses of the chat bench. A periodic PING notices a dead connection instead.
    const pub = createClient({ url: config.redisUrl, commandOptions: { timeout: 0 }, pingInterval: REDIS_PING_INTERVAL_MS });
    const sub = pub.duplicate();
    pub.on('error', (error) => logger.error('redis publisher error', error));
    sub.on('error', (error) => logger.error('redis subscriber error', error));
    await Promise.all([pub.connect(), sub.connect()]);
    closers.push(() => pub.quit(), () => sub.quit());
    try {
      const mode = chooseRedisAdapter(config.socketRedisAdapter, await pub.info('server'));
      logger.info(`socket.io: ${mode} Redis adapter`);
      io.adapter(mode === 'sharded' ? createShardedAdapter(pub, sub, { subscriptionMode: 'dynamic' }) : createAdapter(pub, sub, { requestsTimeout: 2000 }));
      await services.changes.connect({ publisher: pub, subscriber: sub });
    } catch (error) {
      await Promise.allSettled(closers.map((close) => close()));
      throw error;
    }
  }
  const chatSocket = attachChatSocket(io, {
    auth: services.auth,
    chat: services.chat,
    changes: services.changes,
    logger,
    clustered: Boolean(config.redisUrl),
    sessionCheckMs: config.socketSessionCheckMs,
  });
  return {
    io,
    async close() {
      chatSocket.shutdown();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
}
