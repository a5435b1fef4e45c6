import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTtlCache } from '../src/lib/ttl-cache.js';
import { startTwoInstancesOnRedis } from './helpers/test-server.js';

// Libraries review, item 4: limits hold across instances (Redis), caches are bounded (lru-cache).

describe('budgets shared by two API instances on one Redis', () => {
  let cluster: Awaited<ReturnType<typeof startTwoInstancesOnRedis>>;

  beforeAll(async () => {
    // Three failed logins per account and address; a chat burst of three, refilled once in 100 s.
    cluster = await startTwoInstancesOnRedis({ RATE_LIMIT_MAX: '3', CHAT_RATE_BURST: '3', CHAT_RATE_PER_SECOND: '0.01' });
  }, 60_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('a login-failure budget of 3 spent across both instances: the 4th attempt gets 429 on either', async () => {
    const { one, two } = cluster;
    await one.createUser('sharedlogin');
    const wrong = { body: { username: 'sharedlogin', password: 'not-the-password' } };
    for (const instance of [one, two, one]) {
      const res = await instance.api('POST', '/api/auth/login', wrong);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: false });
    }
    for (const instance of [two, one]) {
      const res = await instance.api('POST', '/api/auth/login', wrong);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ status: false, msg: expect.stringMatching(/Too many attempts/) });
    }
  });

  it('a chat budget of 3 spent across both instances: the 4th message gets 429 on either', async () => {
    const { one, two } = cluster;
    const [sender, recipient] = [await one.createUser('sharedsender'), await two.createUser('sharedrecipient')];
    const send = (instance: typeof one, text: string) =>
      instance.api('POST', '/api/messages/addmsg', { token: sender.token, body: { from: sender.user._id, to: recipient.user._id, message: text } });
    for (const [i, instance] of [one, two, one].entries()) expect((await send(instance, `hello ${i}`)).status).toBe(200);
    for (const instance of [two, one]) {
      const res = await send(instance, 'one too many');
      expect(res.status).toBe(429);
      expect(res.body.retryAfterMs).toBeGreaterThan(0);
    }
    const stored = await two.api('POST', '/api/messages/getmsg', { token: recipient.token, body: { from: recipient.user._id, to: sender.user._id } });
    expect(stored.body).toHaveLength(3);
  });
});

describe('ttl-cache bounds', () => {
  it('bounded by size, it evicts the least recently used entry', () => {
    const cache = createTtlCache<string>({ ttlMs: 60_000, max: 100, maxBytes: 100, sizeOf: (value) => value.length });
    cache.set('a', 'a'.repeat(40));
    cache.set('b', 'b'.repeat(40));
    expect(cache.get('a')).toBeDefined(); // a is now used more recently than b
    cache.set('c', 'c'.repeat(40)); // 120 > 100: one entry must go
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('a'.repeat(40));
    expect(cache.get('c')).toBe('c'.repeat(40));
    // An entry larger than the whole bound is not kept, and evicts nothing.
    cache.set('huge', 'h'.repeat(101));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
  });

  it('bounded by count, it also evicts the least recently used entry, not the oldest', () => {
    const cache = createTtlCache<number>({ ttlMs: 60_000, max: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });
});
