import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../../simulator/src/config.js';
import { loadPaymentConfig } from '../src/config.js';
import { darajaPassword, darajaTimestamp } from '@tukio/shared/daraja-protocol';
import { startPaymentService } from '../src/start.js';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * The payment service listens on loopback unless told otherwise (browsers reach it through the API server), and
 * the Daraja simulator, whose credentials are in the repository, posts callbacks only to the service's own
 * callback origin: a push naming another URL (a loopback service, say) is refused and that URL never called.
 */

let s: Stack;
let stranger: Server;
let strangerUrl: string;
const strangerRequests: string[] = [];

beforeAll(async () => {
  s = await startStack();
  // Another service on this machine: what a forged CallBackURL would aim at.
  stranger = createServer((req, res) => {
    strangerRequests.push(`${req.method} ${req.url}`);
    res.end('{}');
  });
  await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
  strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  await s?.close();
  await new Promise<void>((resolve) => stranger?.close(() => resolve()));
});

/** Whether a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const externalAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

describe('where the payment service listens', () => {
  it('on loopback by default; PAYMENT_HOST opens it to every interface (containers)', { timeout: 120_000 }, async () => {
    expect(s.pay.address).toBe('127.0.0.1');
    expect(await connects('127.0.0.1', s.pay.port)).toBe(true);
    if (externalAddress) expect(await connects(externalAddress, s.pay.port)).toBe(false);

    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-host-'));
    const open = await startPaymentService(
      loadPaymentConfig({ NODE_ENV: 'test', PAYMENT_PORT: '0', PAYMENT_HOST: '0.0.0.0', DATA_DIR: dataDir, API_URL: s.server.url, INTERNAL_API_KEY: 'x', RECONCILE_INTERVAL_MS: '0', LOG_LEVEL: 'silent', ...s.sim.paymentEnv }),
    );
    try {
      expect(open.address).toBe('0.0.0.0');
      expect((await fetch(`${open.url}/api/health`)).status).toBe(200);
      if (externalAddress) expect(await connects(externalAddress, open.port)).toBe(true);
    } finally {
      await open.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the simulator's callbacks", () => {
  async function darajaToken(): Promise<string> {
    const basic = Buffer.from(`${SIMULATOR_CREDENTIALS.consumerKey}:${SIMULATOR_CREDENTIALS.consumerSecret}`).toString('base64');
    const res = await fetch(`${s.sim.url}/oauth/v1/generate?grant_type=client_credentials`, { headers: { authorization: `Basic ${basic}` } });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async function darajaPost(route: string, body: Record<string, unknown>) {
    const res = await fetch(`${s.sim.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await darajaToken()}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('refuses a push whose CallBackURL is not the service\'s own, as Daraja refuses a bad request, and never calls it', { timeout: 120_000 }, async () => {
    const timestamp = darajaTimestamp();
    const push = (callbackUrl: string, phone: string) =>
      darajaPost('/mpesa/stkpush/v1/processrequest', {
        BusinessShortCode: SIMULATOR_CREDENTIALS.shortcode,
        Password: darajaPassword(SIMULATOR_CREDENTIALS.shortcode, SIMULATOR_CREDENTIALS.passkey, timestamp),
        Timestamp: timestamp,
        TransactionType: 'CustomerPayBillOnline',
        Amount: 10,
        PartyA: phone,
        PartyB: SIMULATOR_CREDENTIALS.shortcode,
        PhoneNumber: phone,
        CallBackURL: callbackUrl,
        AccountReference: 'TK12345',
        TransactionDesc: 'Tukio ticket',
      });
    for (const [index, target] of [`${strangerUrl}/anything`, `http://localhost:${new URL(strangerUrl).port}/x`, 'http://169.254.169.254/latest/meta-data'].entries()) {
      const refused = await push(target, `25473300090${index}`);
      expect(refused.status, target).toBe(400);
      expect(refused.body).toMatchObject({ errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid CallBackURL', requestId: expect.any(String) });
    }
    // A payout's ResultURL and QueueTimeOutURL too.
    const payout = await darajaPost('/mpesa/b2c/v3/paymentrequest', {
      OriginatorConversationID: 'exposure-test-1',
      InitiatorName: SIMULATOR_CREDENTIALS.initiatorName,
      SecurityCredential: 'c2VjcmV0',
      CommandID: 'BusinessPayment',
      Amount: 10,
      PartyA: SIMULATOR_CREDENTIALS.b2cShortcode,
      PartyB: '254733000909',
      Remarks: 'refund',
      QueueTimeOutURL: `${strangerUrl}/timeout`,
      ResultURL: `${strangerUrl}/result`,
    });
    expect(payout.status).toBe(400);
    expect(payout.body).toMatchObject({ errorCode: '400.002.02', errorMessage: expect.stringMatching(/^Bad Request - Invalid (QueueTimeOutURL|ResultURL)$/) });

    // The service's own pushes are called back as before; by the time this one settled, nothing reached the stranger.
    const organiser = await s.quickUser('exposureorganiser');
    const buyer = await s.quickUser('exposurebuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 40 });
    const ok = await s.stkPush(buyer.token, eventId, '254733000999');
    expect(ok.status).toBe(200);
    await s.waitPromptDone(ok.body.CheckoutRequestID);
    expect((await s.waitSettled(buyer.token, ok.body.CheckoutRequestID)).body).toMatchObject({ success: true });
    expect(strangerRequests).toEqual([]);
  });
});
