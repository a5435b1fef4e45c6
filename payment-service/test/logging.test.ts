import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type LogLine } from '../../server/test/helpers/log-capture.js';
import { loadPaymentConfig } from '../src/config.js';
import { startPaymentService } from '../src/start.js';
import { CALLBACK_SECRET, INTERNAL_KEY, startStack, type Stack } from './helpers/stack.js';
import { freePort } from './helpers/processes.js';
import { UNREACHABLE_DARAJA } from './helpers/daraja-simulator.js';

/**
 * One purchase followed across both services by its request id (docs/decisions/logging.md): the
 * browser's request reaches the API server's /pay proxy (/pay/stkPush → /api/stkPush), the payment service, and the API server's
 * internal endpoints again, all under one X-Request-Id; Daraja's callback and the settlement it
 * causes share the callback's id. No phone number, token or key is in any line.
 */

let s: Stack;
let logs: ReturnType<typeof captureLogs>;

beforeAll(async () => {
  logs = captureLogs();
  // The API server's checkout must reach this stack's payment service: a port known up front.
  const paymentPort = await freePort();
  s = await startStack({
    serverEnv: { LOG_LEVEL: 'info', PAYMENT_URL: `http://127.0.0.1:${paymentPort}` },
    paymentEnv: { LOG_LEVEL: 'info', PAYMENT_PORT: String(paymentPort) },
  });
}, 180_000);

afterAll(async () => {
  logs?.restore();
  await s?.close();
});

const linesOf = (requestId: string, service: 'tukio' | 'payments') => logs.lines().filter((line) => line.requestId === requestId && line.name === service);
const routes = (lines: LogLine[]) => lines.map((line) => line.msg);

describe('one purchase in both logs', () => {
  it('carries the buyer request id through the API server, the payment service and back, and the callback id through settlement', async () => {
    const organiser = await s.quickUser('logorganiser');
    const buyer = await s.quickUser('logbuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 200, capacity: 5 });
    const phone = '254712345678';
    const requestId = 'purchase-0001-logging';

    const push = await fetch(`${s.server.url}/pay/stkPush`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}`, 'x-request-id': requestId },
      body: JSON.stringify({ phone, amount: 1, Order_ID: `${eventId}_${phone}` }),
    });
    const body = (await push.json()) as { CheckoutRequestID: string };
    expect(push.status).toBe(200);
    expect(push.headers.get('x-request-id')).toBe(requestId);

    // The browser's request as the API server logged it, and the prompt it asked the payment service for, under the same id.
    expect(routes(linesOf(requestId, 'tukio'))).toContain('POST /pay/stkPush 200');
    expect(routes(linesOf(requestId, 'payments'))).toContain('POST /internal/stk-push 200');

    await s.waitPromptDone(body.CheckoutRequestID);
    expect((await s.waitSettled(buyer.token, body.CheckoutRequestID)).body.status).toBe('success');
    // Daraja's callback has an id of its own; the settlement it causes on the API server carries it (a batch of
    // one: nothing else was being settled).
    // Its log line is written once the callback is answered, which can be just after the settlement shows.
    const callbackLine = () => logs.lines().find((line) => line.name === 'payments' && line.msg === 'POST /api/mpesa/callback/:secret 200');
    await expect.poll(() => callbackLine()?.requestId).toBeTruthy();
    const callback = callbackLine();
    expect(routes(linesOf(callback!.requestId!, 'tukio'))).toEqual(expect.arrayContaining([expect.stringMatching(/^POST \/api\/internal\/payments\/settle\/batch 200$/)]));

    const text = logs.text();
    for (const [name, secret] of Object.entries({ phone, token: buyer.token, INTERNAL_KEY, CALLBACK_SECRET })) {
      expect(text, name).not.toContain(secret);
    }
  });
});

describe('5xx answers of the payment service', () => {
  it('carry the request id in the body and the header, and on the log line', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-logging-'));
    // Nothing listens at API_URL: the buyer's push cannot be checked, a 503.
    const pay = await startPaymentService(
      loadPaymentConfig({
        NODE_ENV: 'test',
        PAYMENT_PORT: '0',
        DATA_DIR: dataDir,
        API_URL: `http://127.0.0.1:${await freePort()}`,
        INTERNAL_API_KEY: INTERNAL_KEY,
        CALLBACK_SECRET,
        RECONCILE_INTERVAL_MS: '0',
        LOG_LEVEL: 'info',
        ...UNREACHABLE_DARAJA,
      }),
    );
    try {
      const requestId = 'unreachable-api-0002';
      const res = await fetch(`${pay.url}/api/stkPush`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer some-token-value', 'x-request-id': requestId },
        body: JSON.stringify({ phone: '254712345679', amount: 1, Order_ID: `${'f'.repeat(24)}_254712345679` }),
      });
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(503);
      expect(res.headers.get('x-request-id')).toBe(requestId);
      expect(body).toMatchObject({ msg: expect.any(String), message: body.msg, requestId });
      const lines = linesOf(requestId, 'payments');
      expect(lines.filter((line) => line.level === 'error').map((line) => line.msg)).toContain('POST /api/stkPush 503');
      expect(logs.text()).not.toContain('254712345679');
      expect(logs.text()).not.toContain('some-token-value');
    } finally {
      await pay.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
