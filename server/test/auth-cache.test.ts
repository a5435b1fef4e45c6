import { describe, expect, it } from 'vitest';
import { startTestServer, startTwoInstancesOnRedis, resetPasswordThroughMail } from './helpers/test-server.js';

// A bearer token's user lookup is served from memory (AUTH_CACHE_MS). A time to live far longer than
// any test makes sure that a token refused here was refused because the change feed dropped the
// entry, not because it expired.
const longCache = { AUTH_CACHE_MS: '300000' };

describe('cached token lookups on one instance', () => {
  it('refuses a token at once after logout or a password reset, and shows a new username at once', async () => {
    const t = await startTestServer(longCache);
    try {
      const mine = (token: string) => t.api('GET', '/api/tickets/mine', { token });
      const out = await t.createUser('cachedout');
      expect((await mine(out.token)).status).toBe(200);
      expect((await mine(out.token)).status).toBe(200);
      expect((await t.api('POST', '/api/auth/logout', { token: out.token })).status).toBe(200);
      expect((await mine(out.token)).status).toBe(401);

      const reset = await t.createUser('cachedreset');
      expect((await mine(reset.token)).status).toBe(200);
      await resetPasswordThroughMail(t, 'cachedreset@example.com', 'a-new-password-1');
      expect((await mine(reset.token)).status).toBe(401);
      const again = await t.login('cachedreset', 'a-new-password-1');
      expect((await mine(again.token)).status).toBe(200);

      // The caller's name as the server knows it (req.user) follows a rename at once.
      const renamed = await t.createUser('cachedname');
      expect((await t.api('PUT', `/api/auth/user/${renamed.user._id}`, { token: renamed.token, body: { username: 'cachedname2' } })).status).toBe(200);
      const found = await t.api('GET', `/api/auth/user/${renamed.user._id}`, { token: renamed.token });
      expect(found.status).toBe(200);
      expect(found.body.user.username).toBe('cachedname2');
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('token lookups that miss the cache together', () => {
  it('gives each of many requests at once its own user, and refuses a revoked token among them', async () => {
    // No cache: every request looks its user up, and those of the same moment share one query.
    const t = await startTestServer({ AUTH_CACHE_MS: '0' });
    try {
      const people = await Promise.all(Array.from({ length: 12 }, (_, i) => t.createUser(`together${i}`)));
      const gone = people[5]!;
      expect((await t.api('POST', '/api/auth/logout', { token: gone.token })).status).toBe(200);
      // Each reads their own profile (allowed to themselves only) and their neighbour's (refused), all at once.
      const reads = people.flatMap((person, i) => [
        { token: person.token, id: person.user._id, expected: person === gone ? 401 : 200 },
        { token: person.token, id: people[(i + 1) % people.length]!.user._id, expected: person === gone ? 401 : 403 },
      ]);
      const answers = await Promise.all(reads.map((read) => t.api('GET', `/api/auth/user/${read.id}`, { token: read.token })));
      answers.forEach((answer, i) => {
        expect(answer.status, `read ${i}`).toBe(reads[i]!.expected);
        if (answer.status === 200) expect(answer.body.user._id).toBe(reads[i]!.id);
      });
      // Requests are served in turn, so those above may not have shared a query; lookups made in the same
      // instant do (the first few go alone, the rest together).
      const lookups = await Promise.all([...people, ...people].map((person) => t.services.auth.authenticate(person.token)));
      expect(lookups.map((user) => user?.id)).toEqual([...people, ...people].map((person) => (person === gone ? undefined : person.user._id)));
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('cached token lookups across instances', () => {
  it('refuses a token on the other instance, within a Redis round trip, after logout or a password reset', async () => {
    const cluster = await startTwoInstancesOnRedis(longCache);
    const { one, two } = cluster;
    try {
      const onTwo = async (token: string) => (await two.api('GET', '/api/tickets/mine', { token })).status;
      const out = await one.createUser('farout');
      expect(await onTwo(out.token)).toBe(200);
      expect((await one.api('POST', '/api/auth/logout', { token: out.token })).status).toBe(200);
      await expect.poll(() => onTwo(out.token), { timeout: 10_000, interval: 20 }).toBe(401);

      const reset = await one.createUser('farreset');
      expect(await onTwo(reset.token)).toBe(200);
      await resetPasswordThroughMail(one, 'farreset@example.com', 'a-new-password-2');
      await expect.poll(() => onTwo(reset.token), { timeout: 10_000, interval: 20 }).toBe(401);
    } finally {
      await cluster.close();
    }
  }, 120_000);
});
