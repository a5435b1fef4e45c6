import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadPaymentConfig, SIMULATOR_CREDENTIALS } from '../src/config.js';
import { createDarajaClient, DarajaError } from '../src/daraja/daraja-client.js';
import { darajaPassword, darajaTimestamp, parseDarajaTimestamp } from '@tukio/shared/daraja-protocol';
import { createDarajaSimulator } from '../src/daraja/simulator/simulator.js';
import { createLogger } from '../src/logger.js';

let server: Server;
let base: string;
let oauthCalls = 0;
const callbacks: unknown[] = [];
/** The merchant below, once it listens: the only origin the simulator posts callbacks to. */
const callbackOrigins: string[] = [];
const simulator = createDarajaSimulator({ ...SIMULATOR_CREDENTIALS, delayMs: 10, promptTimeoutMs: 60_000, tokenTtlSeconds: 3599, key: 'daraja-test-simulator-key', callbackOrigins, logger: createLogger('silent') });

beforeAll(async () => {
  const app = express();
  app.use((req, _res, next) => {
    if (req.path.startsWith('/oauth')) oauthCalls += 1;
    next();
  });
  app.post('/callback', express.json(), (req, res) => {
    callbacks.push(req.body);
    res.json({ ResultCode: 0 });
  });
  app.use('/', simulator.api);
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  callbackOrigins.push(base);
});
afterAll(async () => {
  simulator.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const client = () => createDarajaClient({ ...SIMULATOR_CREDENTIALS, baseUrl: base, timeoutMs: 5000 });

async function raw(path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function accessToken() {
  const basic = Buffer.from(`${SIMULATOR_CREDENTIALS.consumerKey}:${SIMULATOR_CREDENTIALS.consumerSecret}`).toString('base64');
  const res = await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, { headers: { authorization: `Basic ${basic}` } });
  return ((await res.json()) as { access_token: string }).access_token;
}

function pushBody(overrides: Record<string, unknown> = {}) {
  const timestamp = darajaTimestamp();
  return {
    BusinessShortCode: SIMULATOR_CREDENTIALS.shortcode,
    Password: darajaPassword(SIMULATOR_CREDENTIALS.shortcode, SIMULATOR_CREDENTIALS.passkey, timestamp),
    Timestamp: timestamp,
    TransactionType: 'CustomerPayBillOnline',
    Amount: 10,
    PartyA: '254733000001',
    PartyB: SIMULATOR_CREDENTIALS.shortcode,
    PhoneNumber: '254733000001',
    CallBackURL: `${base}/callback`,
    AccountReference: 'TK12345',
    TransactionDesc: 'Tukio ticket',
    ...overrides,
  };
}

describe('Daraja protocol helpers', () => {
  it('writes timestamps on the East Africa Time wall clock and reads them back', () => {
    expect(darajaTimestamp(new Date('2026-01-01T21:30:05Z'))).toBe('20260102003005');
    expect(parseDarajaTimestamp('20260102003005')?.toISOString()).toBe('2026-01-01T21:30:05.000Z');
    expect(parseDarajaTimestamp('20261301000000')).toBeUndefined();
    expect(darajaPassword('174379', 'key', '20260102003005')).toBe(Buffer.from('174379key20260102003005').toString('base64'));
  });
});

describe('Daraja simulator validates like Daraja', () => {
  it('refuses calls without a valid access token', async () => {
    const res = await raw('/mpesa/stkpush/v1/processrequest', pushBody(), 'not-a-token');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ errorCode: '404.001.03', errorMessage: 'Invalid Access Token', requestId: expect.any(String) });
  });

  it.each([
    [{ Password: 'd3Jvbmc=' }, 'Bad Request - Invalid Password'],
    [{ Timestamp: '20200101000000' }, 'Bad Request - Invalid Timestamp'],
    [{ Timestamp: 'yesterday' }, 'Bad Request - Invalid Timestamp'],
    [{ BusinessShortCode: '600000' }, 'Bad Request - Invalid BusinessShortCode'],
    [{ Amount: 10.5 }, 'Bad Request - Invalid Amount'],
    [{ Amount: 0 }, 'Bad Request - Invalid Amount'],
    [{ PhoneNumber: '0712345678', PartyA: '0712345678' }, 'Bad Request - Invalid PhoneNumber'],
    [{ AccountReference: 'THIRTEEN-CHAR' }, 'Bad Request - Invalid AccountReference'],
    [{ CallBackURL: 'not a url' }, 'Bad Request - Invalid CallBackURL'],
    [{ TransactionType: 'Other' }, 'Bad Request - Invalid TransactionType'],
  ])('%j -> %s', async (overrides, message) => {
    const res = await raw('/mpesa/stkpush/v1/processrequest', pushBody(overrides), await accessToken());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: '400.002.02', errorMessage: message });
  });

  it('refuses bad OAuth credentials', async () => {
    const res = await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } });
    expect(res.status).toBe(400);
  });

  it('sends the callback with metadata read by Name, and answers STK query with the outcome', async () => {
    const token = await accessToken();
    const push = await raw('/mpesa/stkpush/v1/processrequest', pushBody({ PhoneNumber: '254733000099', PartyA: '254733000099', Amount: 77 }), token);
    expect(push.body).toMatchObject({ ResponseCode: '0', CustomerMessage: 'Success. Request accepted for processing' });
    const id = push.body.CheckoutRequestID as string;
    const timestamp = darajaTimestamp();
    const queryBody = { BusinessShortCode: SIMULATOR_CREDENTIALS.shortcode, Password: darajaPassword(SIMULATOR_CREDENTIALS.shortcode, SIMULATOR_CREDENTIALS.passkey, timestamp), Timestamp: timestamp, CheckoutRequestID: id };
    const deadline = Date.now() + 10_000;
    let found: any;
    while (!found && Date.now() < deadline) {
      found = callbacks.find((body: any) => body.Body.stkCallback.CheckoutRequestID === id);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(found.Body.stkCallback).toMatchObject({ ResultCode: 0, MerchantRequestID: push.body.MerchantRequestID });
    const items = found.Body.stkCallback.CallbackMetadata.Item as Array<{ Name: string; Value?: unknown }>;
    expect(items.find((i) => i.Name === 'Amount')?.Value).toBe(77);
    expect(items.find((i) => i.Name === 'PhoneNumber')?.Value).toBe(254733000099);
    expect(String(items.find((i) => i.Name === 'TransactionDate')?.Value)).toMatch(/^\d{14}$/);
    const query = await raw('/mpesa/stkpushquery/v1/query', queryBody, token);
    expect(query.body).toMatchObject({ ResponseCode: '0', ResultCode: '0', CheckoutRequestID: id });
    const unknown = await raw('/mpesa/stkpushquery/v1/query', { ...queryBody, CheckoutRequestID: 'ws_CO_nope' }, token);
    expect(unknown.status).toBe(400);
  });
});

describe('Daraja client', () => {
  it('caches the OAuth token across calls and shares one fetch between concurrent callers', async () => {
    const daraja = client();
    const before = oauthCalls;
    await Promise.all(
      ['254733000101', '254733000102', '254733000103'].map((phone) => daraja.stkPush({ amount: 5, phone, accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` })),
    );
    await daraja.stkPush({ amount: 5, phone: '254733000104', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` });
    expect(oauthCalls - before).toBe(1);
  });

  it('fetches a new token once when Daraja says the token is no longer valid', async () => {
    const daraja = client();
    const first = await daraja.stkPush({ amount: 5, phone: '254733000201', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` });
    simulator.revokeTokens();
    const before = oauthCalls;
    const second = await daraja.stkPush({ amount: 5, phone: '254733000202', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` });
    expect(oauthCalls - before).toBe(1);
    expect(second.CheckoutRequestID).not.toBe(first.CheckoutRequestID);
  });

  it('reports a pending STK query as pending, 1001 as subscriberLocked, and final outcomes by code', async () => {
    const daraja = client();
    const push = await daraja.stkPush({ amount: 5, phone: '254700000005', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` });
    expect(await daraja.stkQuery(push.CheckoutRequestID)).toEqual({ state: 'pending' });
    const locked = await daraja
      .stkPush({ amount: 5, phone: '254700000005', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` })
      .catch((error: unknown) => error);
    expect(locked).toBeInstanceOf(DarajaError);
    expect((locked as DarajaError).subscriberLocked).toBe(true);
    const cancelled = await daraja.stkPush({ amount: 5, phone: '254700000001', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` });
    await expect
      .poll(() => daraja.stkQuery(cancelled.CheckoutRequestID), { timeout: 10_000, interval: 20 })
      .toMatchObject({ state: 'final', resultCode: 1032, resultDesc: 'Request cancelled by user' });
  });

  it('turns a network failure into a DarajaError', async () => {
    const daraja = createDarajaClient({ ...SIMULATOR_CREDENTIALS, baseUrl: 'http://127.0.0.1:1', timeoutMs: 2000 });
    const error = await daraja.stkQuery('ws_CO_x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DarajaError);
    expect((error as DarajaError).network).toBe(true);
  });
});

describe('payment service configuration', () => {
  const base = { DATA_DIR: '/tmp/tukio-config-test', INTERNAL_API_KEY: 'k', CALLBACK_SECRET: 'a-callback-secret-long-enough' };
  it('runs the simulator when no Daraja credentials are set', () => {
    const config = loadPaymentConfig(base);
    expect(config.simulator.enabled).toBe(true);
    expect(config.port).toBe(27684);
    expect(config.reconcile).toEqual({ intervalMs: 15_000, afterSeconds: 30 });
  });
  it.each([
    [{ DARAJA_CONSUMER_KEY: 'x' }, /must be set together/],
    [{ DARAJA_SIMULATOR: 'false' }, /needs the DARAJA_\* credentials/],
    [{ DARAJA_CONSUMER_KEY: 'k', DARAJA_CONSUMER_SECRET: 's', DARAJA_SHORTCODE: '174379', DARAJA_PASSKEY: 'p' }, /DARAJA_CALLBACK_URL is required/],
    [{ PAYMENT_PORT: 'abc' }, /PAYMENT_PORT/],
    [{ DARAJA_SHORTCODE: '12' }, /DARAJA_SHORTCODE/],
  ])('fails clearly for %j', (env, message) => {
    expect(() => loadPaymentConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadPaymentConfig({ ...base, ...env })).toThrow(message);
  });
  it('uses real Daraja when credentials and a callback URL are set', () => {
    const config = loadPaymentConfig({
      ...base,
      DARAJA_CONSUMER_KEY: 'k',
      DARAJA_CONSUMER_SECRET: 's',
      DARAJA_SHORTCODE: '174379',
      DARAJA_PASSKEY: 'p',
      DARAJA_CALLBACK_URL: 'https://pay.example.com/api/mpesa/callback/',
    });
    expect(config.simulator.enabled).toBe(false);
    expect(config.daraja.baseUrl).toBe('https://sandbox.safaricom.co.ke');
    expect(config.callbackBaseUrl).toBe('https://pay.example.com/api/mpesa/callback');
  });
});
