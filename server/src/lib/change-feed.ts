import { randomUUID } from 'node:crypto';
import type { Logger } from './logger.js';

/**
 * What changed, by id (null = possibly every one): `event` for an event's own fields or status,
 * `event-tickets` for tickets issued for it (seats, registered users), `user` for an account
 * (token version, password, profile, verification), keyed by user id.
 */
const TOPICS = ['event', 'event-tickets', 'user'] as const;
export type ChangeTopic = (typeof TOPICS)[number];
const isTopic = (value: unknown): value is ChangeTopic => TOPICS.includes(value as ChangeTopic);
type Handler = (id: string | null) => void;

/** The part of a Redis client the feed needs (node-redis v4+: a publisher and a subscriber connection). */
export interface RedisPubSub {
  publisher: { publish(channel: string, message: string): Promise<unknown> };
  subscriber: { subscribe(channel: string, listener: (message: string) => void): Promise<unknown> };
}

const CHANNEL = 'tukio:changes';

/**
 * Tells the in-process caches that data changed. Every publish reaches this instance's subscribers at
 * once; with Redis connected it also reaches every other API instance, so a cache there forgets the
 * change within a round trip instead of waiting out its time to live.
 */
export function createChangeFeed(logger?: Logger) {
  const handlers = new Map<ChangeTopic, Set<Handler>>();
  const origin = randomUUID();
  let redis: RedisPubSub['publisher'] | undefined;

  function deliver(topic: ChangeTopic, id: string | null) {
    for (const handler of handlers.get(topic) ?? []) handler(id);
  }

  return {
    publish(topic: ChangeTopic, id: string | null) {
      deliver(topic, id);
      redis?.publish(CHANNEL, JSON.stringify({ origin, topic, id })).catch((error: unknown) => logger?.error('change feed publish failed', error));
    },

    subscribe(topic: ChangeTopic, handler: Handler) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      set.add(handler);
    },

    /** Joins the instances sharing this Redis; a message from this instance itself was delivered already. */
    async connect(clients: RedisPubSub) {
      await clients.subscriber.subscribe(CHANNEL, (message) => {
        try {
          const parsed = JSON.parse(message) as { origin?: unknown; topic?: unknown; id?: unknown };
          if (parsed.origin === origin || !isTopic(parsed.topic)) return;
          deliver(parsed.topic, typeof parsed.id === 'string' ? parsed.id : null);
        } catch {
          logger?.info('change feed: ignored a malformed message');
        }
      });
      redis = clients.publisher;
    },
  };
}

export type ChangeFeed = ReturnType<typeof createChangeFeed>;
