import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentProxyKey } from '../src/modules/payment-proxy/payment-proxy.js';
import { createEvent } from './helpers/events.js';
import { errorBodyProblems, jsonRequest, quiesce, rawRequest } from './helpers/security.js';
import { freePort, startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The browser reaches the payment service through the API server, same-origin, whatever
 * PAYMENT_PORT is: /pay/* → its /api/*, /simulator/* → the Daraja simulator's phone pages
 * (DARAJA_SIMULATOR_URL). Bodies stream, status and
 * headers pass through, the API server (never the buyer) writes X-Forwarded-*, and the payment
 * service counts each buyer's own address.
 */

/** The payment service lives in its own workspace (outside this tsconfig's rootDir): loaded at run time. */
interface PaymentService {
  url: string;
  port: number;
  callbackUrl: string;
  close(): Promise<void>;
}
interface Simulator {
  url: string;
  paymentEnv: Record<string, string>;
  allowCallbacksTo(url: string): void;
  close(): Promise<void>;
}
type PaymentModules = {
  start: { startPaymentService(config: unknown, overrides?: { host?: string }): Promise<PaymentService> };
  config: { loadPaymentConfig(env: Record<string, string>): unknown };
  simulator: { startTestSimulator(dataDir: string, env?: Record<string, string>): Promise<Simulator> };
};

async function loadPaymentService(): Promise<PaymentModules> {
  const base = new URL('../../payment-service/src/', import.meta.url);
  const [start, config, simulator] = await Promise.all([
    import(new URL('start.ts', base).href),
    import(new URL('config.ts', base).href),
    import(new URL('../test/helpers/daraja-simulator.ts', base).href),
  ]);
  return { start, config, simulator } as PaymentModules;
}

/** A stand-in payment service that records what reaches it and answers as each test tells it. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
function startFakePaymentService(answer: (seen: Seen, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      answer(entry, res);
    });
  });
  return new Promise<{ url: string; seen: Seen[]; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

let t: TestServer;
let pay: PaymentService;
let simulator: Simulator;
let payDataDir: string;
let ipCounter = 0;
/** An address of its own for each buyer (the API server here trusts X-Forwarded-For, as behind a load balancer). */
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  // Neither service on its default port: the API server must follow PAYMENT_PORT.
  const paymentPort = await freePort();
  payDataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-proxy-'));
  const modules = await loadPaymentService();
  simulator = await modules.simulator.startTestSimulator(payDataDir, { SIMULATOR_DELAY_MS: '50' });
  t = await startTestServer({ PAYMENT_PORT: String(paymentPort), TRUST_PROXY: 'true', DARAJA_SIMULATOR_URL: simulator.url });
  pay = await modules.start.startPaymentService(
    modules.config.loadPaymentConfig({
      NODE_ENV: 'test',
      PAYMENT_PORT: String(paymentPort),
      DATA_DIR: payDataDir,
      API_URL: t.url,
      INTERNAL_API_KEY: t.config.internalApiKey,
      CALLBACK_SECRET: 'proxy-test-callback-secret-0123',
      ...simulator.paymentEnv,
      RECONCILE_INTERVAL_MS: '0',
      STK_RATE_LIMIT_PER_IP: '2',
      STK_RATE_LIMIT_PER_USER: '1000',
      STK_RATE_LIMIT_PER_USER_DAY: '1000',
      STK_RATE_LIMIT_PER_PHONE: '1000',
      LOG_LEVEL: 'silent',
    }),
    { host: '127.0.0.1' },
  );
  simulator.allowCallbacksTo(pay.callbackUrl);
}, 120_000);

afterAll(async () => {
  await pay?.close();
  await simulator?.close();
  if (t) {
    await quiesce(t);
    await t.close();
  }
  if (payDataDir) rmSync(payDataDir, { recursive: true, force: true });
});

async function paidEvent(price: number) {
  const organiser = await t.createUser(`org${++ipCounter}`);
  const admin = await t.loginAdmin();
  const event = await createEvent(t, organiser.token, { isPaid: true, ticketPrice: price, capacity: 50 }, { approveWith: admin.token });
  return event._id as string;
}

describe('the payment service through the API server', () => {
  it('a buyer pays through /pay and the simulated phone at /simulator, all on the API server\'s port', async () => {
    expect(pay.port).not.toBe(27684);
    const eventId = await paidEvent(200);
    const buyer = await t.createUser('proxybuyer');
    const from = { 'x-forwarded-for': freshIp() };

    const pushed = await t.api('POST', '/pay/stkPush', {
      token: buyer.token,
      headers: from,
      body: { phone: '0700000005', amount: 1, Order_ID: `${eventId}_254700000005`, quantity: 1 },
    });
    expect(pushed.status).toBe(200);
    expect(pushed.body).toMatchObject({ ResponseCode: '0', amount: 200, quantity: 1 });
    // The buyer's link to their prompt is on the origin they used, not the payment service's port.
    const simulatorUrl = String(pushed.body.simulatorUrl);
    expect(simulatorUrl).toMatch(new RegExp(`^${t.url.replace(/[.]/g, '\\.')}/simulator/prompt/[\\w-]{32}$`));
    const promptPath = new URL(simulatorUrl).pathname;

    const page = await fetch(simulatorUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Do you want to pay KSh 200');
    expect(html).toContain(`action="${promptPath}/pay"`);

    // The phone's form posts back through the proxy and is redirected to the same page.
    const paid = await fetch(`${t.url}${promptPath}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'pin=1234',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(promptPath);

    const checkoutRequestId = String(pushed.body.CheckoutRequestID);
    await expect
      .poll(
        async () => (await t.api('POST', '/pay/confirmPayment', { token: buyer.token, headers: from, body: { CheckoutRequestID: checkoutRequestId } })).body.status,
        { timeout: 20_000, interval: 100 },
      )
      .toBe('success');
    const tickets = await t.api('GET', '/api/tickets/mine', { token: buyer.token });
    expect(tickets.body).toHaveLength(1);

    // The simulator's Daraja protocol is for the payment service alone: /simulator reaches its phone pages only.
    for (const route of ['/simulator/daraja/oauth/v1/generate?grant_type=client_credentials', '/simulator/oauth/v1/generate?grant_type=client_credentials']) {
      const protocol = await rawRequest(t.url, jsonRequest('GET', route));
      expect(protocol.status, route).toBe(404);
      expect(errorBodyProblems(protocol)).toEqual([]);
    }
    const sneaky = await rawRequest(t.url, jsonRequest('GET', '/simulator/%2e%2e/oauth/v1/generate?grant_type=client_credentials'));
    expect(sneaky.status).toBe(404);
  });

  it('the per-address stkPush limit counts each buyer\'s own address, not the API server\'s one address', async () => {
    const buyer = await t.createUser('limitbuyer');
    // Well-formed enough to be counted, wrong enough to create no order.
    const attempt = (headers: Record<string, string>) => rawRequest(t.url, jsonRequest('POST', '/pay/stkPush', { token: buyer.token, headers, body: { phone: 'not-a-phone' } }));
    const first = { 'x-forwarded-for': freshIp() };
    expect((await attempt(first)).status).toBe(400);
    expect((await attempt(first)).status).toBe(400);
    const refused = await attempt(first);
    expect(refused.status).toBe(429);
    expect(errorBodyProblems(refused)).toEqual([]);
    // Somebody else, through the very same API server, is not locked out.
    expect((await attempt({ 'x-forwarded-for': freshIp() })).status).toBe(400);

    // Straight to the payment service, a made-up proxy key does not let a caller pick its address.
    const direct = (ip: string) =>
      rawRequest(pay.url, jsonRequest('POST', '/api/stkPush', { token: buyer.token, body: { phone: 'not-a-phone' }, headers: { 'x-forwarded-for': ip, 'x-tukio-proxy-key': 'guessed' } }));
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await direct(freshIp())).status);
    expect(statuses).toEqual([400, 400, 429]);
  });

  it('forwards path, query, body, status and headers; X-Forwarded-* come from the API server, never the caller', async () => {
    const upstream = await startFakePaymentService((_seen, res) => {
      res.writeHead(418, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(JSON.stringify({ brewed: true }));
    });
    const fakeSimulator = await startFakePaymentService((_seen, res) => {
      res.writeHead(418, { 'content-type': 'application/javascript' });
      res.end('');
    });
    const api = await startTestServer({ PAYMENT_URL: upstream.url, DARAJA_SIMULATOR_URL: fakeSimulator.url });
    try {
      const body = JSON.stringify({ phone: '254712345678', note: 'x'.repeat(20_000) });
      const res = await rawRequest(api.url, {
        method: 'POST',
        path: '/pay/stkPush?source=dialog',
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer abc',
          'x-forwarded-for': '6.6.6.6',
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'https',
          'x-tukio-proxy-key': 'guessed',
          'x-internal-key': 'guessed-too',
        },
        body,
      });
      expect(res.status).toBe(418);
      expect(res.headers['x-upstream']).toBe('yes');
      expect(res.body).toEqual({ brewed: true });

      const [seen] = upstream.seen;
      expect(seen).toMatchObject({ method: 'POST', url: '/api/stkPush?source=dialog', body });
      expect(seen!.headers.authorization).toBe('Bearer abc');
      expect(seen!.headers['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      expect(seen!.headers['x-forwarded-host']).toBe(new URL(api.url).host);
      expect(seen!.headers['x-forwarded-proto']).toBe('http');
      expect(seen!.headers['x-forwarded-prefix']).toBe('/pay');
      expect(seen!.headers['x-tukio-proxy-key']).toBe(paymentProxyKey(api.config.internalApiKey));
      expect(seen!.headers['x-internal-key']).toBeUndefined();

      // The simulator's pages go to the simulator, without the key the payment service believes forwarded addresses with.
      const script = await fetch(`${api.url}/simulator/phone.js`);
      expect(script.status).toBe(418);
      expect(fakeSimulator.seen[0]).toMatchObject({ method: 'GET', url: '/simulator/phone.js' });
      expect(fakeSimulator.seen[0]!.headers['x-tukio-proxy-key']).toBeUndefined();
      expect(upstream.seen).toHaveLength(1);
    } finally {
      await api.close();
      await upstream.close();
      await fakeSimulator.close();
    }
  });

  // Two server starts (a database and migrations each): more than a test's default budget on a busy host.
  it('a payment service that is down or too slow gets a clear 503 / 504 with {msg, message}', async () => {
    const silent = await startFakePaymentService(() => {
      // Never answers.
    });
    const slow = await startTestServer({ PAYMENT_URL: silent.url, PAYMENT_PROXY_TIMEOUT_MS: '300' });
    const down = await startTestServer({ PAYMENT_PORT: String(await freePort()) });
    try {
      const timedOut = await rawRequest(slow.url, jsonRequest('POST', '/pay/confirmPayment', { body: { CheckoutRequestID: 'ws_CO_1' } }));
      expect(timedOut.status).toBe(504);
      expect(timedOut.body.msg).toMatch(/did not answer in time/);
      expect(errorBodyProblems(timedOut)).toEqual([]);
      // An stkPush it received and never answered may have sent the prompt: not "try again".
      const hung = await rawRequest(slow.url, jsonRequest('POST', '/pay/stkPush', { body: { phone: '254712345678' } }));
      expect(hung.status).toBe(504);
      expect(hung.body).toMatchObject({ code: 'payment_outcome_unknown', msg: expect.stringMatching(/may have been sent: watch your phone/) });
      expect(errorBodyProblems(hung)).toEqual([]);

      const unreachable = await rawRequest(down.url, jsonRequest('POST', '/pay/stkPush', { body: { phone: '254712345678' } }));
      expect(unreachable.status).toBe(503);
      expect(unreachable.body.msg).toMatch(/payment service is not reachable/);
      expect(errorBodyProblems(unreachable)).toEqual([]);
    } finally {
      await Promise.all([slow.close(), down.close()]);
      await silent.close();
    }
  }, 90_000);
});
