import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, payouts } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { loadPaymentService, type PaymentModules, type PaymentService, type Simulator } from './helpers/payment-service.js';
import { payFor } from './helpers/refunds.js';
import { payoutCodeSentTo } from './helpers/sms.js';
import { freePort, startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * One payout through the real modules and services: the organiser confirms an M-Pesa number (payout-accounts, SMS
 * code), the API server's job sends the payout
 * (POST /internal/payouts), the simulator pays the B2C and calls back, and the payment service's outbox delivers the
 * result to POST /api/internal/payouts/results, which posts payout_paid and keeps the receipt.
 */

/** MPESA_TARIFF: a B2C payout of 1500 costs 17. */
const PAYOUT_TARIFF = { receive: [[250_000, 0]], b2c: [[250_000, 17]], b2b: [[250_000, 29]] };

let t: TestServer;
let modules: PaymentModules;
let paymentConfig: unknown;
let pay: PaymentService;
let simulator: Simulator;
let dataDir: string;

beforeAll(async () => {
  const paymentPort = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-payouts-e2e-'));
  modules = await loadPaymentService();
  simulator = await modules.simulator.startTestSimulator(dataDir, { SIMULATOR_DELAY_MS: '20' });
  // A tariff with charges for payouts only (receiving free): the B2C result names no charge, the tariff's is recorded.
  t = await startTestServer({ PAYMENT_PORT: String(paymentPort), PAYOUT_JOB_MS: '0', SMS_POLL_MS: '100', SMS_REMINDER_SWEEP_MS: '0', MPESA_TARIFF: JSON.stringify(PAYOUT_TARIFF) });
  paymentConfig = modules.config.loadPaymentConfig({
      NODE_ENV: 'test',
      PAYMENT_PORT: String(paymentPort),
      DATA_DIR: path.join(dataDir, 'payments'),
      API_URL: t.url,
      INTERNAL_API_KEY: t.config.internalApiKey,
      CALLBACK_SECRET: 'payouts-e2e-callback-secret-0123',
      ...simulator.paymentEnv,
      RECONCILE_INTERVAL_MS: '0',
      REFUND_POLL_MS: '0',
      PAYOUT_RESULT_RETRY_MS: '20',
      LOG_LEVEL: 'silent',
  });
  pay = await modules.start.startPaymentService(paymentConfig, { host: '127.0.0.1' });
  simulator.allowCallbacksTo(pay.callbackUrl);
}, 120_000);

afterAll(async () => {
  await pay?.close();
  await simulator?.close();
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Polls until `check` answers something (a result travels through the simulator and the outbox). */
async function waitFor<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a payout through the payment service and the simulator', () => {
  it('is sent once, paid by B2C, and its result (delivered by the outbox) posts payout_paid with the receipt', async () => {
    const organiser = await t.createUser('e2eorganiser', 'organiser-secret-1');
    const buyer = await t.createUser('e2ebuyer');
    const admin = await t.loginAdmin();
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 750 });
    // The organiser's first destination: confirmed with the code sent to it, no hold.
    const phone = '254722000999';
    const asked = await t.api('POST', '/api/payout-account', { token: organiser.token, body: { password: 'organiser-secret-1', destination: { method: 'mpesa', phone } } });
    expect(asked.status).toBe(202);
    expect((await t.api('POST', '/api/payout-account/confirm', { token: organiser.token, body: { code: await payoutCodeSentTo(t, phone) } })).status).toBe(200);
    const bought = await payFor(t, buyer.token, eventId, { quantity: 2, phone: '254711000777' });
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 10 * 24 * 60 * 60 * 1000) }).where(eq(events.id, eventId));

    await t.services.payouts.job.runOnce();
    const paid = await waitFor(async () => {
      const [row] = await t.db.select().from(payouts).where(eq(payouts.organiserId, organiser.user._id));
      return row?.status === 'paid' ? row : undefined;
    }, 'the payout to be paid');
    expect(paid).toMatchObject({ amount: 1500, attempts: 1, destination: { method: 'mpesa', phone } });
    expect(paid.receipt).toMatch(/^[A-Z0-9]{10}$/);
    // The simulator's B2C result callback names no charge (its Transaction Status answer does): MPESA_TARIFF's, Tukio's cost.
    expect(paid.charge).toBe(17);
    expect((await t.api('GET', '/api/admin/ledger/balances', { token: admin.token })).body.balances).toMatchObject({ mpesa_charges: -17, platform_fees: 17 });
    const balances = (await t.api('GET', `/api/admin/ledger/balances?eventId=${eventId}`, { token: admin.token })).body.balances;
    expect(balances).toMatchObject({ mpesa_clearing: 0, organiser_payable: 0, payouts_in_flight: 0 });
    const statement = await t.api('GET', `/api/payouts/events/${eventId}/statement`, { token: organiser.token });
    expect(statement.body).toMatchObject({ grossSales: 1500, net: 1500, paidOut: 1500, balance: 0, payouts: [{ receipt: paid.receipt, status: 'paid' }] });
    // Nothing more is sent on later runs.
    await t.services.payouts.job.runOnce();
    expect(await t.db.select().from(payouts).where(eq(payouts.organiserId, organiser.user._id))).toHaveLength(1);

    // The payments audit as `npm run audit:payments` runs it: the simulator's ledger reports the B2C payout, which
    // matches the paid attempt. The buyer's payment was settled through the internal calls (not the simulator's STK),
    // so it is added to M-Pesa's books as M-Pesa would report it.
    const books = await modules.audit.providerBooks({ ledgerUrl: `${simulator.url}/simulator/ledger`, key: simulator.paymentEnv.SIMULATOR_KEY });
    expect(books.payouts).toMatchObject([{ transactionId: paid.receipt, amount: 1500, kind: 'b2c' }]);
    books.payments.push({ receipt: bought.receipt, amount: bought.amount, phone: bought.phone, checkoutRequestId: bought.checkoutRequestId });
    const audit = await modules.audit.auditBooks(paymentConfig, books);
    expect(audit.checked).toMatchObject({ payments: 1, payouts: 1 });
    expect(audit.discrepancies).toEqual([]);
  });
});
