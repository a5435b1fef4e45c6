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

describe('cached token lookups across instances', () => {
  it('refuses a token on the other instance, within a Redis round trip, after logout or a password reset', async () => {
    const cluster = await startTwoInstancesOnRedis(longCache);
    const { one, two } = cluster;
    try {
      const onTwo = async (token: string) => (await two.api('GET', '/api/tickets/mine', { token })).status;
      const out = await one.createUser('farout');
      expect(await onTwo(out.token)).toBe(200);
      expect((await one.api('POST', '/api/auth/logout', { token: out.token })).status).toBe(200);
      await expect.poll(() => onTwo(out.token), { timeout: 2000, interval: 20 }).toBe(401);

      const reset = await one.createUser('farreset');
      expect(await onTwo(reset.token)).toBe(200);
      await resetPasswordThroughMail(one, 'farreset@example.com', 'a-new-password-2');
      await expect.poll(() => onTwo(reset.token), { timeout: 2000, interval: 20 }).toBe(401);
    } finally {
      await cluster.close();
    }
  }, 120_000);
});
