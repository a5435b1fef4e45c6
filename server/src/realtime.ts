import type { Server as HttpServer } from 'node:http';
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import { Server } from 'socket.io';
import { ConfigError, type AppConfig } from './config.js';
import type { Logger } from './lib/logger.js';
import type { RedisConnection } from './lib/redis.js';
import { attachChatSocket } from './modules/chat/index.js';
import { attachPaymentUpdates } from './modules/checkout/index.js';
import type { Services } from './app.js';

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

/**
 * Socket.IO on the API server; with REDIS_URL the Redis adapter carries events between instances. The
 * connection is the server's (server.ts), which also closes it.
 */
export async function createRealtime(httpServer: HttpServer, config: AppConfig, services: Services, logger: Logger, redis?: RedisConnection) {
  const io = new Server(httpServer, {
    cors: { origin: config.corsOrigins, credentials: true },
    maxHttpBufferSize: 64 * 1024,
  });
  if (redis) {
    const mode = chooseRedisAdapter(config.socketRedisAdapter, await redis.publisher.info('server'));
    logger.info(`socket.io: ${mode} Redis adapter`);
    const { publisher: pub, subscriber: sub } = redis;
    io.adapter(mode === 'sharded' ? createShardedAdapter(pub, sub, { subscriptionMode: 'dynamic' }) : createAdapter(pub, sub, { requestsTimeout: 2000 }));
    await services.changes.connect({ publisher: pub, subscriber: sub });
  }
  const chatSocket = attachChatSocket(io, {
    auth: services.auth,
    chat: services.chat,
    changes: services.changes,
    logger,
    clustered: Boolean(redis),
    sessionCheckMs: config.socketSessionCheckMs,
  });
  // The payment dialog's push of its result (its own namespace, no login: guests follow their checkout too).
  const paymentUpdates = attachPaymentUpdates(io, { payments: services.payments, logger });
  return {
    io,
    async close() {
      paymentUpdates.close();
      chatSocket.shutdown();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
