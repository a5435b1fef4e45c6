import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadPaymentConfig } from '../src/config.js';
import { startPaymentService } from '../src/start.js';
import { INTERNAL_KEY, startStack, type Stack } from './helpers/stack.js';

/*
 * Review items 6 and 7. The offline M-Pesa simulator: each buyer reaches only their own prompt,
 * through an unguessable link in their stkPush answer; the list of every prompt and the id-based
 * actions need SIMULATOR_KEY; its links never handed out with real Daraja. And stkPush's
 * per-account limit counts only tokens the API server verified.
 */

let s: Stack;
let organiser: Awaited<ReturnType<Stack['quickUser']>>;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-sec-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  // The real per-account budget (10), so forged calls would exhaust it if they counted.
  s = await startStack({ serverEnv: { STK_RATE_LIMIT_PER_USER: '10' } });
  organiser = await s.quickUser('organiser');
});
afterAll(async () => {
  await s?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const realCredentials = {
  DARAJA_CONSUMER_KEY: 'real-consumer-key',
  DARAJA_CONSUMER_SECRET: 'real-consumer-secret',
  DARAJA_SHORTCODE: '600999',
  DARAJA_PASSKEY: 'real-passkey',
  DARAJA_CALLBACK_URL: 'https://pay.example.com/api/mpesa/callback',
  DARAJA_BASE_URL: 'http://127.0.0.1:9',
};

const page = (url: string) => fetch(url, { headers: { accept: 'text/html' } });

/** Frees the manual test number (254700000005) for the next test, however this one ended. */
async function releaseManualPrompt(checkoutRequestId: string | undefined) {
  const prompt = checkoutRequestId ? await s.prompt(checkoutRequestId) : undefined;
  if (prompt?.status === 'pending') await s.simApi('POST', `/simulator/prompts/${prompt.id}/cancel`, { body: {}, headers: s.simulatorKey });
}

describe('the simulated phone: one prompt per buyer, the list behind SIMULATOR_KEY', () => {
  it("gives each buyer an unguessable link to their own prompt only, and that page answers it", async () => {
    const victim = await s.quickUser('victimbuyer');
    const other = await s.quickUser('nosybuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 420 });
    const victimPush = await s.stkPush(victim.token, eventId, '254700000005');
    onTestFinished(() => releaseManualPrompt(victimPush.body?.CheckoutRequestID));
    const otherPush = await s.stkPush(other.token, eventId, '254711222333');
    expect(victimPush.status).toBe(200);
    expect(otherPush.status).toBe(200);

    // A link per prompt, with at least 128 random bits (32 base64url characters = 192 bits).
    const linkPattern = new RegExp(`^${s.sim.url}/simulator/prompt/([A-Za-z0-9_-]{32})$`);
    expect(victimPush.body.simulatorUrl).toMatch(linkPattern);
    expect(otherPush.body.simulatorUrl).toMatch(linkPattern);
    expect(otherPush.body.simulatorUrl).not.toBe(victimPush.body.simulatorUrl);

    // The other buyer's page shows their prompt, nothing of the victim's.
    const otherPage = await (await page(otherPush.body.simulatorUrl)).text();
    expect(otherPage).toContain('254711222333');
    expect(otherPage).not.toContain('254700000005');
    expect(otherPage).not.toContain(victimPush.body.CheckoutRequestID);
    expect(otherPage).not.toContain(new URL(victimPush.body.simulatorUrl).pathname);

    // A made-up link finds nothing and answers nothing.
    const guessed = `${s.sim.url}/simulator/prompt/${'A'.repeat(32)}`;
    expect((await page(guessed)).status).toBe(404);
    const guessedCancel = await s.simApi('POST', `${new URL(guessed).pathname}/cancel`, { body: {} });
    expect(guessedCancel.status).toBe(404);
    expect(guessedCancel.body).toMatchObject({ msg: expect.any(String), message: expect.any(String) });

    // The victim's own page shows the prompt and pays it (the form posts back to the same link).
    const victimPage = await page(victimPush.body.simulatorUrl);
    expect(victimPage.status).toBe(200);
    expect(victimPage.headers.get('cache-control')).toBe('no-store');
    expect(await victimPage.text()).toContain('KSh 420');
    const paid = await fetch(`${victimPush.body.simulatorUrl}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'pin=2468',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect((await s.waitSettled(victim.token, victimPush.body.CheckoutRequestID)).body).toMatchObject({ success: true, status: 'success' });
  });

  it("needs the simulator key for the list of every prompt (HTML and JSON) and the id-based actions; loopback is not enough", async () => {
    const victim = await s.quickUser('listvictim');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 610 });
    const push = await s.stkPush(victim.token, eventId, '254700000005');
    onTestFinished(() => releaseManualPrompt(push.body?.CheckoutRequestID));
    expect(push.status).toBe(200);
    const prompt = await s.prompt(push.body.CheckoutRequestID);
    expect(prompt).toMatchObject({ phone: '254700000005', status: 'pending' });

    // This test speaks from 127.0.0.1, as every buyer does in the default offline setup.
    for (const key of [undefined, 'wrong-simulator-key-guess', `${s.config.simulator.key}x`]) {
      const headers: Record<string, string> = key ? { 'x-simulator-key': key } : {};
      const html = await fetch(`${s.sim.url}/simulator${key ? `?key=${key}` : ''}`, { headers: { accept: 'text/html' } });
      expect(html.status, `list page with ${key}`).toBe(401);
      const htmlText = await html.text();
      expect(htmlText).not.toContain('254700000005');
      expect(htmlText).not.toContain(push.body.CheckoutRequestID);
      const json = await s.simApi('GET', '/simulator/prompts', { headers });
      expect(json.status, `list JSON with ${key}`).toBe(401);
      expect(json.body).toMatchObject({ msg: expect.stringMatching(/simulator key/), message: expect.stringMatching(/simulator key/) });
      expect(JSON.stringify(json.body)).not.toContain(push.body.CheckoutRequestID);
      // Cancelling someone else's payment by its id.
      const cancel = await s.simApi('POST', `/simulator/prompts/${prompt!.id}/cancel`, { body: {}, headers });
      expect(cancel.status, `cancel with ${key}`).toBe(401);
      const formCancel = await fetch(`${s.sim.url}/simulator/prompts/${prompt!.id}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: '',
        redirect: 'manual',
      });
      expect(formCancel.status).toBe(401);
    }
    expect((await s.prompt(push.body.CheckoutRequestID))?.status).toBe('pending');
    expect((await s.confirm(victim.token, push.body.CheckoutRequestID)).body.status).toBe('pending');

    // With the key (header or ?key=) the developer sees and answers every prompt.
    const withQuery = await page(`${s.sim.url}/simulator?key=${encodeURIComponent(s.config.simulator.key)}`);
    expect(withQuery.status).toBe(200);
    expect(await withQuery.text()).toContain('KSh 610');
    const listed = await s.simApi('GET', '/simulator/prompts', { headers: s.simulatorKey });
    expect(listed.status).toBe(200);
    expect(listed.body.find((p: { checkoutRequestId: string }) => p.checkoutRequestId === push.body.CheckoutRequestID)).toMatchObject({
      promptPath: new URL(push.body.simulatorUrl).pathname,
    });
    const cancelled = await s.simApi('POST', `/simulator/prompts/${prompt!.id}/cancel`, { body: {}, headers: s.simulatorKey });
    expect(cancelled.status).toBe(200);
    expect((await s.waitSettled(victim.token, push.body.CheckoutRequestID)).body.status).toBe('cancelled');
  });

  it('hands out no phone-page link, and serves no phone page, with real Daraja', async () => {
    const dataDir = tempDir();
    const base = { NODE_ENV: 'test', PAYMENT_PORT: '0', DATA_DIR: dataDir, INTERNAL_API_KEY: 'k', CALLBACK_SECRET: 'a-callback-secret-long-enough', RECONCILE_INTERVAL_MS: '0', LOG_LEVEL: 'silent' };
    const real = loadPaymentConfig({ ...base, ...realCredentials });
    expect(real.simulator).toEqual({ enabled: false, key: '' });

    // Even when the Daraja it talks to names a phone page in its answer (here the simulator does), the link is not passed on.
    const payDir = tempDir();
    const notSimulator = await startPaymentService({ ...s.config, port: 0, dataDir: payDir, simulator: real.simulator });
    s.sim.allowCallbacksTo(notSimulator.callbackUrl);
    try {
      for (const route of ['/simulator', '/simulator/prompts', `/simulator/prompt/${'A'.repeat(32)}`, '/simulator/daraja/oauth/v1/generate?grant_type=client_credentials']) {
        expect((await fetch(`${notSimulator.url}${route}`)).status, route).toBe(404);
      }
      expect((await (await fetch(`${notSimulator.url}/api/health`)).json()) as unknown).toMatchObject({ simulator: false });
      // The prompt as the API server's checkout asks for it.
      const askPush = (url: string, phone: string) =>
        fetch(`${url}/internal/stk-push`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-internal-key': INTERNAL_KEY },
          body: JSON.stringify({ orderId: 'a'.repeat(24), amount: 30, phone, accountReference: 'Tukio', transactionDesc: 'Tickets' }),
        });
      const push = await askPush(notSimulator.url, '254711222444');
      const answer = (await push.json()) as Record<string, unknown>;
      expect(push.status).toBe(200);
      expect(answer.checkoutRequestId).toEqual(expect.any(String));
      expect(answer).not.toHaveProperty('simulatorPromptPath');
      // The same push through the service configured for the simulator names its phone page.
      expect(((await (await askPush(s.pay.url, '254711222555')).json()) as Record<string, unknown>).simulatorPromptPath).toMatch(/^\/simulator\/prompt\/[A-Za-z0-9_-]{32}$/);
    } finally {
      await notSimulator.close();
    }
  });
});

describe('stkPush per-account limit (review item 7)', () => {
  it("counts only verified tokens: forged tokens naming a buyer's id do not lock that buyer out", async () => {
    const victim = await s.quickUser('lockedout');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 90 });
    // Ids are public; the signature is not the server's.
    const forged = jwt.sign({ tv: 0 }, 'not-the-server-secret-but-long-enough', { subject: victim.user._id, expiresIn: '1h' });
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: victim.user._id })).toString('base64url')}.`;
    for (let i = 0; i < 12; i++) {
      const res = await s.stkPush(i % 2 ? unsigned : forged, eventId, `2547440000${String(i).padStart(2, '0')}`);
      expect(res.status, `forged call ${i}: ${JSON.stringify(res.body)}`).toBe(401);
      expect(res.body.msg).toMatch(/^Failed to initiate payment/);
    }
    const real = await s.stkPush(victim.token, eventId, '254744000099');
    expect(real.status, JSON.stringify(real.body)).toBe(200);
    expect((await s.waitSettled(victim.token, real.body.CheckoutRequestID)).body.success).toBe(true);
  });
});
