import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, tickets, unmatchedPayments } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { loadPaymentService, type PaymentService, type Simulator } from './helpers/payment-service.js';
import { internalHeaders, payFor } from './helpers/refunds.js';
import { freePort, startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Daily reconciliation (docs/decisions/reconciliation.md) through the whole stack: a Paybill payment M-Pesa (the
 * simulator) completed but never confirmed is found by the Pull Transactions query the payment service makes,
 * delivered through the Paybill confirmation path (tickets, or unmatched_payments), once however often the job runs,
 * and the admins' report lists it; the audit stays at 0.
 */
let t: TestServer;
let pay: PaymentService;
let simulator: Simulator;
let payDataDir: string;
let admin: { token: string };
let organiser: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string } };
let simulatorKey: string;

beforeAll(async () => {
  const paymentPort = await freePort();
  payDataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-reconcile-'));
  const modules = await loadPaymentService();
  simulator = await modules.simulator.startTestSimulator(payDataDir, { SIMULATOR_DELAY_MS: '20' });
  simulatorKey = simulator.paymentEnv.SIMULATOR_KEY!;
  t = await startTestServer({ PAYMENT_PORT: String(paymentPort), DARAJA_SIMULATOR_URL: simulator.url });
  pay = await modules.start.startPaymentService(
    modules.config.loadPaymentConfig({
      NODE_ENV: 'test',
      PAYMENT_PORT: String(paymentPort),
      DATA_DIR: payDataDir,
      API_URL: t.url,
      INTERNAL_API_KEY: t.config.internalApiKey,
      CALLBACK_SECRET: 'reconcile-test-callback-secret-01',
      ...simulator.paymentEnv,
      RECONCILE_INTERVAL_MS: '0',
      LOG_LEVEL: 'silent',
    }),
    { host: '127.0.0.1' },
  );
  admin = await t.loginAdmin();
  organiser = await t.createUser('reconcileorganiser');
  buyer = await t.createUser('reconcilebuyer');
}, 120_000);

afterAll(async () => {
  await pay?.close();
  await simulator?.close();
  await t?.close();
  if (payDataDir) rmSync(payDataDir, { recursive: true, force: true });
});

/** A payment from the simulated M-Pesa menu whose confirmation never reaches Tukio (mode no-confirmation). */
async function lostPayment(account: string, amount: number) {
  const res = await fetch(`${simulator.url}/simulator/menu/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-simulator-key': simulatorKey },
    body: JSON.stringify({ phone: '254712349001', account, amount, mode: 'no-confirmation' }),
  });
  expect(res.status).toBe(200);
  const payment = (await res.json()) as { transId: string; status: string };
  expect(payment.status).toBe('completed');
  return payment.transId;
}

async function heldOrder(price: number) {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price, capacity: null, title: `Reconcile night ${Math.random().toString(36).slice(2, 8)}` });
  const paid = await payFor(t, buyer.token, eventId, { phone: '254712349001', settle: false });
  const [order] = await t.db.select().from(orders).where(eq(orders.id, paid.orderId));
  return order!;
}

const reconcileNow = (token = admin.token) => t.api<any>('POST', '/api/admin/reconciliation/run', { token });

/** The audit of Tukio's books against the simulator's (M-Pesa's) own ledger. */
async function expectAuditClean() {
  const ledger = (await (await fetch(`${simulator.url}/simulator/ledger`, { headers: { 'x-simulator-key': simulatorKey } })).json()) as { payments: Array<{ receipt: string; amount: number; phone: string; checkoutRequestId?: string }> };
  const books = { payments: ledger.payments.map(({ receipt, amount, phone, checkoutRequestId }) => ({ receipt, amount, phone, ...(checkoutRequestId ? { checkoutRequestId } : {}) })), refunds: [] };
  const audited = await t.api<{ discrepancies: unknown[] }>('POST', '/api/internal/audit', { headers: internalHeaders(t), body: books });
  expect(audited.status).toBe(200);
  expect(audited.body.discrepancies).toEqual([]);
}

describe('daily reconciliation', () => {
  it('recovers a Paybill payment whose confirmation was lost: the order gets its tickets, once however often it runs', async () => {
    const order = await heldOrder(350);
    const transId = await lostPayment(order.orderCode!, 350);
    expect(await t.db.select().from(payments).where(eq(payments.mpesaReceiptNumber, transId))).toEqual([]);

    const first = await reconcileNow();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'done', error: null });
    expect(first.body.pulled).toBeGreaterThanOrEqual(1);
    expect(first.body.findings).toContainEqual({ kind: 'recovered', transId, mpesaAmount: 350, tukioAmount: null });
    // The admins are told (the same outbox as the other admin notices).
    const mail = await t.smtp.waitFor('admin@example.com', /Tukio reconciliation: 1 finding/);
    expect(mail.text).toContain('1 recovered (settled now)');
    const [settled] = await t.db.select().from(orders).where(eq(orders.id, order.id));
    expect(settled!.status).toBe('paid');
    expect((await t.db.select().from(tickets).where(eq(tickets.orderId, order.id))).filter((row) => !row.voidedAt)).toHaveLength(1);

    // The daily job's run: the payment is known now, settled once.
    await t.services.reconciliation.runOnce();
    expect(await t.db.select().from(payments).where(eq(payments.mpesaReceiptNumber, transId))).toHaveLength(1);
    expect((await t.db.select().from(tickets).where(eq(tickets.orderId, order.id))).filter((row) => !row.voidedAt)).toHaveLength(1);
    await expectAuditClean();
  });

  it('a pulled payment to an account no order has waits in unmatched payments, and the report lists it', async () => {
    const transId = await lostPayment('NOSUCH9', 420);
    const run = await reconcileNow();
    expect(run.body.findings).toContainEqual({ kind: 'unmatched', transId, mpesaAmount: 420, tukioAmount: null });
    expect(await t.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.transId, transId))).toMatchObject([{ amount: 420, billRefNumber: 'NOSUCH9', status: 'waiting' }]);
    const report = await t.api<any[]>('GET', '/api/admin/reconciliation', { token: admin.token });
    expect(report.status).toBe(200);
    expect(report.body[0]).toMatchObject({ _id: run.body._id, status: 'done' });
    expect(report.body[0].findings).toContainEqual({ kind: 'unmatched', transId, mpesaAmount: 420, tukioAmount: null });
    // Run again: nothing is missing any more.
    expect((await reconcileNow()).body.findings.filter((finding: { transId: string }) => finding.transId === transId)).toEqual([]);
    await expectAuditClean();
  });

  it('refuses anyone but an administrator', async () => {
    expect((await reconcileNow(buyer.token)).status).toBe(403);
    expect((await t.api('GET', '/api/admin/reconciliation', { token: buyer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/reconciliation')).status).toBe(401);
  });
});
