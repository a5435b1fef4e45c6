import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { loadPaymentService, type PaymentModules, type PaymentService, type ProviderBooks, type Simulator } from './payment-service.js';
import { payoutCodeSentTo } from './sms.js';
import { freePort, startTestServer, type TestServer } from './test-server.js';

/**
 * An API server, the real payment service and the Daraja simulator wired together for payouts tests: the server's
 * payouts job is run by the test (`PAYOUT_JOB_MS: 0`), the payment service's outbox retries results quickly.
 */
export interface PayoutServices {
  t: TestServer;
  modules: PaymentModules;
  paymentConfig: unknown;
  pay: PaymentService;
  simulator: Simulator;
  /** The payments audit as `npm run audit:payments` runs it: M-Pesa's books from the simulator's ledger, plus `extra`. */
  audit(extra?: Partial<ProviderBooks>): Promise<Awaited<ReturnType<PaymentModules['audit']['auditBooks']>> & { books: ProviderBooks }>;
  close(): Promise<void>;
}

export async function startPayoutServices(
  options: { serverEnv?: Record<string, string>; paymentEnv?: Record<string, string>; simulatorEnv?: Record<string, string>; databaseUrl?: string } = {},
): Promise<PayoutServices> {
  const paymentPort = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-payouts-e2e-'));
  const modules = await loadPaymentService();
  const simulator = await modules.simulator.startTestSimulator(dataDir, { SIMULATOR_DELAY_MS: '20', ...options.simulatorEnv });
  const t = await startTestServer({ PAYMENT_PORT: String(paymentPort), PAYOUT_JOB_MS: '0', SMS_POLL_MS: '100', SMS_REMINDER_SWEEP_MS: '0', DARAJA_SIMULATOR_URL: simulator.url, ...options.serverEnv }, { databaseUrl: options.databaseUrl });
  const paymentConfig = modules.config.loadPaymentConfig({
    NODE_ENV: 'test',
    PAYMENT_PORT: String(paymentPort),
    DATA_DIR: path.join(dataDir, 'payments'),
    API_URL: t.url,
    INTERNAL_API_KEY: t.config.internalApiKey,
    CALLBACK_SECRET: 'payouts-e2e-callback-secret-0123',
    ...simulator.paymentEnv,
    RECONCILE_INTERVAL_MS: '0',
    PAYOUT_RESULT_RETRY_MS: '20',
    LOG_LEVEL: 'silent',
    ...options.paymentEnv,
  });
  const pay = await modules.start.startPaymentService(paymentConfig, { host: '127.0.0.1' });
  simulator.allowCallbacksTo(pay.callbackUrl);
  return {
    t,
    modules,
    paymentConfig,
    pay,
    simulator,
    async audit(extra = {}) {
      const books = await modules.audit.providerBooks({ ledgerUrl: `${simulator.url}/simulator/ledger`, key: simulator.paymentEnv.SIMULATOR_KEY });
      books.payments.push(...(extra.payments ?? []));
      books.refunds.push(...(extra.refunds ?? []));
      books.payouts.push(...(extra.payouts ?? []));
      return { ...(await modules.audit.auditBooks(paymentConfig, books)), books };
    },
    async close() {
      await pay.close();
      await simulator.close();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` answers something (a result travels through the simulator and the outbox). */
export async function waitFor<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The organiser's first payout destination, an M-Pesa number confirmed with the code sent to it (no hold). */
export async function confirmPayoutPhone(t: TestServer, organiser: { token: string }, password: string, phone: string) {
  const asked = await t.api('POST', '/api/payout-account', { token: organiser.token, body: { password, destination: { method: 'mpesa', phone } } });
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  expect((await t.api('POST', '/api/payout-account/confirm', { token: organiser.token, body: { code: await payoutCodeSentTo(t, phone) } })).status).toBe(200);
}

/**
 * A purchase through the browser's checkout: POST /pay/stkPush, the buyer enters the PIN on the simulated phone, and
 * /pay/confirmPayment answers success once the payment service delivered Daraja's callback. Returns the tickets bought.
 */
export async function buyThroughCheckout(t: TestServer, buyer: { token: string }, eventId: string, quantity: number, phone: string): Promise<string[]> {
  const pushed = await t.api('POST', '/pay/stkPush', { token: buyer.token, body: { phone, amount: 1, Order_ID: `${eventId}_${phone}`, quantity } });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  const promptPath = new URL(String(pushed.body.simulatorUrl)).pathname;
  const entered = await fetch(`${t.url}${promptPath}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'pin=1234', redirect: 'manual' });
  expect(entered.status).toBe(303);
  await waitFor(async () => {
    const confirmed = await t.api('POST', '/pay/confirmPayment', { token: buyer.token, body: { CheckoutRequestID: String(pushed.body.CheckoutRequestID) } });
    return confirmed.body.status === 'success' ? true : undefined;
  }, `the payment for ${eventId}`);
  const mine = (await t.api('GET', '/api/tickets/mine', { token: buyer.token })).body as Array<{ _id: string; event: { _id: string } }>;
  return mine.filter((ticket) => ticket.event._id === eventId).map((ticket) => ticket._id);
}
