import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentService, type RunningPaymentService } from '../src/start.js';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * Two payment instances behind one balancer: the stkPush budgets per account and per address are the API
 * server's, counted in its Redis (REDIS_URL), so a buyer (or a script phone-spamming prompts) gains nothing
 * from being sent to the other instance's section-7 /api/stkPush.
 */

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
let s: Stack;
let second: RunningPaymentService;
let secondDir: string;
let organiser: Awaited<ReturnType<Stack['quickUser']>>;

beforeAll(async () => {
  s = await startStack({
    // Its own key prefix: counts of other runs sharing this Redis stay apart.
    serverEnv: { REDIS_URL, REDIS_KEY_PREFIX: `tukio-test-${randomUUID()}:`, STK_RATE_LIMIT_PER_USER: '2', STK_RATE_LIMIT_PER_IP: '5' },
  });
  secondDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-second-'));
  second = await startPaymentService({ ...s.config, port: 0, dataDir: secondDir });
  s.sim.allowCallbacksTo(second.callbackUrl);
  organiser = await s.quickUser('sharedlimitsorganiser');
}, 60_000);
afterAll(async () => {
  await second?.close();
  await s?.close();
  if (secondDir) rmSync(secondDir, { recursive: true, force: true });
});

async function pushThrough(instance: { url: string }, token: string, eventId: string, phone: string) {
  const response = await fetch(`${instance.url}/api/stkPush`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ phone, amount: 1, Order_ID: `${eventId}_${phone}` }),
  });
  return { status: response.status, body: (await response.json()) as { msg?: string } };
}

describe('stkPush limits across payment instances', () => {
  it('count an account and an address once, whichever instance a push reaches', async () => {
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 50 });
    const first = await s.quickUser('sharedbuyerone');
    expect((await pushThrough(s.pay, first.token, eventId, '254733100001')).status).toBe(200);
    expect((await pushThrough(second, first.token, eventId, '254733100002')).status).toBe(200);
    // The account's budget of 2 is spent on the two instances together.
    const refused = await pushThrough(s.pay, first.token, eventId, '254733100003');
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/too many payment attempts/);

    // The address's budget of 5 too: 3 requests so far, 2 more from another account, then the address is refused.
    const other = await s.quickUser('sharedbuyertwo');
    expect((await pushThrough(second, other.token, eventId, '254733100004')).status).toBe(200);
    expect((await pushThrough(s.pay, other.token, eventId, '254733100005')).status).toBe(200);
    const third = await s.quickUser('sharedbuyerthree');
    expect((await pushThrough(second, third.token, eventId, '254733100006')).status).toBe(429);
  });
});
