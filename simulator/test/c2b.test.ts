import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@tukio/shared/node/logger';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../src/config.js';
import { createDarajaSimulator } from '../src/simulator.js';

/**
 * Paying a Paybill from the simulated M-Pesa menu (C2B) as Daraja does: Register URL, validation (accept or a
 * C2B000xx rejection), the payment in the simulator's books, the confirmation; and the modes that go wrong.
 */
let server: Server;
let base: string;
let simulator: ReturnType<typeof createDarajaSimulator>;
const validations: any[] = [];
const confirmations: any[] = [];
/** What the merchant answers validation with: an account it knows and the amount, else a rejection. */
let validationAnswer = (body: any) => (body.BillRefNumber === 'ABC2345' && body.TransAmount === '500.00' ? '0' : body.BillRefNumber === 'ABC2345' ? 'C2B00013' : 'C2B00012');

beforeAll(async () => {
  const callbackOrigins: string[] = [];
  simulator = createDarajaSimulator({ ...SIMULATOR_CREDENTIALS, delayMs: 10, c2bLateMs: 50, promptTimeoutMs: 60_000, tokenTtlSeconds: 3599, key: 'c2b-test-key', callbackOrigins, logger: createLogger({ service: 'daraja-simulator', level: 'silent' }) });
  const app = express();
  app.post('/hooks/paybill/s3cret/validation', express.json(), (req, res) => {
    validations.push(req.body);
    const code = validationAnswer(req.body);
    res.json({ ResultCode: code, ResultDesc: code === '0' ? 'Accepted' : 'Rejected' });
  });
  app.post('/hooks/paybill/s3cret/confirmation', express.json(), (req, res) => {
    confirmations.push(req.body);
    res.json({ ResultCode: 0, ResultDesc: 'Success' });
  });
  app.use('/simulator', simulator.phone);
  app.use('/', simulator.api);
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  callbackOrigins.push(base);
});
afterAll(async () => {
  simulator?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}
async function token() {
  const basic = Buffer.from(`${SIMULATOR_CREDENTIALS.consumerKey}:${SIMULATOR_CREDENTIALS.consumerSecret}`).toString('base64');
  return ((await (await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, { headers: { authorization: `Basic ${basic}` } })).json()) as { access_token: string }).access_token;
}
const register = async (overrides: Record<string, unknown> = {}) =>
  post(
    '/mpesa/c2b/v2/registerurl',
    { ShortCode: SIMULATOR_CREDENTIALS.shortcode, ResponseType: 'Completed', ValidationURL: `${base}/hooks/paybill/s3cret/validation`, ConfirmationURL: `${base}/hooks/paybill/s3cret/confirmation`, ...overrides },
    { authorization: `Bearer ${await token()}` },
  );
const pay = (body: Record<string, unknown>) => post('/simulator/menu/pay', { phone: '254712000111', account: 'ABC2345', amount: 500, ...body });
const ledgerHas = async (receipt: string) =>
  ((await (await fetch(`${base}/simulator/ledger`, { headers: { 'x-simulator-key': 'c2b-test-key' } })).json()) as { payments: Array<{ receipt: string }> }).payments.some((payment) => payment.receipt === receipt);

describe('Register URL', () => {
  it('refuses URLs with words Daraja refuses, a bad ResponseType and no token; accepts the merchant’s', async () => {
    expect((await register({ ValidationURL: `${base}/api/mpesa/validation` })).body).toMatchObject({ errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid ValidationURL' });
    expect((await register({ ConfirmationURL: `${base}/query/confirm` })).body.errorMessage).toBe('Bad Request - Invalid ConfirmationURL');
    expect((await register({ ResponseType: 'Canceled' })).body.errorMessage).toBe('Bad Request - Invalid ResponseType');
    expect((await post('/mpesa/c2b/v2/registerurl', {})).status).toBe(401);
    const ok = await register();
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ResponseCode: '0', ResponseDescription: 'success' });
  });
});

describe('paying from the menu', () => {
  beforeAll(async () => {
    await register();
  });

  it('asks validation, then books the payment and confirms it with the masked number (v2)', async () => {
    const paid = await pay({});
    expect(paid.body).toMatchObject({ status: 'completed', resultCode: '0', confirmationSent: true, account: 'ABC2345', amount: 500 });
    const validation = validations.find((body) => body.TransID === paid.body.transId);
    expect(validation).toMatchObject({ TransactionType: 'Pay Bill', BusinessShortCode: SIMULATOR_CREDENTIALS.shortcode, BillRefNumber: 'ABC2345', TransAmount: '500.00', OrgAccountBalance: '', MSISDN: '2547 ***** 111' });
    expect(confirmations.find((body) => body.TransID === paid.body.transId)).toMatchObject({ TransAmount: '500.00', BillRefNumber: 'ABC2345' });
    expect(await ledgerHas(paid.body.transId)).toBe(true);
  });

  it('a wrong account or amount is rejected by validation: no money moves, no confirmation', async () => {
    const wrongAccount = await pay({ mode: 'wrong-account' });
    expect(wrongAccount.body).toMatchObject({ status: 'rejected', resultCode: 'C2B00012' });
    const wrongAmount = await pay({ mode: 'wrong-amount' });
    expect(wrongAmount.body).toMatchObject({ status: 'rejected', resultCode: 'C2B00013', amount: 501 });
    for (const payment of [wrongAccount.body, wrongAmount.body]) {
      expect(confirmations.some((body) => body.TransID === payment.transId)).toBe(false);
      expect(await ledgerHas(payment.transId)).toBe(false);
    }
  });

  it('a confirmation that never arrives is still in M-Pesa’s books; a late payer pays after a while', async () => {
    const lost = await pay({ mode: 'no-confirmation' });
    expect(lost.body).toMatchObject({ status: 'completed', confirmationSent: false });
    expect(confirmations.some((body) => body.TransID === lost.body.transId)).toBe(false);
    expect(await ledgerHas(lost.body.transId)).toBe(true);

    const late = await pay({ mode: 'late' });
    expect(late.body.resultCode).toBe('pending');
    await vi.waitFor(() => expect(confirmations.some((body) => body.TransID === late.body.transId)).toBe(true), { timeout: 5000, interval: 20 });
  });

  it('with validation unreachable, ResponseType decides: Completed goes through, Cancelled does not', async () => {
    validationAnswer = () => {
      throw new Error('merchant down');
    };
    await register({ ResponseType: 'Cancelled' });
    expect((await pay({})).body).toMatchObject({ status: 'cancelled', resultCode: 'timeout' });
    await register({ ResponseType: 'Completed' });
    const through = await pay({});
    expect(through.body).toMatchObject({ status: 'completed', confirmationSent: true });
  });

  it('refuses a bad phone, amount or mode; the menu page is served to anyone', async () => {
    expect((await pay({ phone: '0712000111' })).status).toBe(400);
    expect((await pay({ amount: 0 })).status).toBe(400);
    expect((await pay({ mode: 'steal' })).status).toBe(400);
    const page = await fetch(`${base}/simulator/menu?account=ABC2345&amount=500`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Pay Bill');
    expect(html).toContain('value="ABC2345"');
  });
});
