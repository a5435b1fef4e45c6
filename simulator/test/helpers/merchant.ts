import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { darajaPassword, darajaTimestamp } from '@tukio/shared/daraja-protocol';
import { createLogger } from '@tukio/shared/node/logger';
import express from 'express';
import { SIMULATOR_CREDENTIALS } from '../../src/config.js';
import { createDarajaSimulator } from '../../src/simulator.js';

/**
 * The simulator's Daraja protocol on a random port next to a merchant's callback route (`<base>/callback`, the
 * only origin it posts to), for tests that speak the protocol as a payment service does. Counts OAuth calls.
 */
export async function startSimulatorWithMerchant() {
  const callbacks: unknown[] = [];
  const callbackOrigins: string[] = [];
  let oauthCalls = 0;
  const simulator = createDarajaSimulator({ ...SIMULATOR_CREDENTIALS, delayMs: 10, promptTimeoutMs: 60_000, tokenTtlSeconds: 3599, key: 'daraja-test-simulator-key', callbackOrigins, logger: createLogger({ service: 'daraja-simulator', level: 'silent' }) });
  const app = express();
  app.use((req, _res, next) => {
    if (req.path.startsWith('/oauth')) oauthCalls += 1;
    next();
  });
  app.post('/callback', express.json(), (req, res) => {
    callbacks.push(req.body);
    res.json({ ResultCode: 0 });
  });
  app.use('/simulator', simulator.phone);
  app.use('/', simulator.api);
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  callbackOrigins.push(base);

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

  /** A valid STK push request body; `overrides` make it invalid in one way. */
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

  return {
    base,
    simulator,
    callbacks,
    oauthCalls: () => oauthCalls,
    raw,
    accessToken,
    pushBody,
    async close() {
      simulator.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
