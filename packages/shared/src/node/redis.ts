import { MemoryStore, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { createClient, ErrorReply } from 'redis';

/** How often the subscriber's idle connection is checked (it sends no commands of its own to notice a dead one). */
const SUBSCRIBER_PING_INTERVAL_MS = 10_000;
/** Connection attempts at start (about 5 s in all, for a Redis starting alongside) before the start fails. */
const START_ATTEMPTS = 10;
/** REDIS_COMMAND_TIMEOUT_MS's default: how long Redis may leave a command unanswered before it counts as down. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 1000;

/** The one command a shared counter needs: node-redis's raw `sendCommand` (rate-limit-redis takes the same). */
export interface RedisCommands {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * Redis could not answer: not connected, the connection dropped, or it left a command unanswered past the
 * command timeout. Every user of `redisCommands` gets this one type, whatever node-redis called it, and
 * decides what an outage means for it (docs/decisions/scale-out.md, "Redis outage"). A reply Redis sent
 * (an error reply such as NOSCRIPT) is not an outage and keeps its own type.
 */
export class RedisUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`Redis is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RedisUnavailableError';
  }
}

export const isRedisUnavailable = (error: unknown): error is RedisUnavailableError => error instanceof RedisUnavailableError;

/** What the watchdog needs of a node-redis client. */
interface WatchedClient extends RedisCommands {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  destroy(): void;
  connect(): Promise<unknown>;
  on(event: 'end', listener: () => void): unknown;
}

/**
 * A node-redis client as both services open it, for commands (`subscriber`: for subscriptions).
 *
 * An outage must never hold a request, nor let it go on later: with node-redis's defaults a command sent
 * while Redis was away waited in an offline queue and ran when Redis came back, minutes later, after the
 * buyer had been told to try again (a seat hold and an M-Pesa prompt nobody expected). So:
 * - no offline queue: a command sent while the connection is down fails at once;
 * - a hung Redis (alive but answering nothing: a long script, a paused or swapped-out server, a lost network)
 *   is noticed by a watchdog PING answered within `commandTimeoutMs`; past that the connection is dropped and
 *   opened again, which fails every command waiting on it (Socket.IO's adapter's publishes too, so local
 *   delivery goes on). A command thus waits at most about twice the timeout.
 * No per-command timer: node-redis's own command timeout arms an AbortSignal timer per command, and at
 * thousands of commands a second those timers (each alive for the timeout) filled the old generation and
 * caused long garbage-collection pauses (the chat bench); the watchdog is one timer per connection.
 *
 * The subscriber keeps node-redis's offline queue: its only commands are (re)subscriptions, which must
 * reach Redis when it is back, and it blocks nothing while Redis is away, so it has no watchdog either.
 *
 * Reconnects: node-redis would retry the first connection for ever, so a wrong REDIS_URL left a start hanging
 * without a word; here `connect()` rejects after a few attempts, and once connected a lost connection is
 * retried with a growing pause (at most 3 s) for as long as it takes.
 */
export function createRedisClient(url: string, options: { commandTimeoutMs: number; subscriber?: boolean; onUnresponsive?: (error: Error) => void }) {
  let connected = false;
  const client = createClient({
    url,
    commandOptions: { timeout: 0 },
    disableOfflineQueue: !options.subscriber,
    ...(options.subscriber ? { pingInterval: SUBSCRIBER_PING_INTERVAL_MS } : {}),
    socket: {
      reconnectStrategy: (retries: number, cause: Error) => (connected || retries < START_ATTEMPTS ? Math.min((retries + 1) * 100, 3000) : cause),
    },
  });
  client.once('ready', () => {
    connected = true;
  });
  if (!options.subscriber) watchResponsiveness(client, options.commandTimeoutMs, options.onUnresponsive);
  return client;
}

/**
 * Every `timeoutMs / 2` a PING, unless one is still out; one out for `timeoutMs` means Redis stopped
 * answering, and the connection is dropped and opened again (node-redis fails the commands waiting on it).
 * A reply that has arrived but is not read yet (this process's own event loop stalled longer than the
 * timeout) is read in the poll phase before `setImmediate` runs: only a PING still out after that counts.
 */
function watchResponsiveness(client: WatchedClient, timeoutMs: number, onUnresponsive?: (error: Error) => void): void {
  let probe: number | undefined;
  const timer = setInterval(
    () => {
      if (!client.isReady) {
        probe = undefined;
        return;
      }
      if (probe === undefined) {
        const sentAt = performance.now();
        probe = sentAt;
        const settled = () => {
          if (probe === sentAt) probe = undefined;
        };
        client.sendCommand(['PING']).then(settled, settled);
        return;
      }
      const sentAt = probe;
      if (performance.now() - sentAt < timeoutMs) return;
      setImmediate(() => {
        if (probe !== sentAt || !client.isOpen) return;
        probe = undefined;
        onUnresponsive?.(new Error(`Redis left a PING unanswered for ${Math.round(performance.now() - sentAt)} ms; reconnecting`));
        // destroy() fails every waiting command at once; connect() starts over with the reconnect strategy.
        client.destroy();
        client.connect().catch((error: unknown) => onUnresponsive?.(error instanceof Error ? error : new Error(String(error))));
      });
    },
    Math.max(10, Math.floor(timeoutMs / 2)),
  );
  timer.unref();
  client.on('end', () => {
    // A quit or a destroy by its owner ends the watch; the watchdog's own destroy connects again at once.
    setImmediate(() => {
      if (!client.isOpen) clearInterval(timer);
    });
  });
}

/**
 * Error replies that mean "not now" rather than "wrong command": still loading its data after a restart, busy
 * with a script past its time limit, a replica or a cluster without its primary, refusing writes.
 */
const OUTAGE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|MISCONF|CLUSTERDOWN|TRYAGAIN|OOM)\b/;

/**
 * The client's commands, with every failure that is not a reply from Redis (and every "not now" reply) turned
 * into a RedisUnavailableError, so each caller can tell an outage apart from a bug and choose its fallback.
 */
export function redisCommands(client: RedisCommands): RedisCommands {
  return {
    async sendCommand(args) {
      try {
        return await client.sendCommand(args);
      } catch (error) {
        if (error instanceof ErrorReply && !OUTAGE_REPLIES.test(error.message)) throw error;
        throw new RedisUnavailableError(error);
      }
    },
  };
}

/**
 * What a rate limit counted in Redis does while Redis is unavailable:
 * - `count-locally`: counts in this process's memory until Redis answers again (a budget per instance
 *   meanwhile: N instances give N times the budget for the outage, better than no login at all);
 * - a function: refuses the request with the error it makes (fail closed: what must never go uncounted,
 *   such as M-Pesa prompts sent to someone's phone).
 */
export type WhenRedisUnavailable = 'count-locally' | ((error: RedisUnavailableError) => Error);

/**
 * An express-rate-limit store counting in Redis under `prefix` (keys expire with their window): one budget for
 * every instance. `redis` should come from `redisCommands`, so an outage is a RedisUnavailableError and
 * `whenUnavailable` applies.
 */
export function redisRateLimitStore(redis: RedisCommands, prefix: string, whenUnavailable: WhenRedisUnavailable): Store {
  const shared = new RedisStore({ sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply>, prefix });
  const local = whenUnavailable === 'count-locally' ? new MemoryStore() : undefined;
  async function either<T>(onShared: () => Promise<T>, onLocal: (store: MemoryStore) => Promise<T>): Promise<T> {
    try {
      return await onShared();
    } catch (error) {
      if (!isRedisUnavailable(error)) throw error;
      if (local) return onLocal(local);
      throw (whenUnavailable as (error: RedisUnavailableError) => Error)(error);
    }
  }
  return {
    prefix,
    localKeys: false,
    init(options: Options) {
      local?.init(options);
      return shared.init(options);
    },
    get: (key) => either(() => shared.get(key), (store) => store.get(key)),
    increment: (key) => either(() => shared.increment(key), (store) => store.increment(key)),
    decrement: (key) => either(() => shared.decrement(key), (store) => store.decrement(key)),
    resetKey: (key) => either(() => shared.resetKey(key), (store) => store.resetKey(key)),
    shutdown: async () => {
      await local?.shutdown();
    },
  };
}

/** Connects the clients together; when one cannot connect, the others are closed and its error is thrown. */
export async function connectAll(clients: Array<{ connect(): Promise<unknown>; isOpen: boolean; destroy(): void }>): Promise<void> {
  const connected = await Promise.allSettled(clients.map((client) => client.connect()));
  const failed = connected.find((result) => result.status === 'rejected');
  if (!failed) return;
  for (const client of clients) if (client.isOpen) client.destroy();
  throw failed.reason;
}
