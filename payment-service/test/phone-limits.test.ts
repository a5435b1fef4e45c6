import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentService, type RunningPaymentService } from '../src/start.js';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * Prompts to a stranger's phone: the per-account budget counts each account apart, so new accounts could keep
 * prompting one phone. The per-phone budget counts every push to a phone, guests and accounts together, on
 * every payment instance (Redis); and an account has a daily budget beside its short window.
 */

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
let s: Stack;
let second: RunningPaymentService;
let secondDir: string;
let organiser: Awaited<ReturnType<Stack['quickUser']>>;

beforeAll(async () => {
  s = await startStack({
    // The budgets are the API server's: counted in its Redis, whichever payment instance a section-7 client calls.
    serverEnv: {
      REDIS_URL,
      // Its own key prefix: counts of other runs sharing this Redis stay apart.
      REDIS_KEY_PREFIX: `tukio-test-${randomUUID()}:`,
      STK_RATE_LIMIT_PER_USER: '100',
      STK_RATE_LIMIT_PER_IP: '100',
      STK_RATE_LIMIT_PER_PHONE: '3',
      STK_RATE_LIMIT_PER_USER_DAY: '4',
    },
  });
  secondDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-second-'));
  second = await startPaymentService({ ...s.config, port: 0, dataDir: secondDir });
  s.sim.allowCallbacksTo(second.callbackUrl);
  organiser = await s.quickUser('phonelimitsorganiser');
}, 180_000);
afterAll(async () => {
  await second?.close();
  await s?.close();
  if (secondDir) rmSync(secondDir, { recursive: true, force: true });
});

async function pushThrough(instance: { url: string }, token: string | undefined, eventId: string, phone: string) {
  const response = await fetch(`${instance.url}/api/stkPush`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ phone, amount: 1, Order_ID: `${eventId}_${phone}` }),
  });
  return { status: response.status, body: (await response.json()) as { msg?: string; code?: string; CheckoutRequestID?: string } };
}

/** Pushes and waits until its prompt is answered, so the next push to the same phone is not refused as pending (1001). */
async function pushAndSettle(instance: { url: string }, token: string | undefined, eventId: string, phone: string) {
  const push = await pushThrough(instance, token, eventId, phone);
  expect(push.status, JSON.stringify(push.body)).toBe(200);
  const settled = await s.waitSettled(token ?? '', push.body.CheckoutRequestID!, 20_000);
  expect(settled.status).toBe(200);
}

describe('stkPush budget per destination phone', () => {
  it('counts guests and every account together, on every instance', { timeout: 120_000 }, async () => {
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 20 });
    const phone = '254733200001';
    const [first, other, third] = [await s.quickUser('phoneone'), await s.quickUser('phonetwo'), await s.quickUser('phonethree')];
    await pushAndSettle(s.pay, first.token, eventId, phone);
    await pushAndSettle(second, other.token, eventId, phone);
    await pushAndSettle(s.pay, undefined, eventId, phone);
    // Three prompts reached the phone: a fourth asker, new account or guest, on either instance, is refused.
    for (const [instance, token] of [[second, third.token], [s.pay, undefined]] as const) {
      const refused = await pushThrough(instance, token, eventId, phone);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'too_many_prompts_to_phone' });
      expect(refused.body.msg).toBe('Failed to initiate payment: this phone has been sent too many M-Pesa prompts. Please wait a while and try again.');
    }
    // The same accounts can still pay with their own phones.
    await pushAndSettle(second, third.token, eventId, '254733200002');
  });
});

describe('stkPush daily budget per account', () => {
  it('refuses an account after its daily number of pushes, whichever phones and instances', { timeout: 120_000 }, async () => {
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 20 });
    const buyer = await s.quickUser('dailybuyer');
    for (const [index, instance] of [s.pay, second, s.pay, second].entries()) await pushAndSettle(instance, buyer.token, eventId, `25473330000${index}`);
    const refused = await pushThrough(s.pay, buyer.token, eventId, '254733300009');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'daily_payment_attempts_used' });
    expect(refused.body.msg).toBe('Failed to initiate payment: you have started too many payments today. Please try again tomorrow.');
    // Another account is not affected.
    await pushAndSettle(second, (await s.quickUser('dailyother')).token, eventId, '254733300009');
  });
});
