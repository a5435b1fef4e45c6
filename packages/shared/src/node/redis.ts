import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { createClient } from 'redis';

/** How often an idle connection is checked (instead of a timer per command). */
const REDIS_PING_INTERVAL_MS = 10_000;
/** Connection attempts at start (about 5 s in all, for a Redis starting alongside) before the start fails. */
const START_ATTEMPTS = 10;

/** The one command a shared counter needs: node-redis's raw `sendCommand` (rate-limit-redis takes the same). */
export interface RedisCommands {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * A node-redis client as both services open it. No per-command timeout: node-redis arms a 5 s AbortSignal
 * timer for every command by default, and at thousands of commands a second those timers (each alive 5 s)
 * filled the old generation and caused long garbage-collection pauses (the chat bench). A periodic PING
 * notices a dead connection instead. Reconnects: node-redis would retry the first connection for ever, so a
 * wrong REDIS_URL left a start hanging without a word; here `connect()` rejects after a few attempts, and
 * once connected a lost connection is retried with a growing pause (at most 3 s) for as long as it takes.
 */
export function createRedisClient(url: string) {
  let connected = false;
  const client = createClient({
    url,
    commandOptions: { timeout: 0 },
    pingInterval: REDIS_PING_INTERVAL_MS,
    socket: {
      reconnectStrategy: (retries: number, cause: Error) => (connected || retries < START_ATTEMPTS ? Math.min((retries + 1) * 100, 3000) : cause),
    },
  });
  client.once('ready', () => {
    connected = true;
  });
  return client;
}

/** An express-rate-limit store counting in Redis under `prefix` (keys expire with their window): one budget for every instance. */
export function redisRateLimitStore(redis: RedisCommands, prefix: string): RedisStore {
  return new RedisStore({ sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply>, prefix });
}

/** Connects the clients together; when one cannot connect, the others are closed and its error is thrown. */
export async function connectAll(clients: Array<{ connect(): Promise<unknown>; isOpen: boolean; destroy(): void }>): Promise<void> {
  const connected = await Promise.allSettled(clients.map((client) => client.connect()));
  const failed = connected.find((result) => result.status === 'rejected');
  if (!failed) return;
  for (const client of clients) if (client.isOpen) client.destroy();
  throw failed.reason;
}
