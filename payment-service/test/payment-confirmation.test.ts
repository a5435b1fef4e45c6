import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, paymentContradictions, payments, tickets, users } from '../../server/src/db/schema.js';
import { auditPayments } from '../src/audit.js';
import { loadPaymentConfig } from '../src/config.js';
import { SAFARICOM_CALLBACK_IPS } from '@tukio/shared/daraja-protocol';
import { createErrorHandler } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { callbackSourceCheck } from '../src/routes/callback.routes.js';
import { CALLBACK_SECRET, INTERNAL_KEY, startStack, successCallback, type Stack } from './helpers/stack.js';
import { UNREACHABLE_DARAJA } from './helpers/daraja-simulator.js';

/**
 * A success callback is believed only when M-Pesa's own answer (STK query) agrees. The simulator's
 * callbacks go nowhere here (DARAJA_CALLBACK_URL points at a closed port), so each test decides which
 * callbacks arrive: a forged success (someone who knows the callback URL's secret), or the genuine one.
 */
let s: Stack;
let organiser: Awaited<ReturnType<Stack['quickUser']>>;
let admin: Awaited<ReturnType<Stack['quickUser']>>;
beforeAll(async () => {
  s = await startStack({ paymentEnv: { DARAJA_CALLBACK_URL: 'http://127.0.0.1:9/api/mpesa/callback' } });
  organiser = await s.quickUser('organiser');
  admin = await s.quickUser('overseer');
  await s.server.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user._id));
}, 60_000);
afterAll(async () => {
  await s?.close();
});

let phoneCounter = 0;
/** A fresh ordinary (always paying) number per push, so prompts never collide. */
const freshPhone = () => `2547${String(20_000_000 + phoneCounter++).slice(-8)}`;

const orderTickets = (eventId: string) => s.server.db.select().from(tickets).where(eq(tickets.eventId, eventId));
const paymentRow = async (checkoutRequestId: string) => (await s.server.db.select().from(payments).where(eq(payments.checkoutRequestId, checkoutRequestId)))[0]!;
const contradictionOf = async (paymentId: string) => (await s.server.db.select().from(paymentContradictions).where(eq(paymentContradictions.paymentId, paymentId)))[0];
const audit = () => auditPayments(s.config, { ledgerUrl: `${s.sim.url}/simulator/ledger`, key: s.config.simulator.key });

/** A push the simulated customer cancels (254700000001: ResultCode 1032), answered on the simulator before returning. */
async function cancelledPush(name: string, price = 500) {
  const buyer = await s.quickUser(name);
  const eventId = await s.createEvent({ ownerId: organiser.user._id, price, capacity: 5 });
  const push = await s.stkPush(buyer.token, eventId, '254700000001');
  expect(push.status).toBe(200);
  const prompt = await s.waitPromptDone(push.body.CheckoutRequestID);
  expect(prompt.resultCode).toBe(1032);
  const checkoutRequestId: string = push.body.CheckoutRequestID;
  const forged = successCallback({ checkoutRequestId, merchantRequestId: prompt.merchantRequestId, amount: price, phone: '254700000001', receipt: `FORGED${name.toUpperCase().slice(0, 6)}` });
  return { buyer, eventId, checkoutRequestId, prompt, forged, price };
}

describe('a success callback M-Pesa contradicts', () => {
  it('is checked before tickets are issued: the push settles as M-Pesa says, the claim is recorded, admins told, the audit lists it', async () => {
    const { buyer, eventId, checkoutRequestId, forged } = await cancelledPush('forgedbefore');
    const reply = await s.callback(forged);
    expect(reply.status).toBe(200);
    expect(reply.body.outcome).toBe('contradicted');

    expect(await orderTickets(eventId)).toHaveLength(0);
    const confirmed = await s.confirm(buyer.token, checkoutRequestId);
    expect(confirmed.body).toMatchObject({ success: false, status: 'cancelled', orderStatus: 'cancelled' });
    const payment = await paymentRow(checkoutRequestId);
    expect(await contradictionOf(payment.id)).toMatchObject({ claimedReceipt: 'FORGEDFORGED', providerResultCode: 1032, ticketsVoided: 0 });
    await s.server.smtp.waitFor(admin.user.email, new RegExp(checkoutRequestId));

    // Sent again, it changes nothing more.
    const again = await s.callback(forged);
    expect(again.status).toBe(200);
    expect(await orderTickets(eventId)).toHaveLength(0);

    const found = await audit();
    // Handled (settled as M-Pesa says): the books agree, so it is a notice on every audit, not a discrepancy.
    expect(found.notices.filter((d) => d.kind === 'payment-contradicted' && d.detail.includes(checkoutRequestId))).toHaveLength(1);
    expect(found.discrepancies.filter((d) => d.detail.includes(checkoutRequestId))).toEqual([]);
  }, 60_000);

  it('a success recorded from a callback alone is voided by the reconciler when M-Pesa says otherwise; buyer and admins told; the audit lists it', async () => {
    const { buyer, eventId, checkoutRequestId, forged, price } = await cancelledPush('forgedearlier', 700);
    // As an older payment service (no STK query first) recorded it: tickets issued on the callback's word.
    const body = forged.Body.stkCallback;
    const recorded = await s.api('POST', '/api/internal/payments/settle', {
      headers: { 'x-internal-key': INTERNAL_KEY },
      body: {
        checkoutRequestId,
        merchantRequestId: body.MerchantRequestID,
        resultCode: 0,
        resultDesc: body.ResultDesc,
        amount: price,
        mpesaReceiptNumber: 'FORGEDEARLIER',
        phone: '254700000001',
        source: 'callback',
      },
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body).toMatchObject({ status: 'success', ticketsIssued: 1 });
    expect((await paymentRow(checkoutRequestId)).providerConfirmedAt).toBeNull();
    const before = await audit();
    expect(before.discrepancies.filter((d) => d.kind === 'payment-not-taken' && d.detail.includes('FORGEDEARLIER'))).toHaveLength(1);

    await s.pay.reconciler.runOnce();

    const held = await orderTickets(eventId);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ voidReason: 'payment_reversed' });
    expect(held[0]!.voidedAt).not.toBeNull();
    const payment = await paymentRow(checkoutRequestId);
    // Nothing deleted: the payment keeps its row and the claimed receipt, with M-Pesa's status.
    expect(payment).toMatchObject({ status: 'cancelled', mpesaReceiptNumber: 'FORGEDEARLIER', resultCode: 1032 });
    expect((await s.server.db.select().from(orders).where(eq(orders.id, payment.orderId)))[0]!.status).toBe('cancelled');
    expect(await contradictionOf(payment.id)).toMatchObject({ claimedReceipt: 'FORGEDEARLIER', providerResultCode: 1032, ticketsVoided: 1 });
    await s.server.smtp.waitFor(buyer.user.email, /payment was not received/);
    await s.server.smtp.waitFor(admin.user.email, new RegExp(checkoutRequestId));
    // The buyer's own view: the ticket is void, the payment not successful, and the gate refuses it.
    const mine = await s.api('GET', '/api/tickets/mine', { token: buyer.token });
    expect(mine.body[0]).toMatchObject({ voidReason: 'payment_reversed' });
    expect((await s.confirm(buyer.token, checkoutRequestId)).body).toMatchObject({ success: false, status: 'cancelled' });
    const checkin = await s.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: held[0]!.code } });
    expect(checkin.status).toBe(409);

    const after = await audit();
    // Before the reconciler it was a discrepancy (above); voided, it stays listed as a notice.
    expect(after.discrepancies.filter((d) => d.detail.includes('FORGEDEARLIER'))).toEqual([]);
    expect(after.notices.filter((d) => d.detail.includes('FORGEDEARLIER')).map((d) => d.kind)).toEqual(['payment-contradicted']);
    // A second pass finds nothing left to ask about.
    await s.pay.reconciler.runOnce();
    expect(await orderTickets(eventId)).toHaveLength(1);
  }, 60_000);

  it('the genuine "cancelled" callback after a forged success is not dropped as a duplicate: the tickets are voided', async () => {
    const buyer = await s.quickUser('latecancel');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 300, capacity: 5 });
    const push = await s.stkPush(buyer.token, eventId, '254700000005');
    const checkoutRequestId: string = push.body.CheckoutRequestID;
    const prompt = (await s.prompt(checkoutRequestId))!;
    // A forged success while the prompt is still on the phone: M-Pesa says "being processed", so nothing is issued.
    const early = await s.callback(successCallback({ checkoutRequestId, merchantRequestId: prompt.merchantRequestId, amount: 300, phone: '254700000005', receipt: 'FORGEDEARLY1' }));
    expect(early.body.outcome).toBe('left-pending');
    expect((await s.confirm(buyer.token, checkoutRequestId)).body.status).toBe('pending');
    expect(await orderTickets(eventId)).toHaveLength(0);

    // The customer cancels; Daraja's own callback says so: M-Pesa confirms, the held claim is evidence.
    await s.simApi('POST', `${prompt.promptPath}/cancel`, { body: {} });
    await s.waitPromptDone(checkoutRequestId);
    const genuine = await s.callback({ Body: { stkCallback: { MerchantRequestID: prompt.merchantRequestId, CheckoutRequestID: checkoutRequestId, ResultCode: 1032, ResultDesc: 'Request cancelled by user' } } });
    expect(genuine.status).toBe(200);
    expect(genuine.body.outcome).toBe('contradicted');
    expect((await s.confirm(buyer.token, checkoutRequestId)).body.status).toBe('cancelled');
    expect(await contradictionOf((await paymentRow(checkoutRequestId)).id)).toMatchObject({ claimedReceipt: 'FORGEDEARLY1', ticketsVoided: 0 });
  }, 60_000);

  it('a later genuine 1032 callback voids a success recorded earlier from a forged callback', async () => {
    const buyer = await s.quickUser('latecancel2');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 300, capacity: 5 });
    const push = await s.stkPush(buyer.token, eventId, '254700000005');
    const checkoutRequestId: string = push.body.CheckoutRequestID;
    const prompt = (await s.prompt(checkoutRequestId))!;
    const settled = await s.api('POST', '/api/internal/payments/settle', {
      headers: { 'x-internal-key': INTERNAL_KEY },
      body: { checkoutRequestId, merchantRequestId: prompt.merchantRequestId, resultCode: 0, resultDesc: 'ok', amount: 300, mpesaReceiptNumber: 'FORGEDLATE01', phone: '254700000005', source: 'callback' },
    });
    expect(settled.body.ticketsIssued).toBe(1);
    await s.simApi('POST', `${prompt.promptPath}/cancel`, { body: {} });
    await s.waitPromptDone(checkoutRequestId);
    const genuine = await s.callback({ Body: { stkCallback: { MerchantRequestID: prompt.merchantRequestId, CheckoutRequestID: checkoutRequestId, ResultCode: 1032, ResultDesc: 'Request cancelled by user' } } });
    expect(genuine.status).toBe(200);
    expect(genuine.body.outcome).toBe('verified-by-query');
    expect((await orderTickets(eventId)).map((ticket) => ticket.voidReason)).toEqual(['payment_reversed']);
    await s.server.smtp.waitFor(buyer.user.email, /payment was not received/);
  }, 60_000);

  it('a genuine success is confirmed with M-Pesa and issues the tickets at once', async () => {
    const buyer = await s.quickUser('genuine');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 250, capacity: 5 });
    const phone = freshPhone();
    const push = await s.stkPush(buyer.token, eventId, phone, { quantity: 2 });
    const checkoutRequestId: string = push.body.CheckoutRequestID;
    const done = await s.waitPromptDone(checkoutRequestId);
    const reply = await s.callback(successCallback({ checkoutRequestId, merchantRequestId: done.merchantRequestId, amount: 500, phone, receipt: done.receipt }));
    expect(reply.body.outcome).toBe('settled');
    expect((await s.confirm(buyer.token, checkoutRequestId)).body).toMatchObject({ success: true, status: 'success', mpesaReceiptNumber: done.receipt });
    expect(await orderTickets(eventId)).toHaveLength(2);
    expect((await paymentRow(checkoutRequestId)).providerConfirmedAt).not.toBeNull();
    const found = await audit();
    expect(found.discrepancies.filter((d) => d.detail.includes(done.receipt) || d.detail.includes(checkoutRequestId))).toEqual([]);
  }, 60_000);
});

describe('callback metadata', () => {
  it('a negative, zero or malformed Amount is refused with 400 and changes nothing', async () => {
    const buyer = await s.quickUser('negative');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 200, capacity: 5 });
    const phone = freshPhone();
    const push = await s.stkPush(buyer.token, eventId, phone);
    const checkoutRequestId: string = push.body.CheckoutRequestID;
    const done = await s.waitPromptDone(checkoutRequestId);
    for (const amount of [-1, 0, 'lots', 1e21]) {
      const reply = await s.callback(successCallback({ checkoutRequestId, merchantRequestId: done.merchantRequestId, amount: amount as number, phone, receipt: done.receipt }));
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ ResultCode: 1 });
    }
    const badReceipt = await s.callback(successCallback({ checkoutRequestId, merchantRequestId: done.merchantRequestId, amount: 200, phone, receipt: 'bad receipt!' }));
    expect(badReceipt.status).toBe(400);
    expect((await paymentRow(checkoutRequestId)).status).toBe('pending');
    expect(await orderTickets(eventId)).toHaveLength(0);
  }, 60_000);
});

describe('the callback source allow-list (CALLBACK_ALLOWED_IPS)', () => {
  /** An app with only the check in front of a route that answers 200, on a random loopback port. */
  async function guarded(allowed: string[] | undefined) {
    const app = express();
    app.use('/api/mpesa', callbackSourceCheck(allowed, { logger: createLogger('silent') }));
    app.post('/api/mpesa/callback/x', (_req, res) => {
      res.json({ ResultCode: 0 });
    });
    app.use(createErrorHandler(createLogger('silent')));
    const server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mpesa/callback/x`;
    const post = () => fetch(url, { method: 'POST' }).then((response) => response.status);
    return { post, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('refuses a source outside the list with 403; allows listed addresses and ranges; off when unset', async () => {
    const safaricomOnly = await guarded(loadPaymentConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir(), CALLBACK_ALLOWED_IPS: 'safaricom', CALLBACK_SECRET, ...UNREACHABLE_DARAJA }).callbackAllowedIps);
    const range = await guarded(['196.201.214.200', '127.0.0.0/8']);
    const off = await guarded(undefined);
    try {
      expect(await safaricomOnly.post()).toBe(403);
      expect(await range.post()).toBe(200);
      expect(await off.post()).toBe(200);
    } finally {
      await Promise.all([safaricomOnly.close(), range.close(), off.close()]);
    }
  });

  it('the configuration expands "safaricom" to the published addresses and refuses anything else', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: os.tmpdir(), CALLBACK_SECRET, ...UNREACHABLE_DARAJA };
    expect(loadPaymentConfig({ ...env, CALLBACK_ALLOWED_IPS: 'safaricom, 10.0.0.0/8' }).callbackAllowedIps).toEqual([...SAFARICOM_CALLBACK_IPS, '10.0.0.0/8']);
    expect(loadPaymentConfig(env).callbackAllowedIps).toBeUndefined();
    expect(() => loadPaymentConfig({ ...env, CALLBACK_ALLOWED_IPS: 'safaricom.co.ke' })).toThrow(/CALLBACK_ALLOWED_IPS/);
    expect(() => loadPaymentConfig({ ...env, CALLBACK_ALLOWED_IPS: '10.0.0.0/33' })).toThrow(/CALLBACK_ALLOWED_IPS/);
  });
});
