import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../../simulator/src/config.js';
import { startSimulatorWithMerchant } from '../../simulator/test/helpers/merchant.js';
import { ConfigError, loadPaymentConfig } from '../src/config.js';
import { createDarajaClient, DarajaError } from '../src/daraja/daraja-client.js';

/** The Daraja client against the Daraja simulator (its protocol is tested in simulator/test), and the configuration. */
let merchant: Awaited<ReturnType<typeof startSimulatorWithMerchant>>;
let base: string;
let simulator: typeof merchant.simulator;

beforeAll(async () => {
  merchant = await startSimulatorWithMerchant();
  ({ base, simulator } = merchant);
});
afterAll(() => merchant?.close());

const client = () => createDarajaClient({ ...SIMULATOR_CREDENTIALS, baseUrl: base, timeoutMs: 5000 });

describe('Daraja client', () => {
  it('caches the OAuth token across calls and shares one fetch between concurrent callers', async () => {
    const daraja = client();
    const before = merchant.oauthCalls();
    await Promise.all(
      ['254733000101', '254733000102', '254733000103'].map((phone) => daraja.stkPush({ amount: 5, phone, accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` })),
    );
    await daraja.stkPush({ amount: 5, phone: '254733000104', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` });
    expect(merchant.oauthCalls() - before).toBe(1);
  });

  it('fetches a new token once when Daraja says the token is no longer valid', async () => {
    const daraja = client();
    const first = await daraja.stkPush({ amount: 5, phone: '254733000201', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` });
    simulator.revokeTokens();
    const before = merchant.oauthCalls();
    const second = await daraja.stkPush({ amount: 5, phone: '254733000202', accountReference: 'TKTEST', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/callback` });
    expect(merchant.oauthCalls() - before).toBe(1);
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
  const credentials = { DARAJA_CONSUMER_KEY: 'k', DARAJA_CONSUMER_SECRET: 's', DARAJA_SHORTCODE: '174379', DARAJA_PASSKEY: 'p' };
  it('talks to the Daraja simulator at DARAJA_BASE_URL with DARAJA_SIMULATOR=true, called back at its own address', () => {
    const config = loadPaymentConfig({ ...base, ...credentials, DARAJA_SIMULATOR: 'true', DARAJA_BASE_URL: 'http://127.0.0.1:27685/' });
    expect(config.simulator.enabled).toBe(true);
    expect(config.daraja.baseUrl).toBe('http://127.0.0.1:27685');
    expect(config.callbackBaseUrl).toBeUndefined();
    expect(config.port).toBe(27684);
    expect(config.reconcile).toEqual({ intervalMs: 15_000, afterSeconds: 30 });
  });
  it.each([
    [{}, /are required \(`npm start` runs the Daraja simulator/],
    [{ DARAJA_CONSUMER_KEY: 'x' }, /are required/],
    [{ ...credentials, DARAJA_SIMULATOR: 'true' }, /DARAJA_SIMULATOR=true needs DARAJA_BASE_URL/],
    [credentials, /DARAJA_CALLBACK_URL is required/],
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
    // An older .env's DARAJA_SIMULATOR=auto next to real credentials still means real Daraja.
    expect(loadPaymentConfig({ ...base, ...credentials, DARAJA_CALLBACK_URL: 'https://pay.example.com/api/mpesa/callback', DARAJA_SIMULATOR: 'auto' }).simulator.enabled).toBe(false);
    expect(() => loadPaymentConfig({ ...base, ...credentials, DARAJA_CALLBACK_URL: 'https://pay.example.com/api/mpesa/callback', DARAJA_SIMULATOR: 'sometimes' })).toThrow(/DARAJA_SIMULATOR/);
    expect(config.callbackBaseUrl).toBe('https://pay.example.com/api/mpesa/callback');
  });
});
