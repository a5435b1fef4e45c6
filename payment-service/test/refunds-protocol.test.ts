import { execFileSync } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../../simulator/src/config.js';
import { createDarajaSimulator } from '../../simulator/src/simulator.js';
import { ConfigError, loadPaymentConfig } from '../src/config.js';
import { createDarajaClient, type AsyncRequestOutcome } from '../src/daraja/daraja-client.js';
import { resultParameter, type ResultBody } from '@tukio/shared/daraja-protocol';
import { mpesaPublicKey, securityCredential } from '../src/daraja/security-credential.js';
import { createLogger } from '../src/logger.js';
import { parseResult } from '../src/daraja/daraja-results.js';

/**
 * The reverse path over Daraja's HTTP protocol, client against simulator: field validation with Daraja's
 * error bodies, duplicate OriginatorConversationID, the failure modes (insufficient float, invalid
 * initiator, queue timeout, no result, already reversed), Transaction Status from the simulator's own
 * records, and the ledger. The merchant side is a bare Express app that keeps what Daraja posts.
 */

const KEY = 'refunds-protocol-simulator-key';
let server: Server;
let base: string;
let oauthCalls = 0;
const posted: Array<{ path: string; query: Record<string, unknown>; body: ResultBody & Record<string, any> }> = [];
const stkCallbacks: any[] = [];
/** The merchant below, once it listens: the only origin the simulator posts callbacks to. */
const callbackOrigins: string[] = [];
const simulator = createDarajaSimulator({ ...SIMULATOR_CREDENTIALS, delayMs: 10, promptTimeoutMs: 60_000, tokenTtlSeconds: 3599, key: KEY, callbackOrigins, logger: createLogger('silent') });

beforeAll(async () => {
  const app = express();
  app.use((req, _res, next) => {
    if (req.path.startsWith('/oauth')) oauthCalls += 1;
    next();
  });
  app.post('/merchant/stk', express.json(), (req, res) => {
    stkCallbacks.push(req.body);
    res.json({ ResultCode: 0 });
  });
  app.post('/merchant/:kind/:which', express.json(), (req, res) => {
    posted.push({ path: `${req.params.kind}/${req.params.which}`, query: req.query, body: req.body });
    res.json({ ResultCode: 0, ResultDesc: 'Accepted' });
  });
  app.use('/simulator', simulator.phone);
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
beforeEach(async () => {
  await control('DELETE');
});

const credential = () => securityCredential(SIMULATOR_CREDENTIALS.initiatorPassword, simulator.payouts.publicKey());
const client = () =>
  createDarajaClient({
    ...SIMULATOR_CREDENTIALS,
    baseUrl: () => base,
    timeoutMs: 5000,
    refunds: { initiatorName: SIMULATOR_CREDENTIALS.initiatorName, b2cShortcode: SIMULATOR_CREDENTIALS.b2cShortcode, securityCredential: credential },
  });
const daraja = client();

let sequence = 0;
const nextAttempt = () => `tukio-${'ab'.repeat(12)}-${++sequence}`;
const urls = (kind: string, attempt: string) => ({ resultUrl: `${base}/merchant/${kind}/result?ocid=${attempt}`, timeoutUrl: `${base}/merchant/${kind}/timeout?ocid=${attempt}` });

async function control(method: 'POST' | 'DELETE' | 'GET', body?: unknown, key = KEY) {
  const res = await fetch(`${base}/simulator/payouts/modes`, {
    method,
    headers: { 'x-simulator-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function ledger() {
  const res = await fetch(`${base}/simulator/ledger`, { headers: { 'x-simulator-key': KEY } });
  return (await res.json()) as { payments: any[]; refunds: any[] };
}

async function token() {
  const basic = Buffer.from(`${SIMULATOR_CREDENTIALS.consumerKey}:${SIMULATOR_CREDENTIALS.consumerSecret}`).toString('base64');
  const res = await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, { headers: { authorization: `Basic ${basic}` } });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function raw(route: string, body: unknown, bearer?: string) {
  const res = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer ?? (await token())}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** What Daraja posted for `attempt` to `path` (e.g. "b2c/result"), once it has. */
async function postedFor(kind: string, attempt: string, timeoutMs = 5000) {
  return vi.waitFor(
    () => {
      const found = posted.find((entry) => entry.path === kind && entry.query.ocid === attempt);
      if (!found) throw new Error(`nothing posted to ${kind} for ${attempt}`);
      return found.body;
    },
    { timeout: timeoutMs, interval: 10 },
  );
}

/** Lets the simulator finish (its delay is 10 ms) and checks nothing came for `attempt`. */
async function nothingPosted(attempt: string) {
  await vi.waitFor(
    () => {
      if (!simulator.payouts.payouts.get(attempt)?.posted) throw new Error(`the simulator has not finished ${attempt}`);
    },
    { timeout: 15_000, interval: 10 },
  );
  return posted.filter((entry) => entry.query.ocid === attempt);
}

function accepted(outcome: AsyncRequestOutcome) {
  expect(outcome).toMatchObject({ outcome: 'accepted', conversationId: expect.stringMatching(/^AG_\d{8}_[0-9a-f]{20}$/) });
  return outcome as Extract<AsyncRequestOutcome, { outcome: 'accepted' }>;
}

async function payout(attempt: string, amount = 250, phone = '254712000001') {
  return daraja.b2cPayment({ originatorConversationId: attempt, amount, phone, remarks: 'Tukio refund', ...urls('b2c', attempt) });
}

async function status(attempt: string, query: { originalConversationId?: string; transactionId?: string }, party: 'b2c' | 'paybill' = 'b2c') {
  accepted(await daraja.transactionStatus({ ...query, party, remarks: 'Tukio refund status', ...urls('status', attempt) }));
  return parseResult(await postedFor('status/result', attempt))!;
}

/** An STK payment completed on the simulator: its receipt. */
async function stkPayment(amount: number, phone: string) {
  const push = await daraja.stkPush({ amount, phone, accountReference: 'TK1', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/merchant/stk` });
  return vi.waitFor(
    () => {
      const callback = stkCallbacks.find((body) => body.Body.stkCallback.CheckoutRequestID === push.CheckoutRequestID);
      if (!callback) throw new Error('no STK callback');
      return String(callback.Body.stkCallback.CallbackMetadata.Item.find((item: any) => item.Name === 'MpesaReceiptNumber').Value);
    },
    { timeout: 15_000, interval: 10 },
  );
}

function b2cBody(overrides: Record<string, unknown> = {}) {
  return {
    OriginatorConversationID: nextAttempt(),
    InitiatorName: SIMULATOR_CREDENTIALS.initiatorName,
    SecurityCredential: credential(),
    CommandID: 'BusinessPayment',
    Amount: '100',
    PartyA: SIMULATOR_CREDENTIALS.b2cShortcode,
    PartyB: '254712000002',
    Remarks: 'Tukio refund',
    QueueTimeOutURL: `${base}/merchant/b2c/timeout`,
    ResultURL: `${base}/merchant/b2c/result`,
    Occassion: 'refund',
    ...overrides,
  };
}

function reversalBody(overrides: Record<string, unknown> = {}) {
  return {
    Initiator: SIMULATOR_CREDENTIALS.initiatorName,
    SecurityCredential: credential(),
    CommandID: 'TransactionReversal',
    TransactionID: 'PDU91HIVIT',
    Amount: '200',
    ReceiverParty: SIMULATOR_CREDENTIALS.shortcode,
    RecieverIdentifierType: '11',
    ResultURL: `${base}/merchant/reversal/result`,
    QueueTimeOutURL: `${base}/merchant/reversal/timeout`,
    Remarks: 'Tukio refund',
    ...overrides,
  };
}

function statusBody(overrides: Record<string, unknown> = {}) {
  return {
    Initiator: SIMULATOR_CREDENTIALS.initiatorName,
    SecurityCredential: credential(),
    CommandID: 'TransactionStatusQuery',
    OriginalConversationID: 'tukio-nothing-1',
    PartyA: SIMULATOR_CREDENTIALS.b2cShortcode,
    IdentifierType: '4',
    ResultURL: `${base}/merchant/status/result`,
    QueueTimeOutURL: `${base}/merchant/status/timeout`,
    Remarks: 'status',
    ...overrides,
  };
}

describe('SecurityCredential', () => {
  it('is the password under the M-Pesa key with PKCS#1 v1.5 padding, base64 (random padding: each differs)', () => {
    const first = credential();
    expect(first).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(first, 'base64')).toHaveLength(256);
    expect(credential()).not.toBe(first);
  });

  it('reads the certificate file at start: the simulator key as PEM, an X.509 certificate, or a ConfigError naming DARAJA_CERT_PATH', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-cert-'));
    try {
      const pem = path.join(dir, 'simulator.pem');
      writeFileSync(pem, simulator.payouts.publicKeyPem());
      const real = {
        DATA_DIR: dir,
        INTERNAL_API_KEY: 'k',
        DARAJA_CONSUMER_KEY: 'ck',
        DARAJA_CONSUMER_SECRET: 'cs',
        DARAJA_SHORTCODE: '174379',
        DARAJA_PASSKEY: 'pk',
        DARAJA_CALLBACK_URL: 'https://pay.example.com/api/mpesa/callback',
        DARAJA_INITIATOR_NAME: 'apiop37',
        DARAJA_INITIATOR_PASSWORD: 'Secret#1',
        DARAJA_B2C_SHORTCODE: '600997',
      };
      const config = loadPaymentConfig({ ...real, DARAJA_CERT_PATH: pem });
      expect(config.daraja.refunds).toMatchObject({ initiatorName: 'apiop37', b2cShortcode: '600997', securityCredential: expect.stringMatching(/^[A-Za-z0-9+/]{300,}=*$/) });
      const garbage = path.join(dir, 'garbage.cer');
      writeFileSync(garbage, 'not a certificate');
      expect(() => loadPaymentConfig({ ...real, DARAJA_CERT_PATH: garbage })).toThrow(/DARAJA_CERT_PATH/);
      expect(() => loadPaymentConfig({ ...real, DARAJA_CERT_PATH: path.join(dir, 'missing.cer') })).toThrow(ConfigError);

      let hasOpenssl = true;
      try {
        execFileSync('openssl', ['version'], { stdio: 'ignore' });
      } catch {
        hasOpenssl = false;
      }
      if (hasOpenssl) {
        // A certificate as the Daraja portal gives it (PEM, or DER): its public key encrypts.
        execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'k.pem'), '-out', path.join(dir, 'c.pem'), '-subj', '/CN=test', '-days', '1'], { stdio: 'ignore' });
        execFileSync('openssl', ['x509', '-in', path.join(dir, 'c.pem'), '-outform', 'DER', '-out', path.join(dir, 'c.cer')], { stdio: 'ignore' });
        for (const file of ['c.pem', 'c.cer']) {
          expect(loadPaymentConfig({ ...real, DARAJA_CERT_PATH: path.join(dir, file) }).daraja.refunds?.securityCredential).toMatch(/^[A-Za-z0-9+/]{300,}=*$/);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ DARAJA_INITIATOR_NAME: 'apiop37' }, /refunds need DARAJA_INITIATOR_NAME and DARAJA_B2C_SHORTCODE/],
    [{ DARAJA_INITIATOR_NAME: 'apiop37', DARAJA_B2C_SHORTCODE: '600997' }, /DARAJA_SECURITY_CREDENTIAL, or DARAJA_INITIATOR_PASSWORD and DARAJA_CERT_PATH/],
    [{ DARAJA_INITIATOR_NAME: 'apiop37', DARAJA_B2C_SHORTCODE: '600997', DARAJA_SECURITY_CREDENTIAL: 'A'.repeat(344), DARAJA_INITIATOR_PASSWORD: 'x' }, /not both/],
    [{ DARAJA_B2C_SHORTCODE: '60' }, /DARAJA_B2C_SHORTCODE/],
    [{ DARAJA_INITIATOR_NAME: 'apiop37', DARAJA_B2C_SHORTCODE: '600997', DARAJA_SECURITY_CREDENTIAL: 'A'.repeat(344), DARAJA_CALLBACK_URL: 'https://pay.example.com/hook' }, /must end in \/callback/],
  ])('refuses the refund settings %o at start', (env, message) => {
    const load = () =>
      loadPaymentConfig({
        DATA_DIR: '/tmp/tukio-refund-config',
        INTERNAL_API_KEY: 'k',
        DARAJA_CONSUMER_KEY: 'ck',
        DARAJA_CONSUMER_SECRET: 'cs',
        DARAJA_SHORTCODE: '174379',
        DARAJA_PASSKEY: 'pk',
        DARAJA_CALLBACK_URL: 'https://pay.example.com/api/mpesa/callback',
        ...env,
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it('leaves refunds off with no refund settings', () => {
    const real = loadPaymentConfig({
      DATA_DIR: '/tmp/tukio-refund-config',
      INTERNAL_API_KEY: 'k',
      DARAJA_CONSUMER_KEY: 'ck',
      DARAJA_CONSUMER_SECRET: 'cs',
      DARAJA_SHORTCODE: '174379',
      DARAJA_PASSKEY: 'pk',
      DARAJA_CALLBACK_URL: 'https://pay.example.com/api/mpesa/callback',
    });
    expect(real.daraja.refunds).toBeUndefined();
    // The refund results' outbox retries as the payouts' does (the API server's refunds job decides when to send).
    expect(real.payouts).toEqual({ resultRetryMs: 1000 });
    expect(() => loadPaymentConfig({ DATA_DIR: '/tmp/tukio-refund-config', INTERNAL_API_KEY: 'k', PAYOUT_RESULT_RETRY_MS: '-1' })).toThrow(/PAYOUT_RESULT_RETRY_MS/);
  });
});

describe('the simulator validates refund requests as Daraja does', () => {
  it('refuses calls without a valid access token', async () => {
    const res = await raw('/mpesa/b2c/v3/paymentrequest', b2cBody(), 'not-a-token');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ errorCode: '404.001.03', errorMessage: 'Invalid Access Token', requestId: expect.any(String) });
  });

  it.each([
    [{ OriginatorConversationID: '' }, 'OriginatorConversationID'],
    [{ InitiatorName: undefined }, 'InitiatorName'],
    [{ SecurityCredential: '' }, 'SecurityCredential'],
    [{ CommandID: 'Refund' }, 'CommandID'],
    [{ Amount: '10.5' }, 'Amount'],
    [{ Amount: 0 }, 'Amount'],
    [{ PartyA: '600000' }, 'PartyA'],
    [{ PartyB: '0712345678' }, 'PartyB'],
    [{ Remarks: 'x' }, 'Remarks'],
    [{ Remarks: 'x'.repeat(101) }, 'Remarks'],
    [{ ResultURL: 'not a url' }, 'ResultURL'],
    [{ QueueTimeOutURL: undefined }, 'QueueTimeOutURL'],
  ])('B2C %j -> 400.002.02 Invalid %s', async (overrides, field) => {
    const res = await raw('/mpesa/b2c/v3/paymentrequest', b2cBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: '400.002.02', errorMessage: `Bad Request - Invalid ${field}` });
  });

  it.each([
    [{ Initiator: '' }, 'Initiator'],
    [{ CommandID: 'Reversal' }, 'CommandID'],
    [{ TransactionID: 'short' }, 'TransactionID'],
    [{ Amount: -5 }, 'Amount'],
    [{ ReceiverParty: '600000' }, 'ReceiverParty'],
    // Daraja's own spelling is the only one it takes.
    [{ RecieverIdentifierType: undefined, ReceiverIdentifierType: '11' }, 'RecieverIdentifierType'],
    [{ RecieverIdentifierType: '4' }, 'RecieverIdentifierType'],
    [{ Remarks: '' }, 'Remarks'],
  ])('reversal %j -> 400.002.02 Invalid %s', async (overrides, field) => {
    const res = await raw('/mpesa/reversal/v1/request', reversalBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: '400.002.02', errorMessage: `Bad Request - Invalid ${field}` });
  });

  it.each([
    [{ CommandID: 'Query' }, 'CommandID'],
    [{ OriginalConversationID: undefined }, 'TransactionID'],
    [{ PartyA: 'abc' }, 'PartyA'],
    [{ IdentifierType: '11' }, 'IdentifierType'],
    [{ ResultURL: 'ftp://x' }, 'ResultURL'],
  ])('Transaction Status %j -> 400.002.02 Invalid %s', async (overrides, field) => {
    const res = await raw('/mpesa/transactionstatus/v1/query', statusBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: '400.002.02', errorMessage: `Bad Request - Invalid ${field}` });
  });

  it('answers a duplicate OriginatorConversationID with 500.002.1001, which the client reports as unknown (the first request counts)', async () => {
    const body = b2cBody();
    expect((await raw('/mpesa/b2c/v3/paymentrequest', body)).body).toMatchObject({ ResponseCode: '0', OriginatorConversationID: body.OriginatorConversationID });
    const again = await raw('/mpesa/b2c/v3/paymentrequest', { ...body, SecurityCredential: credential() });
    expect(again.status).toBe(500);
    expect(again.body).toMatchObject({ errorCode: '500.002.1001', errorMessage: 'Duplicate OriginatorConversationID' });
    expect(await payout(body.OriginatorConversationID)).toMatchObject({ outcome: 'unknown', reason: expect.stringContaining('500.002.1001') });
    expect(simulator.payouts.payouts.size).toBeGreaterThan(0);
  });

  it('gives the client typed outcomes: rejected for an error body, unknown when Daraja cannot be reached', async () => {
    expect(await payout(nextAttempt(), 100, '0712000000')).toEqual({ outcome: 'rejected', errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid PartyB' });
    const unreachable = createDarajaClient({
      ...SIMULATOR_CREDENTIALS,
      baseUrl: 'http://127.0.0.1:1',
      timeoutMs: 2000,
      refunds: { initiatorName: 'x', b2cShortcode: '600999', securityCredential: 'abc' },
    });
    expect(await unreachable.reversal({ transactionId: 'PDU91HIVIT', amount: 10, remarks: 'r', resultUrl: 'http://x/r', timeoutUrl: 'http://x/t' })).toMatchObject({ outcome: 'unknown' });
    const off = createDarajaClient({ ...SIMULATOR_CREDENTIALS, baseUrl: base, timeoutMs: 2000 });
    expect(off.refundsEnabled).toBe(false);
    expect(() => off.b2cPayment({ originatorConversationId: 'x', amount: 10, phone: '254712000000', remarks: 'r', resultUrl: 'http://x/r', timeoutUrl: 'http://x/t' })).toThrow(/not configured/);
  });
});

describe('payouts, reversals and their results', () => {
  it('pays a B2C refund: accepted with our OriginatorConversationID, then the result with the receipt, on the ledger', async () => {
    const attempt = nextAttempt();
    expect(accepted(await payout(attempt, 250, '254712000003')).originatorConversationId).toBe(attempt);
    const result = (await postedFor('b2c/result', attempt)).Result;
    expect(result).toMatchObject({ ResultType: 0, ResultCode: 0, OriginatorConversationID: attempt, TransactionID: expect.stringMatching(/^[A-Z0-9]{10}$/) });
    const parsed = parseResult({ Result: result })!;
    expect(resultParameter(parsed.parameters, 'TransactionAmount')).toBe(250);
    expect(resultParameter(parsed.parameters, 'TransactionReceipt')).toBe(result.TransactionID);
    expect((await ledger()).refunds).toContainEqual(expect.objectContaining({ transactionId: result.TransactionID, originatorConversationId: attempt, amount: 250, kind: 'b2c', phone: '254712000003' }));
  });

  it('answers insufficient float (1) and invalid initiator (2001) as chosen, and 2001 for a credential not under its key', async () => {
    expect((await control('POST', { mode: 'insufficient-float' })).status).toBe(201);
    const poor = nextAttempt();
    accepted(await payout(poor));
    const noFloat = (await postedFor('b2c/result', poor)).Result;
    expect(noFloat).toMatchObject({ ResultCode: 1, ResultDesc: 'The balance is insufficient for the transaction.' });
    expect(noFloat.ResultParameters).toBeUndefined();

    await control('POST', { mode: 'invalid-initiator' });
    const wrong = nextAttempt();
    accepted(await payout(wrong));
    expect((await postedFor('b2c/result', wrong)).Result).toMatchObject({ ResultCode: 2001, ResultDesc: 'The initiator information is invalid.' });

    // OAEP instead of PKCS#1 v1.5: accepted now, refused in the result, as on Daraja.
    const oaep = publicEncrypt({ key: simulator.payouts.publicKey(), padding: constants.RSA_PKCS1_OAEP_PADDING }, Buffer.from(SIMULATOR_CREDENTIALS.initiatorPassword)).toString('base64');
    const body = b2cBody({ SecurityCredential: oaep, ResultURL: `${base}/merchant/b2c/result?ocid=oaep` });
    expect((await raw('/mpesa/b2c/v3/paymentrequest', body)).body.ResponseCode).toBe('0');
    expect((await postedFor('b2c/result', 'oaep')).Result.ResultCode).toBe(2001);

    // Modes are used up; the next payout succeeds again. Nothing failed is on the ledger.
    const fine = nextAttempt();
    accepted(await payout(fine));
    expect((await postedFor('b2c/result', fine)).Result.ResultCode).toBe(0);
    const paid = (await ledger()).refunds.map((refund) => refund.originatorConversationId);
    expect(paid).toContain(fine);
    expect(paid).not.toContain(poor);
    expect(paid).not.toContain(wrong);
  });

  it('posts a queue timeout instead of a result, the payout made or not; Transaction Status then tells which', async () => {
    await control('POST', { mode: 'queue-timeout', payout: true });
    const made = nextAttempt();
    accepted(await payout(made, 300));
    expect((await postedFor('b2c/timeout', made)).Result.OriginatorConversationID).toBe(made);
    const found = await status(`status-${made}`, { originalConversationId: made });
    expect(found.resultCode).toBe('0');
    expect(resultParameter(found.parameters, 'TransactionStatus')).toBe('Completed');
    expect(resultParameter(found.parameters, 'Amount')).toBe(300);
    expect(resultParameter(found.parameters, 'ReceiptNo')).toMatch(/^[A-Z0-9]{10}$/);
    expect(resultParameter(found.parameters, 'TransactionReason')).toBeUndefined();

    await control('POST', { mode: 'queue-timeout', payout: false });
    const lost = nextAttempt();
    accepted(await payout(lost));
    await postedFor('b2c/timeout', lost);
    const missing = await status(`status-${lost}`, { originalConversationId: lost });
    expect(missing.resultCode).toBe('SFC_IC0003');
    expect(posted.filter((entry) => entry.path === 'b2c/result' && (entry.query.ocid === made || entry.query.ocid === lost))).toEqual([]);
  });

  it('pays without any callback in no-result mode; Transaction Status finds it, by request or by receipt', async () => {
    await control('POST', { mode: 'no-result' });
    const silent = nextAttempt();
    accepted(await payout(silent, 120));
    expect(await nothingPosted(silent)).toEqual([]);
    const found = await status(`status-${silent}`, { originalConversationId: silent });
    expect(resultParameter(found.parameters, 'TransactionStatus')).toBe('Completed');
    const receipt = String(resultParameter(found.parameters, 'ReceiptNo'));
    const byReceipt = await status(`status-receipt-${silent}`, { transactionId: receipt });
    expect(resultParameter(byReceipt.parameters, 'Originator Conversation ID')).toBe(silent);
    // A failed payout is found too, as Failed.
    await control('POST', { mode: 'insufficient-float' });
    const failed = nextAttempt();
    accepted(await payout(failed));
    await postedFor('b2c/result', failed);
    expect(resultParameter((await status(`status-${failed}`, { originalConversationId: failed })).parameters, 'TransactionStatus')).toBe('Failed');
  });

  it('reverses an STK payment once: R000001 the second time, R000002 for a receipt it never issued; Daraja names the request', async () => {
    const receipt = await stkPayment(150, '254712000004');
    const attempt = nextAttempt();
    const first = accepted(await daraja.reversal({ transactionId: receipt, amount: 150, remarks: 'Tukio refund', ...urls('reversal', attempt) }));
    expect(first.originatorConversationId).not.toBe(attempt);
    const result = (await postedFor('reversal/result', attempt)).Result;
    expect(result).toMatchObject({ ResultCode: 0, OriginatorConversationID: first.originatorConversationId, ConversationID: first.conversationId, TransactionID: expect.stringMatching(/^[A-Z0-9]{10}$/) });
    const parsed = parseResult({ Result: result })!;
    expect(resultParameter(parsed.parameters, 'OriginalTransactionID')).toBe(receipt);
    expect(resultParameter(parsed.parameters, 'Amount')).toBe(150);

    const again = nextAttempt();
    accepted(await daraja.reversal({ transactionId: receipt, amount: 150, remarks: 'Tukio refund', ...urls('reversal', again) }));
    expect((await postedFor('reversal/result', again)).Result).toMatchObject({ ResultCode: 'R000001', TransactionID: expect.stringMatching(/^[A-Z0-9]{3}0000000$/) });

    const unknown = nextAttempt();
    accepted(await daraja.reversal({ transactionId: 'ZZZ0000001', amount: 150, remarks: 'Tukio refund', ...urls('reversal', unknown) }));
    expect((await postedFor('reversal/result', unknown)).Result.ResultCode).toBe('R000002');

    // Transaction Status of the reversal, by the id Daraja gave it, from the paybill.
    const found = await status(`status-${attempt}`, { originalConversationId: first.originatorConversationId }, 'paybill');
    expect(resultParameter(found.parameters, 'ReceiptNo')).toBe(result.TransactionID);
    const books = await ledger();
    expect(books.payments).toContainEqual(expect.objectContaining({ receipt, amount: 150, phone: '254712000004', checkoutRequestId: expect.any(String) }));
    expect(books.refunds.filter((refund) => refund.kind === 'reversal' && refund.originalReceipt === receipt)).toEqual([
      expect.objectContaining({ transactionId: result.TransactionID, amount: 150, phone: '254712000004' }),
    ]);
  });

  it('answers R000001 in already-reversed mode, for that phone only', async () => {
    const receipt = await stkPayment(90, '254712000005');
    await control('POST', { mode: 'already-reversed', phone: '254712000099' });
    await control('POST', { mode: 'already-reversed', phone: '254712000005' });
    const attempt = nextAttempt();
    accepted(await daraja.reversal({ transactionId: receipt, amount: 90, remarks: 'Tukio refund', ...urls('reversal', attempt) }));
    expect((await postedFor('reversal/result', attempt)).Result.ResultCode).toBe('R000001');
    expect((await control('GET')).body).toEqual([{ mode: 'already-reversed', times: 1, payout: false, phone: '254712000099' }]);
  });

  it('shares one OAuth token between STK and refund calls', async () => {
    const fresh = client();
    const before = oauthCalls;
    await fresh.stkPush({ amount: 10, phone: '254712000006', accountReference: 'TK2', transactionDesc: 'Tukio ticket', callbackUrl: `${base}/merchant/stk` });
    accepted(await fresh.b2cPayment({ originatorConversationId: nextAttempt(), amount: 10, phone: '254712000006', remarks: 'x', ...urls('b2c', 'shared') }));
    accepted(await fresh.transactionStatus({ originalConversationId: 'anything', party: 'b2c', remarks: 'x', ...urls('status', 'shared') }));
    expect(oauthCalls - before).toBe(1);
  });
});

describe('control endpoint and ledger', () => {
  it('need the simulator key; modes are validated', async () => {
    expect((await control('POST', { mode: 'success' }, 'wrong-key-wrong-key')).status).toBe(401);
    expect((await fetch(`${base}/simulator/ledger`)).status).toBe(401);
    expect((await fetch(`${base}/simulator/payouts`)).status).toBe(401);
    expect((await control('POST', { mode: 'explode' })).status).toBe(400);
    expect((await control('POST', { mode: 'success', times: 0 })).status).toBe(400);
    expect((await control('POST', { mode: 'success', times: 2 })).body).toEqual([{ mode: 'success', times: 2, payout: false }]);
    // The public key is public.
    expect(await (await fetch(`${base}/simulator/certificate.pem`)).text()).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(mpesaPublicKey(Buffer.from(simulator.payouts.publicKeyPem())).asymmetricKeyType).toBe('rsa');
  });
});

describe('result parsing is tolerant', () => {
  it('reads ResultCode as a number or a string, ReferenceItem and ResultParameter as an object or an array, parameters without Value', () => {
    const parsed = parseResult({
      Result: {
        ResultType: '0',
        ResultCode: 'R000002',
        ResultDesc: 'The OriginalTransactionID is invalid.',
        OriginatorConversationID: 'dad6-4c34-8787-c8cb963a496d1268232',
        ConversationID: 'AG_20211114_201018edbbf9f1582eaa',
        TransactionID: 'SKE0000000',
        ResultParameters: { ResultParameter: { Key: 'Charge' } },
        ReferenceData: { ReferenceItem: [{ Key: 'QueueTimeoutURL', Value: 'https://example.com' }, { Key: 'Occasion' }] },
      },
    })!;
    expect(parsed).toMatchObject({ resultCode: 'R000002', transactionId: 'SKE0000000' });
    expect(resultParameter(parsed.parameters, 'Charge')).toBeUndefined();
    expect(parseResult({ Result: { ResultCode: 0, ResultParameters: { ResultParameter: [{ Key: 'Amount', Value: 10 }, { Key: 'Odd', Value: { nested: true } }] } } })).toMatchObject({ resultCode: '0', resultDesc: '' });
    expect(parseResult({ Result: {} })).toBeUndefined();
    expect(parseResult({ Body: {} })).toBeUndefined();
  });
});
