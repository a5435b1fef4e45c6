import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@tukio/shared/node/logger';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../../simulator/src/config.js';
import { createDarajaSimulator } from '../../simulator/src/simulator.js';
import { createDarajaClient } from '../src/daraja/daraja-client.js';
import { createPullTransactions } from '../src/pull-transactions.js';

/** Reconciliation's Pull Transactions client against the simulator, with pages of 2 rows: every page is read once. */
let server: Server;
let simulator: ReturnType<typeof createDarajaSimulator>;
let base: string;
const logger = createLogger({ service: 'payment-service', level: 'silent' });

beforeAll(async () => {
  simulator = createDarajaSimulator({ ...SIMULATOR_CREDENTIALS, delayMs: 10, pullPageSize: 2, promptTimeoutMs: 60_000, tokenTtlSeconds: 3599, key: 'pull-client-key', callbackOrigins: [], logger: createLogger({ service: 'daraja-simulator', level: 'silent' }) });
  const app = express();
  app.use('/', simulator.api);
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  simulator?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

describe('Pull Transactions client', () => {
  it('registers, then reads every page of the window once, with the country code put back on the payer', async () => {
    const paid: string[] = [];
    for (let index = 0; index < 5; index++) paid.push((await simulator.c2b.pay({ phone: '254712000222', account: `ORDER${index}`, amount: 200 + index, mode: 'no-confirmation' }).done).transId);
    const pull = createPullTransactions({ daraja: createDarajaClient({ ...SIMULATOR_CREDENTIALS, baseUrl: base, timeoutMs: 5000 }), shortCode: SIMULATOR_CREDENTIALS.shortcode, nominatedNumber: '254708374149', callbackUrl: () => 'https://pay.tukio.example/hooks/pull', logger });
    const listed = await pull.list(new Date(Date.now() - 3600_000), new Date(Date.now() + 60_000));
    expect(simulator.pull.registered()).toBe(true);
    expect(listed.shortCode).toBe(SIMULATOR_CREDENTIALS.shortcode);
    expect(listed.transactions.map((row) => row.transId)).toEqual(paid);
    expect(listed.transactions[4]).toMatchObject({ billRefNumber: 'ORDER4', amount: 204, msisdn: '254712000222' });
    // A window with nothing in it: M-Pesa's 1001 is an empty list.
    expect((await pull.list(new Date(Date.now() - 7200_000), new Date(Date.now() - 3600_000))).transactions).toEqual([]);
  });
});
