import { darajaPassword, darajaTimestamp, parseDarajaTimestamp, SIMULATOR_PROMPT_PATH } from '@tukio/shared/daraja-protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../src/config.js';
import { startSimulatorWithMerchant } from './helpers/merchant.js';

/** STK push and query as Daraja speaks them: OAuth, validation, the callback to CallBackURL, the query's answer. */
let merchant: Awaited<ReturnType<typeof startSimulatorWithMerchant>>;
let base: string;
let raw: typeof merchant.raw;
let accessToken: typeof merchant.accessToken;
let pushBody: typeof merchant.pushBody;
let callbacks: unknown[];

beforeAll(async () => {
  merchant = await startSimulatorWithMerchant();
  ({ base, raw, accessToken, pushBody, callbacks } = merchant);
});
afterAll(() => merchant?.close());

/** The callback the simulator posted for a push, once it has come. */
function callbackFor(checkoutRequestId: string): Promise<any> {
  return vi.waitFor(
    () => {
      const found = callbacks.find((body: any) => body.Body.stkCallback.CheckoutRequestID === checkoutRequestId);
      if (!found) throw new Error(`no callback yet for ${checkoutRequestId}`);
      return found;
    },
    { timeout: 10_000, interval: 10 },
  );
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
    // Its one addition to Daraja's answer: the prompt's own phone page, for the buyer who pushed.
    expect(push.body.SimulatorPromptPath).toMatch(SIMULATOR_PROMPT_PATH);
    const id = push.body.CheckoutRequestID as string;
    const timestamp = darajaTimestamp();
    const queryBody = { BusinessShortCode: SIMULATOR_CREDENTIALS.shortcode, Password: darajaPassword(SIMULATOR_CREDENTIALS.shortcode, SIMULATOR_CREDENTIALS.passkey, timestamp), Timestamp: timestamp, CheckoutRequestID: id };
    const found = await callbackFor(id);
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


describe('the ledger (M-Pesa\'s side of the books)', () => {
  it('answers a script JSON and a browser a readable page with the totals, both only with the simulator key', async () => {
    const push = await raw('/mpesa/stkpush/v1/processrequest', pushBody({ PhoneNumber: '254733000098', PartyA: '254733000098', Amount: 1234 }), await accessToken());
    const id = push.body.CheckoutRequestID as string;
    const receipt = (await callbackFor(id)).Body.stkCallback.CallbackMetadata.Item.find((item: { Name: string }) => item.Name === 'MpesaReceiptNumber').Value as string;
    const key = { 'x-simulator-key': 'daraja-test-simulator-key' };

    const json = await fetch(`${base}/simulator/ledger`, { headers: key });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const books = (await json.json()) as { payments: Array<{ receipt: string; amount: number; checkoutRequestId: string }> };
    expect(books.payments).toContainEqual(expect.objectContaining({ receipt, amount: 1234, checkoutRequestId: id }));

    const page = await fetch(`${base}/simulator/ledger`, { headers: { ...key, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const paidIn = books.payments.reduce((sum, payment) => sum + payment.amount, 0);
    expect(html).toContain('<h1>M-PESA simulator: ledger</h1>');
    expect(html).toContain(`Paid in<strong>KSh ${paidIn.toLocaleString('en-KE')}</strong>`);
    expect(html).toContain(`<td>${receipt}</td><td>254733000098</td><td class="amount">KSh 1,234</td><td>${id}</td>`);

    const noKey = await fetch(`${base}/simulator/ledger`, { headers: { accept: 'text/html' } });
    expect(noKey.status).toBe(401);
    expect(await noKey.text()).not.toContain(receipt);
    expect((await fetch(`${base}/simulator/ledger`)).status).toBe(401);
  });
});
