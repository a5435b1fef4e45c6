import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerClosed, sampleValue, slowPost, waitFor } from '../../server/test/helpers/ops.js';
import { freePort } from '../../server/test/helpers/test-server.js';
import { loadPaymentConfig } from '../src/config.js';
import { startPaymentService } from '../src/start.js';
import { startStack, type Stack } from './helpers/stack.js';
import { UNREACHABLE_DARAJA } from './helpers/daraja-simulator.js';

/**
 * The payment service's probes and metrics (docs/decisions/operations.md): a purchase through the
 * Daraja simulator shows up as a push and a callback here, and as a settlement on the API server.
 */

const METRICS_TOKEN = 'test-metrics-token-0123456789';

const scrape = async (base: string, token = METRICS_TOKEN) => {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, text: await res.text() };
};

let s: Stack;
beforeAll(async () => {
  s = await startStack({ serverEnv: { METRICS_TOKEN }, paymentEnv: { METRICS_TOKEN } });
});
afterAll(async () => {
  await s?.close();
});

let phoneCounter = 0;
const freshPhone = () => `2547${String(20_000_000 + phoneCounter++).slice(-8)}`;

describe('payment service probes and metrics', () => {
  it('GET /healthz answers 200 and GET /readyz 200 {status:"ready"} while the API server answers', async () => {
    expect(await s.payApi('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await s.payApi('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('GET /metrics refuses a missing or wrong token with 401', async () => {
    const missing = await s.payApi('GET', '/metrics');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ msg: expect.any(String), message: expect.any(String) });
    const wrong = await scrape(s.pay.url, `${METRICS_TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('stk_pushes_total');
  });

  it("counts a purchase's STK push and callback here, and its settlement on the API server", async () => {
    const organiser = await s.quickUser('metrics-organiser');
    const buyer = await s.quickUser('metrics-buyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 200, capacity: 5 });
    const payBefore = await scrape(s.pay.url);
    const serverBefore = await scrape(s.server.url);
    expect(payBefore.status).toBe(200);
    expect(serverBefore.status).toBe(200);
    const pushesBefore = sampleValue(payBefore.text, 'stk_pushes_total', { outcome: 'sent' });
    const callbacksBefore = sampleValue(payBefore.text, 'stk_callbacks_total', { outcome: 'settled' });
    const settlementsBefore = sampleValue(serverBefore.text, 'payment_settlements_total', { status: 'success' });
    const pushTimesBefore = sampleValue(serverBefore.text, 'payment_push_seconds_count', {});

    const push = await s.stkPush(buyer.token, eventId, freshPhone());
    expect(push.status).toBe(200);
    const settled = await s.waitSettled(buyer.token, push.body.CheckoutRequestID);
    expect(settled.body).toMatchObject({ status: 'success', orderStatus: 'paid' });

    // The callback's answer is counted as it is sent; the buyer's poll may see the result a moment earlier.
    await waitFor(async () => sampleValue((await scrape(s.pay.url)).text, 'stk_callbacks_total', { outcome: 'settled' }) === callbacksBefore + 1, 'the callback to be counted');
    const payAfter = await scrape(s.pay.url);
    expect(sampleValue(payAfter.text, 'stk_pushes_total', { outcome: 'sent' })).toBe(pushesBefore + 1);
    expect(sampleValue(payAfter.text, 'http_requests_total', { method: 'POST', route: '/api/stkPush', status: '200' })).toBeGreaterThanOrEqual(1);
    // The callback's secret path segment is never a label value.
    expect(sampleValue(payAfter.text, 'http_requests_total', { method: 'POST', route: '/api/mpesa/callback/:secret', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(payAfter.text).not.toContain(s.config.callbackSecret);
    expect(payAfter.text).not.toContain(push.body.CheckoutRequestID);
    expect(payAfter.text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);

    const serverAfter = await scrape(s.server.url);
    expect(sampleValue(serverAfter.text, 'payment_settlements_total', { status: 'success' })).toBe(settlementsBefore + 1);
    // The payment service reported the push's whole time with its record (the waiting room's adaptive rate reads the same).
    expect(sampleValue(serverAfter.text, 'payment_push_seconds_count', {})).toBe(pushTimesBefore + 1);
  });

  it('lets a request in flight finish when it shuts down, and tells its client to reconnect elsewhere', async () => {
    const organiser = await s.quickUser('drain-organiser');
    const buyer = await s.quickUser('drain-buyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 150, capacity: 5 });
    const push = await s.stkPush(buyer.token, eventId, freshPhone());
    await s.waitSettled(buyer.token, push.body.CheckoutRequestID);

    // A second instance of the service: its confirmPayment asks the API server (it never saw the push).
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-drain-'));
    const second = await startPaymentService({ ...s.config, port: 0, dataDir });
    let closing: Promise<void> | undefined;
    const confirm = slowPost(second.port, '/api/confirmPayment', { CheckoutRequestID: push.body.CheckoutRequestID }, { authorization: `Bearer ${buyer.token}` });
    try {
      // In flight: this scrape and the confirmation.
      await waitFor(async () => sampleValue((await scrape(second.url)).text, 'http_requests_in_flight') >= 2, 'the confirmation to be in flight');
      closing = second.close();
      await listenerClosed(second.port);
      const response = await confirm.finish();
      expect(response.head).toMatch(/^HTTP\/1\.1 200 /);
      expect(response.head).toMatch(/\r\nconnection: close(\r\n|$)/i);
      expect(response.body).toMatchObject({ success: true, status: 'success', CheckoutRequestID: push.body.CheckoutRequestID });
      await closing;
    } finally {
      confirm.destroy();
      await (closing ?? second.close());
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('payment service on a port already in use', () => {
  it('fails its start with EADDRINUSE, a rejection the caller can report, and leaves the running one alone', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-taken-'));
    try {
      await expect(startPaymentService({ ...s.config, port: s.pay.port, dataDir })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect((await s.payApi('GET', '/healthz')).status).toBe(200);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('payment service without METRICS_TOKEN and without its API server', () => {
  it('answers /metrics 404, /readyz 503 {status:"not-ready", checks:{apiServer:"down"}} with no error text, /healthz 200', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-alone-'));
    const config = loadPaymentConfig({
      NODE_ENV: 'test',
      PAYMENT_PORT: '0',
      DATA_DIR: dataDir,
      // Nothing listens there.
      API_URL: `http://127.0.0.1:${await freePort()}`,
      INTERNAL_API_KEY: 'test-internal-key',
      RECONCILE_INTERVAL_MS: '0',
      LOG_LEVEL: 'silent',
      ...UNREACHABLE_DARAJA,
    });
    const alone = await startPaymentService(config);
    try {
      expect((await fetch(`${alone.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
      const ready = await fetch(`${alone.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'not-ready', checks: { apiServer: 'down' } });
      expect((await fetch(`${alone.url}/healthz`)).status).toBe(200);
    } finally {
      await alone.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
