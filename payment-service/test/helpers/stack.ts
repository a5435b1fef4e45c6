import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { newId } from '../../../server/src/db/ids.js';
import { users } from '../../../server/src/db/schema.js';
import { insertEventRow } from '../../../server/test/helpers/events.js';
import { freePort, startTestServer, type ApiResponse, type TestServer } from '../../../server/test/helpers/test-server.js';
import { loadPaymentConfig } from '../../src/config.js';
import { startPaymentService, type RunningPaymentService } from '../../src/start.js';
import { startTestSimulator } from './daraja-simulator.js';

export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256';
export const INTERNAL_KEY = 'test-internal-key';
export const CALLBACK_SECRET = 'test-callback-secret-0123456789';

export type Stack = Awaited<ReturnType<typeof startStack>>;

async function request<T = any>(
  base: string,
  method: string,
  route: string,
  options: { body?: unknown; token?: string | undefined; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${base}${route}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // HTML and CSV come back as text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/**
 * The real API server (fresh database, real SMTP inbox), the Daraja simulator and the payment service on random
 * ports, wired together over HTTP exactly as in production. `paymentEnv`'s SIMULATOR_* variables go to the simulator.
 */
export async function startStack(options: { serverEnv?: Record<string, string>; paymentEnv?: Record<string, string> } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-test-'));
  const simulatorEnv = Object.fromEntries(Object.entries(options.paymentEnv ?? {}).filter(([name]) => name.startsWith('SIMULATOR_')));
  const sim = await startTestSimulator(dataDir, simulatorEnv);
  // The API server asks the payment service for prompts: it must know its port before either starts.
  const paymentPort = String(await freePort());
  const server: TestServer = await startTestServer({
    PAYMENT_PORT: paymentPort,
    JWT_SECRET,
    INTERNAL_API_KEY: INTERNAL_KEY,
    DARAJA_SIMULATOR_URL: sim.url,
    CONFIRM_QUERY_AFTER_SECONDS: '3600',
    STK_RATE_LIMIT_PER_IP: '100000',
    STK_RATE_LIMIT_PER_USER: '100000',
    STK_RATE_LIMIT_PER_USER_DAY: '100000',
    STK_RATE_LIMIT_PER_PHONE: '100000',
    ...options.serverEnv,
  });
  const config = loadPaymentConfig({
    NODE_ENV: 'test',
    PAYMENT_PORT: paymentPort,
    DATA_DIR: dataDir,
    API_URL: server.url,
    INTERNAL_API_KEY: INTERNAL_KEY,
    CALLBACK_SECRET,
    ...sim.paymentEnv,
    RECONCILE_INTERVAL_MS: '0',
    RECONCILE_AFTER_SECONDS: '0',
    LOG_LEVEL: 'silent',
    ...options.paymentEnv,
  });
  const pay: RunningPaymentService = await startPaymentService(config);
  sim.allowCallbacksTo(pay.callbackUrl);
  // Registered at start, before the simulator would post to it: again now that it may (Paybill callbacks).
  await pay.paybill.registered;
  await pay.paybill.register();

  /** A verified user inserted directly, with a login token signed like the server's (fast for hundreds of buyers). */
  async function quickUser(name: string) {
    const id = newId();
    await server.db.insert(users).values({ id, username: name, email: `${name.toLowerCase()}@example.com`, passwordHash: 'x', emailVerifiedAt: new Date() });
    const token = jwt.sign({ tv: 0 }, JWT_SECRET, { subject: id, expiresIn: '1h' });
    return { token, user: { _id: id, username: name, email: `${name.toLowerCase()}@example.com` } };
  }

  /** An approved event owned by `ownerId`, `daysAhead` days from now (negative = past). */
  async function createEvent(input: { ownerId: string; price?: number; capacity?: number | null; daysAhead?: number; title?: string; status?: 'approved' | 'pending' }) {
    const { daysAhead, ...rest } = input;
    return insertEventRow(server.db, { ...rest, days: daysAhead ?? 7 });
  }

  const payApi = <T = any>(method: string, route: string, opts: { body?: unknown; token?: string | undefined; headers?: Record<string, string> } = {}) =>
    request<T>(pay.url, method, route, opts);
  /** The Daraja simulator's own port: its protocol, and its phone pages, ledger and controls under /simulator. */
  const simApi = <T = any>(method: string, route: string, opts: { body?: unknown; token?: string | undefined; headers?: Record<string, string> } = {}) =>
    request<T>(sim.url, method, route, opts);

  async function stkPush(token: string, eventId: string, phone: string, extra: Record<string, unknown> = {}) {
    return payApi('POST', '/api/stkPush', { token, body: { phone, amount: 1, Order_ID: `${eventId}_${phone}`, ...extra } });
  }

  async function confirm(token: string, checkoutRequestId: string) {
    return payApi('POST', '/api/confirmPayment', { token, body: { CheckoutRequestID: checkoutRequestId } });
  }

  /** Polls confirmPayment (as the client does) until the payment leaves `pending`. */
  async function waitSettled(token: string, checkoutRequestId: string, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await confirm(token, checkoutRequestId);
      if (res.status !== 200 || res.body.status !== 'pending') return res;
      if (Date.now() > deadline) throw new Error(`payment ${checkoutRequestId} still pending`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Opens the simulator's list of every prompt and its id-based actions (as a developer with the key). */
  const simulatorKey = { 'x-simulator-key': config.simulator.key };

  /** The simulator's view of a push (from the keyed list); `promptPath` is its buyer's own phone page. */
  async function prompt(checkoutRequestId: string) {
    const res = await simApi('GET', '/simulator/prompts', { headers: simulatorKey });
    return (res.body as Array<Record<string, any>>).find((p) => p.checkoutRequestId === checkoutRequestId);
  }

  /** Waits until the simulator has answered the prompt (its callback is then on its way or done). */
  async function waitPromptDone(checkoutRequestId: string, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await prompt(checkoutRequestId);
      if (found?.status === 'completed') return found;
      if (Date.now() > deadline) throw new Error(`prompt ${checkoutRequestId} not completed`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const callback = (body: unknown, secret = CALLBACK_SECRET) => payApi('POST', `/api/mpesa/callback/${secret}`, { body });

  return {
    server,
    pay,
    sim,
    config,
    api: server.api,
    payApi,
    simApi,
    quickUser,
    createEvent,
    stkPush,
    confirm,
    waitSettled,
    prompt,
    waitPromptDone,
    callback,
    simulatorKey,
    async close() {
      // Ticket emails are sent after the payment commits; let the last ones reach the inbox first.
      let seen = -1;
      for (let i = 0; i < 20 && seen !== server.smtp.inbox.length; i += 1) {
        seen = server.smtp.inbox.length;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await pay.close();
      await sim.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function successCallback(input: { checkoutRequestId: string; merchantRequestId: string; amount: number; phone: string; receipt: string }) {
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: input.merchantRequestId,
        CheckoutRequestID: input.checkoutRequestId,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        CallbackMetadata: {
          Item: [
            { Name: 'Amount', Value: input.amount },
            { Name: 'MpesaReceiptNumber', Value: input.receipt },
            { Name: 'Balance' },
            { Name: 'TransactionDate', Value: 20261122143000 },
            { Name: 'PhoneNumber', Value: Number(input.phone) },
          ],
        },
      },
    },
  };
}
