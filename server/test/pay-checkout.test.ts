import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { orders } from '../src/db/schema.js';
import { createEvent } from './helpers/events.js';
import { errorBodyProblems, jsonRequest, quiesce, rawRequest } from './helpers/security.js';
import { freePort, startTestServer, type TestServer } from './helpers/test-server.js';
import { loadPaymentService, type PaymentService, type Simulator } from './helpers/payment-service.js';

/**
 * The browser's checkout is the API server's own /pay/stkPush and /pay/confirmPayment, same-origin, whatever
 * PAYMENT_PORT is; it asks the payment service (POST /internal/stk-push) only to send the prompt.
 * /simulator/* reaches the Daraja simulator's phone pages (DARAJA_SIMULATOR_URL). The budgets count each
 * buyer's own address, also for clients of the payment service's section-7 adapter.
 */


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
  t = await startTestServer({
    PAYMENT_PORT: String(paymentPort),
    TRUST_PROXY: 'true',
    DARAJA_SIMULATOR_URL: simulator.url,
    STK_RATE_LIMIT_PER_IP: '2',
    STK_RATE_LIMIT_PER_USER: '1000',
    STK_RATE_LIMIT_PER_USER_DAY: '1000',
    STK_RATE_LIMIT_PER_PHONE: '1000',
  });
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

async function paidEvent(price: number, on: TestServer = t) {
  const organiser = await on.createUser(`org${++ipCounter}`);
  const admin = await on.loginAdmin();
  const event = await createEvent(on, organiser.token, { isPaid: true, ticketPrice: price, capacity: 50 }, { approveWith: admin.token });
  return event._id as string;
}

/** The statuses of an event's orders: a held order is `pending`. */
async function orderStatuses(on: TestServer, eventId: string) {
  return (await on.db.select({ status: orders.status }).from(orders).where(eq(orders.eventId, eventId))).map((row) => row.status);
}

describe('the checkout on the API server', () => {
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

    // Through the payment service's own /api/stkPush (the original contract), a made-up proxy key does not let a caller pick its address.
    const direct = (ip: string) =>
      rawRequest(pay.url, jsonRequest('POST', '/api/stkPush', { token: buyer.token, body: { phone: 'not-a-phone' }, headers: { 'x-forwarded-for': ip, 'x-tukio-proxy-key': 'guessed' } }));
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await direct(freshIp())).status);
    expect(statuses).toEqual([400, 400, 429]);
  });

  it("asks the payment service for the prompt with the internal key; the caller's forwarding headers reach nobody", async () => {
    const upstream = await startFakePaymentService((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ checkoutRequestId: 'ws_CO_fake_1', merchantRequestId: 'mr-1', customerMessage: 'Success. Request accepted for processing' }));
    });
    const fakeSimulator = await startFakePaymentService((_seen, res) => {
      res.writeHead(418, { 'content-type': 'application/javascript' });
      res.end('');
    });
    const api = await startTestServer({ PAYMENT_URL: upstream.url, DARAJA_SIMULATOR_URL: fakeSimulator.url });
    try {
      const eventId = await paidEvent(300, api);
      const buyer = await api.createUser('gatewaybuyer');
      const res = await rawRequest(api.url, {
        ...jsonRequest('POST', '/pay/stkPush', { token: buyer.token, body: { phone: '254712345678', amount: 1, Order_ID: `${eventId}_254712345678`, quantity: 2 } }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}`, 'x-forwarded-for': '6.6.6.6', 'x-tukio-proxy-key': 'guessed', 'x-internal-key': 'guessed-too' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ResponseCode: '0', CheckoutRequestID: 'ws_CO_fake_1', MerchantRequestID: 'mr-1', amount: 600, quantity: 2 });
      expect(res.body.simulatorUrl).toBeUndefined();

      const [seen] = upstream.seen;
      expect(seen).toMatchObject({ method: 'POST', url: '/internal/stk-push' });
      expect(seen!.headers['x-internal-key']).toBe(api.config.internalApiKey);
      expect(seen!.headers.authorization).toBeUndefined();
      expect(seen!.headers['x-forwarded-for']).toBeUndefined();
      expect(JSON.parse(seen!.body)).toMatchObject({ amount: 600, phone: '254712345678', orderId: expect.stringMatching(/^[0-9a-f]{24}$/) });
      // The push is recorded here: its buyer polls it as pending.
      const confirm = await api.api('POST', '/pay/confirmPayment', { token: buyer.token, body: { CheckoutRequestID: 'ws_CO_fake_1' } });
      expect(confirm.body).toMatchObject({ success: false, status: 'pending', CheckoutRequestID: 'ws_CO_fake_1', amount: 600, quantity: 2 });

      // The simulator's pages go to the simulator, with the visitor's address written by the API server.
      const script = await rawRequest(api.url, { method: 'GET', path: '/simulator/phone.js', headers: { 'x-forwarded-for': '6.6.6.6', 'x-tukio-proxy-key': 'guessed' } });
      expect(script.status).toBe(418);
      expect(fakeSimulator.seen[0]).toMatchObject({ method: 'GET', url: '/simulator/phone.js' });
      expect(fakeSimulator.seen[0]!.headers['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      expect(fakeSimulator.seen[0]!.headers['x-tukio-proxy-key']).toBeUndefined();
      expect(upstream.seen).toHaveLength(1);
    } finally {
      await api.close();
      await upstream.close();
      await fakeSimulator.close();
    }
  });

  // Two server starts (a database and migrations each): more than a test's default budget on a busy host.
  it('a payment service that is down gets a clear 503 and the seats back; one that goes silent keeps them held and says so', async () => {
    const silent = await startFakePaymentService(() => {
      // Never answers.
    });
    const slow = await startTestServer({ PAYMENT_URL: silent.url, PAYMENT_PROXY_TIMEOUT_MS: '300' });
    const down = await startTestServer({ PAYMENT_PORT: String(await freePort()) });
    try {
      const buy = async (on: TestServer) => {
        const eventId = await paidEvent(100, on);
        const buyer = await on.createUser('downbuyer');
        const answer = await rawRequest(on.url, jsonRequest('POST', '/pay/stkPush', { token: buyer.token, body: { phone: '254712345678', Order_ID: `${eventId}_254712345678` } }));
        return { answer, orders: await orderStatuses(on, eventId) };
      };
      // An stkPush the payment service received and never answered may have sent the prompt: not "try again", and the seat stays held.
      const hung = await buy(slow);
      expect(hung.answer.status).toBe(504);
      expect(hung.answer.body).toMatchObject({ code: 'payment_outcome_unknown', msg: expect.stringMatching(/may have been sent: watch your phone/) });
      expect(errorBodyProblems(hung.answer)).toEqual([]);
      expect(hung.orders).toEqual(['pending']);

      const unreachable = await buy(down);
      expect(unreachable.answer.status).toBe(503);
      expect(unreachable.answer.body.msg).toMatch(/payment service is not reachable/);
      expect(errorBodyProblems(unreachable.answer)).toEqual([]);
      expect(unreachable.orders).toHaveLength(1);
      expect(unreachable.orders).not.toContain('pending');
    } finally {
      await Promise.all([slow.close(), down.close()]);
      await silent.close();
    }
  }, 90_000);
});
