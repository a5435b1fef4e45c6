import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.js';
import { createEvent } from './helpers/events.js';
import { captureLogs } from './helpers/log-capture.js';
import { freePort, startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Logging (docs/decisions/logging.md): pino JSON lines, a request id on every line of a request, in
 * its X-Request-Id response header and in every 5xx body, and no password, token, key or phone
 * number in any line. The id's way through the payment service: payment-service/test/logging.test.ts.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestServer;
let logs: ReturnType<typeof captureLogs>;

beforeAll(async () => {
  logs = captureLogs();
  // Nothing listens at PAYMENT_URL: the payment proxy answers 503, a 5xx of this server's own.
  t = await startTestServer({ LOG_LEVEL: 'info', PAYMENT_URL: `http://127.0.0.1:${await freePort()}` });
}, 120_000);

afterAll(async () => {
  logs?.restore();
  await t?.close();
});

const linesOf = (requestId: string) => logs.lines().filter((line) => line.requestId === requestId);

describe('request ids', () => {
  it("answer with the caller's X-Request-Id when it is a safe token, and with a fresh UUID otherwise", async () => {
    const given = 'logging-test-0001';
    const res = await t.api('GET', '/api/events', { headers: { 'x-request-id': given } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(given);
    expect(linesOf(given).map((line) => line.msg)).toContain('GET /api/events 200');

    for (const unsafe of ['short', 'has spaces in it', 'x'.repeat(65), 'quote"and{json}', 'tab\there-and-more']) {
      const answer = await t.api('GET', '/api/events', { headers: { 'x-request-id': unsafe } });
      expect(answer.headers.get('x-request-id'), unsafe).toMatch(UUID);
      expect(linesOf(answer.headers.get('x-request-id')!).map((line) => line.msg), unsafe).toEqual(['GET /api/events 200']);
      expect(linesOf(unsafe), unsafe).toEqual([]);
    }
    // A failure answered by the app's error handler is still named by its full route pattern.
    const missing = await t.api('GET', '/api/events/ffffffffffffffffffffffff?ref=query-value', { headers: { 'x-request-id': 'logging-test-404-0001' } });
    expect(missing.status).toBe(404);
    expect(linesOf('logging-test-404-0001').map((line) => line.msg)).toEqual(['GET /api/events/:id 404']);

    const none = await t.api('GET', '/api/events');
    expect(none.headers.get('x-request-id')).toMatch(UUID);
    expect(linesOf(none.headers.get('x-request-id')!)).toHaveLength(1);
  });

  it('are on every log line of a failed request and in its 5xx body', async () => {
    const buyer = await t.createUser('logbuyer');
    const organiser = await t.createUser('logorganiser');
    const event = await createEvent(t, organiser.token, { isPaid: true, ticketPrice: 100, capacity: 5 }, { approveWith: (await t.loginAdmin()).token });
    const requestId = 'logging-test-5xx-0002';
    const phone = '254712345678';
    // The seats are held, then the payment service (nothing listens at PAYMENT_URL) cannot be asked for the prompt.
    const res = await t.api('POST', '/pay/stkPush', {
      token: buyer.token,
      body: { phone, amount: 1, Order_ID: `${event._id as string}_${phone}` },
      headers: { 'x-request-id': requestId },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    // The only new field: what the body said before stays as it was.
    expect(res.body).toEqual({ msg: expect.any(String), message: res.body.msg, code: 'payment_service_unreachable', requestId });

    const lines = linesOf(requestId);
    // The checkout's own error line (logged deep in the request), the seats given back, and the request's line.
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      ['error', expect.stringMatching(/^payment service unreachable/)],
      ['info', expect.stringMatching(/^order [0-9a-f]{24} released: /)],
      ['error', 'POST /pay/stkPush 503'],
    ]);
    expect(lines.every((line) => line.name === 'tukio')).toBe(true);
    const text = logs.text();
    expect(text).not.toContain(phone);
    expect(text).not.toContain(buyer.token);
  });
});

describe('reconciliation failures', () => {
  it('are an error when the daily run fails, and only noted when an administrator asked (the answer says it)', async () => {
    const failedLines = () => logs.lines().filter((line) => /^reconciliation [0-9a-f]{24} failed: /.test(line.msg));
    const before = failedLines().length;
    // Nothing listens at PAYMENT_URL, so M-Pesa cannot be asked.
    const asked = await t.api<{ status: string; error: string }>('POST', '/api/admin/reconciliation/run', { token: (await t.loginAdmin()).token });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ status: 'failed', error: expect.stringMatching(/not reachable/) });
    expect(failedLines().slice(before).map((line) => line.level)).toEqual(['info']);

    const daily = await t.services.reconciliation.runOnce();
    expect(daily.status).toBe('failed');
    expect(failedLines().slice(before).map((line) => line.level)).toEqual(['info', 'error']);
  });
});

describe('redaction', () => {
  it('logs a login by route and id, never its password, and never a token from a path or a query', async () => {
    const password = 'Logging-Passw0rd-kept-out';
    await t.createUser('lognjeri', password);
    const ids = { right: 'logging-test-login-0003', wrong: 'logging-test-login-0004', query: 'logging-test-query-0005' };
    expect((await t.api('POST', '/api/auth/login', { body: { username: 'lognjeri', password }, headers: { 'x-request-id': ids.right } })).body.status).toBe(true);
    await t.api('POST', '/api/auth/login', { body: { username: 'lognjeri', password: `${password}-wrong` }, headers: { 'x-request-id': ids.wrong } });
    const resetToken = 'a'.repeat(64);
    await t.api('POST', `/api/auth/reset-password/${resetToken}?token=query-secret-value`, { body: { password }, headers: { 'x-request-id': ids.query } });

    expect(linesOf(ids.right).map((line) => line.msg)).toEqual(['POST /api/auth/login 200']);
    expect(linesOf(ids.wrong).map((line) => line.msg)).toEqual(['POST /api/auth/login 200']);
    // The route pattern, not the path: the reset token stays out, and so does the query string.
    expect(linesOf(ids.query).map((line) => line.msg)).toEqual(['POST /api/auth/reset-password/:token 200']);
    const text = logs.text();
    for (const secret of [password, resetToken, 'query-secret-value']) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/);
  });

  it('masks credentials, keys and phone numbers in logged objects and in error text', () => {
    const own = captureLogs();
    try {
      const logger = createLogger('info');
      logger.pino.info(
        {
          req: { headers: { authorization: 'Bearer header-secret', cookie: 'session=cookie-secret', 'x-internal-key': 'internal-secret', 'x-tukio-proxy-key': 'proxy-secret' } },
          body: { password: 'body-password', token: 'body-token', PhoneNumber: 254700000001, PartyA: '254700000002', phone: '0700000003', msisdn: '254700000004' },
        },
        'object',
      );
      logger.error('STK push failed', new Error('Daraja refused 254711000005 (Bearer abc.def-ghi) eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'));
      logger.info('buyer +254711000006 and 0711000007 asked again');
      logger.info('guest wanjiku.kamau@example.co.ke paid from 254712345678');
      logger.pino.info({ order: { guestEmail: 'guest@example.com', email: 'person@example.com' } }, 'emails');
    } finally {
      own.restore();
    }
    const text = own.text();
    for (const secret of ['header-secret', 'cookie-secret', 'internal-secret', 'proxy-secret', 'body-password', 'body-token', 'abc.def-ghi', 'eyJhbGciOiJIUzI1NiJ9']) {
      expect(text, secret).not.toContain(secret);
    }
    expect(text).not.toMatch(/25470000000\d|070000000\d|25471100000\d|071100000\d|254712345678/);
    const lines = own.lines();
    expect(lines.map((line) => line.msg)).toEqual([
      'object',
      'STK push failed',
      'buyer +2547XXXXX006 and 07XXXXX007 asked again',
      'guest w***@example.co.ke paid from 2547XXXXX678',
      'emails',
    ]);
    expect((lines[1]!.err as { message: string }).message).toBe('Daraja refused 2547XXXXX005 (Bearer [redacted]) [jwt]');
    expect(lines[4]!.order).toEqual({ guestEmail: '[redacted]', email: '[redacted]' });
    expect(text).not.toMatch(/wanjiku|guest@|person@/);
    expect((lines[0]!.body as Record<string, unknown>).password).toBe('[redacted]');
  });
});
