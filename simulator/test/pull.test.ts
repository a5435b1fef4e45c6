import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@tukio/shared/node/logger';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../src/config.js';
import { createDarajaSimulator } from '../src/simulator.js';

/**
 * Daraja's Pull Transactions API in the simulator: register once, then query the shortcode's C2B payments by
 * time window, a page at a time (OffSetValue a row offset), including payments whose confirmation was lost.
 */
let server: Server;
let base: string;
let simulator: ReturnType<typeof createDarajaSimulator>;

beforeAll(async () => {
  simulator = createDarajaSimulator({ ...SIMULATOR_CREDENTIALS, delayMs: 10, pullPageSize: 2, promptTimeoutMs: 60_000, tokenTtlSeconds: 3599, key: 'pull-test-key', callbackOrigins: [], logger: createLogger({ service: 'daraja-simulator', level: 'silent' }) });
  const app = express();
  app.use('/simulator', simulator.phone);
  app.use('/', simulator.api);
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  simulator?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}
async function bearer() {
  const basic = Buffer.from(`${SIMULATOR_CREDENTIALS.consumerKey}:${SIMULATOR_CREDENTIALS.consumerSecret}`).toString('base64');
  const token = ((await (await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, { headers: { authorization: `Basic ${basic}` } })).json()) as { access_token: string }).access_token;
  return { authorization: `Bearer ${token}` };
}
const day = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString().slice(0, 19).replace('T', ' ');
const query = async (OffSetValue: string, overrides: Record<string, unknown> = {}) =>
  post('/pulltransactions/v1/query', { ShortCode: SIMULATOR_CREDENTIALS.shortcode, StartDate: day(-3600_000), EndDate: day(60_000), OffSetValue, ...overrides }, await bearer());

describe('Pull Transactions', () => {
  it('refuses a query before registration and a registration without a token; registers once (1000, then 1001)', async () => {
    expect((await query('0')).body).toMatchObject({ errorCode: '400.001' });
    const register = { ShortCode: SIMULATOR_CREDENTIALS.shortcode, RequestType: 'Pull', NominatedNumber: '254722000000', CallBackURL: 'https://tukio.example/pull' };
    expect((await post('/pulltransactions/v1/register', register)).status).toBe(401);
    expect((await post('/pulltransactions/v1/register', register, await bearer())).body).toMatchObject({ ResponseStatus: '1000', ShortCode: SIMULATOR_CREDENTIALS.shortcode });
    expect((await post('/pulltransactions/v1/register', register, await bearer())).body.ResponseStatus).toBe('1001');
  });

  it('pages the window’s completed C2B payments by row offset, oldest first, in Daraja’s shape', async () => {
    // Without a registered confirmation URL the payments complete and nobody hears of them, as with no-confirmation.
    const paid = [];
    for (const [index, mode] of (['normal', 'no-confirmation', 'normal'] as const).entries()) paid.push((await simulator.c2b.pay({ phone: `25471200011${index}`, account: `ABC234${index}`, amount: 100 + index, mode }).done).transId);
    const first = await query('0');
    expect(first.body).toMatchObject({ ResponseCode: '1000', ResponseMessage: 'Success' });
    expect(first.body.Response).toHaveLength(1);
    expect(first.body.Response[0]).toHaveLength(2);
    expect(first.body.Response[0][0]).toEqual({
      transactionId: paid[0],
      trxDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      msisdn: 712000110,
      sender: 'SIMULATED PAYER',
      transactiontype: 'c2b-pay-bill-debit',
      billreference: 'ABC2340',
      amount: '100.00',
      organizationname: expect.any(String),
    });
    const second = await query('2');
    expect(second.body.Response[0].map((row: any) => row.transactionId)).toEqual([paid[2]]);
    expect((await query('3')).body).toMatchObject({ ResponseCode: '1001', Response: [[]] });
    // A window before the payments holds none of them.
    expect((await query('0', { StartDate: day(-7200_000), EndDate: day(-3600_000) })).body.ResponseCode).toBe('1001');
    expect((await query('0', { StartDate: '2026-13-01' })).body.errorMessage).toBe('Bad Request - Invalid StartDate');
  });
});
