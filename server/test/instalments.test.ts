import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, payments, refunds, smsMessages, ticketTypes, tickets, unmatchedPayments } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, receiptNo } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Paying in parts ("Lipa pole pole", docs/decisions/instalments.md) over HTTP: the organiser's plan and its
 * validation, a deposit by prompt making a reservation that holds its seats, further parts by prompt and Paybill
 * through the one settle path, tickets when the balance reaches 0, overpayments refunded, reminders at 7, 3 and 1
 * days, the lapse at the due date refunding what was paid less the cancellation fee, and the audit at 0 throughout.
 * The payment service is a stand-in that accepts every prompt; its results are settled as it would deliver them.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const PAYBILL = '600900';

let t: TestServer;
let organiser: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string; email: string } };
let other: { token: string; user: { _id: string } };
let fake: { url: string; pushes: Array<{ orderId: string; amount: number; phone: string; checkoutRequestId: string }>; close(): Promise<void> };

function startFakePaymentService(): Promise<typeof fake> {
  const pushes: typeof fake.pushes = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { orderId: string; amount: number; phone: string };
      const checkoutRequestId = `ws_CO_inst_${pushes.length + 1}_${Math.random().toString(36).slice(2, 8)}`;
      pushes.push({ ...body, checkoutRequestId });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ checkoutRequestId, merchantRequestId: `mr-${checkoutRequestId}`, customerMessage: 'Success. Request accepted for processing' }));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        pushes,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
  });
}

beforeAll(async () => {
  fake = await startFakePaymentService();
  t = await startTestServer({ PAYMENT_URL: fake.url, PAYBILL_SHORTCODE: PAYBILL, STK_RATE_LIMIT_PER_IP: '1000', STK_RATE_LIMIT_PER_USER: '1000', STK_RATE_LIMIT_PER_PHONE: '1000' });
  organiser = await t.createUser('instorganiser');
  buyer = await t.createUser('instbuyer');
  other = await t.createUser('instother');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const internal = <T = any>(path: string, body?: unknown) => t.api<T>('POST', `/api/internal${path}`, { headers: internalHeaders(t), body });

/** A paid event starting in 10 days, and its one ticket type's id. */
async function newEvent(price: number, capacity: number | null = null) {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price, capacity, title: `Pole pole ${Math.random().toString(36).slice(2, 8)}` });
  const [type] = await t.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId));
  return { eventId, typeId: type!.id, startsAt: (await eventStart(eventId)) };
}
async function eventStart(eventId: string) {
  const [event] = await t.db.select({ startsAt: events.startsAt }).from(events).where(eq(events.id, eventId));
  return event!.startsAt;
}
/** A wall-clock time as the organiser's form sends it. */
const wall = (date: Date) => date.toISOString().slice(0, 16);

function putPlan(event: { eventId: string; typeId: string }, price: number, instalments: unknown, capacity: number | null = null) {
  return t.api('PUT', `/api/events/${event.eventId}/ticket-types`, {
    token: organiser.token,
    body: { ticketTypes: [{ _id: event.typeId, name: 'General admission', price, capacity, instalments }] },
  });
}

/** The buyer's deposit by prompt (the browser's /pay/stkPush with `instalments`). */
async function reserve(eventId: string, who = buyer, phone = '254712349001') {
  return t.api('POST', '/pay/stkPush', { token: who.token, body: { phone, Order_ID: `${eventId}_${phone}`, quantity: 1, instalments: true } });
}

/** The payment service delivering M-Pesa's success for a push. */
function settlePush(push: { checkoutRequestId: string; amount: number; phone: string }) {
  return internal('/payments/settle', {
    checkoutRequestId: push.checkoutRequestId,
    merchantRequestId: `mr-${push.checkoutRequestId}`,
    resultCode: 0,
    resultDesc: 'The service request is processed successfully.',
    amount: push.amount,
    mpesaReceiptNumber: receiptNo('I'),
    phone: push.phone,
    source: 'callback',
  });
}
const lastPush = () => fake.pushes[fake.pushes.length - 1]!;

const paybillConfirm = (account: string, amount: number, transId = receiptNo('C')) =>
  internal('/payments/c2b/confirmations', { transId, billRefNumber: account, amount, msisdn: '2547 ***** 126', shortCode: PAYBILL, transTime: '20261129101500' });

const orderRow = async (orderId: string) => (await t.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
const validTickets = async (orderId: string) => (await t.db.select().from(tickets).where(eq(tickets.orderId, orderId))).filter((row) => !row.voidedAt).length;
const refundsOf = (orderId: string) => t.db.select().from(refunds).where(eq(refunds.orderId, orderId));

async function expectAuditClean() {
  const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
  const unplaced = await t.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.status, 'waiting'));
  const audited = await internal('/audit', {
    payments: [
      ...paid.map((row) => ({ receipt: row.mpesaReceiptNumber!, amount: row.amount, phone: row.phone, checkoutRequestId: row.checkoutRequestId })),
      ...unplaced.map((row) => ({ receipt: row.transId, amount: row.amount, phone: '' })),
    ],
    refunds: [],
  });
  expect(audited.status).toBe(200);
  expect(audited.body.discrepancies).toEqual([]);
}

/** An event whose one type takes 30% now, the rest 2 days before it starts, keeping 50 when unpaid; reserved by the buyer. */
async function reservedOrder(price = 1000, capacity: number | null = null, who = buyer) {
  const event = await newEvent(price, capacity);
  const plan = await putPlan(event, price, { depositPercent: 30, dueDate: wall(new Date(event.startsAt.getTime() - 2 * DAY_MS)), cancellationFee: 50 }, capacity);
  expect(plan.status).toBe(200);
  const push = await reserve(event.eventId, who);
  expect(push.status).toBe(200);
  const deposit = lastPush();
  const settled = await settlePush(deposit);
  expect(settled.body.orderStatus).toBe('reserved');
  return { ...event, orderId: deposit.orderId, deposit, push: push.body };
}

describe('the organiser’s plan', () => {
  it('refuses a bad percent, a due date after the start or a fee not below the deposit, changing nothing', async () => {
    const event = await newEvent(1000);
    const before = new Date(event.startsAt.getTime() - 2 * DAY_MS);
    const cases: Array<[unknown, string]> = [
      [{ depositPercent: 5, dueDate: wall(before), cancellationFee: 0 }, 'ticketTypes.0.instalments.depositPercent'],
      [{ depositPercent: 95, dueDate: wall(before), cancellationFee: 0 }, 'ticketTypes.0.instalments.depositPercent'],
      [{ depositPercent: 30, dueDate: wall(new Date(event.startsAt.getTime() + DAY_MS)), cancellationFee: 0 }, 'ticketTypes.0.instalments.dueDate'],
      [{ depositPercent: 30, dueDate: wall(before), cancellationFee: 300 }, 'ticketTypes.0.instalments.cancellationFee'],
      [{ depositPercent: 30, dueDate: wall(before), cancellationFee: -1 }, 'ticketTypes.0.instalments.cancellationFee'],
    ];
    for (const [plan, field] of cases) {
      const res = await putPlan(event, 1000, plan);
      expect(res.status, JSON.stringify(plan)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const listed = await t.api('GET', `/api/events/${event.eventId}/ticket-types`);
    expect(listed.body.ticketTypes[0].instalments).toBeNull();

    const good = await putPlan(event, 1000, { depositPercent: 30, dueDate: wall(before), cancellationFee: 50 });
    expect(good.status).toBe(200);
    expect(good.body.ticketTypes[0].instalments).toMatchObject({ depositPercent: 30, cancellationFee: 50, depositAmount: 300 });
  });

  it('is offered only for a type that has one, and only to a signed-in buyer', async () => {
    const event = await newEvent(800);
    const refused = await reserve(event.eventId);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('instalments_not_offered');
    await putPlan(event, 800, { depositPercent: 50, dueDate: wall(new Date(event.startsAt.getTime() - DAY_MS)), cancellationFee: 0 });
    const guest = await t.api('POST', '/pay/stkPush', { body: { phone: '254712349002', Order_ID: `${event.eventId}_254712349002`, instalments: true } });
    expect(guest.status).toBe(401);
  });
});

describe('a plan paid in three parts', () => {
  it('deposit by prompt, a part by prompt, the rest by Paybill: the order is paid and its ticket valid, the audit clean', async () => {
    const order = await reservedOrder(1000);
    expect(order.push).toMatchObject({ amount: 300, instalments: { deposit: 300, orderAmount: 1000 }, paybill: { shortcode: PAYBILL, amount: 300 } });
    expect(order.deposit.amount).toBe(300);
    // A reservation: no tickets yet, nothing to scan.
    expect(await validTickets(order.orderId)).toBe(0);
    const [mine] = (await t.api('GET', '/api/reservations', { token: buyer.token })).body;
    expect(mine).toMatchObject({ orderId: order.orderId, status: 'reserved', amount: 1000, paid: 300, balance: 700, paybill: PAYBILL, cancellationFee: 50 });
    expect(mine.orderCode).toHaveLength(7);
    // Nobody else pays towards it, and not more than is owed.
    expect((await t.api('POST', `/api/reservations/${order.orderId}/pay`, { token: other.token, body: { amount: 100 } })).status).toBe(404);
    const tooMuch = await t.api('POST', `/api/reservations/${order.orderId}/pay`, { token: buyer.token, body: { amount: 701 } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.code).toBe('amount_more_than_balance');

    const part = await t.api('POST', `/api/reservations/${order.orderId}/pay`, { token: buyer.token, body: { amount: 400 } });
    expect(part.status).toBe(200);
    expect(lastPush()).toMatchObject({ orderId: order.orderId, amount: 400 });
    expect((await settlePush(lastPush())).body.orderStatus).toBe('reserved');
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'reserved', instalmentPaid: 700 });

    // Paybill: any amount from 1 to the balance is accepted for a reservation's code, more is not.
    expect((await internal('/payments/c2b/validate', { billRefNumber: mine.orderCode, amount: 300 })).body.resultCode).toBe('0');
    expect((await internal('/payments/c2b/validate', { billRefNumber: mine.orderCode, amount: 1 })).body.resultCode).toBe('0');
    expect((await internal('/payments/c2b/validate', { billRefNumber: mine.orderCode, amount: 301 })).body.resultCode).toBe('C2B00013');
    const last = await paybillConfirm(mine.orderCode, 300);
    expect(last.body).toEqual({ outcome: 'settled', orderStatus: 'paid' });
    expect(await validTickets(order.orderId)).toBe(1);
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'paid', instalmentPaid: 1000 });
    // The ticket email, as for any paid order, saying the whole price.
    const mail = await t.smtp.waitFor(buyer.user.email, /Your Tukio ticket/, 20_000);
    expect(mail.text).toContain('1,000');
    const ticketsMine = await t.api('GET', '/api/tickets/mine', { token: buyer.token });
    expect(JSON.stringify(ticketsMine.body)).toContain(order.eventId);
    expect(await refundsOf(order.orderId)).toEqual([]);
    await expectAuditClean();
  });

  it('an overpayment pays the order and the difference is refunded', async () => {
    const order = await reservedOrder(600);
    const code = (await orderRow(order.orderId)).orderCode!;
    // Validation off (or raced): M-Pesa completed more than the balance of 420.
    const paid = await paybillConfirm(code, 500);
    expect(paid.body).toEqual({ outcome: 'settled', orderStatus: 'paid' });
    expect(await validTickets(order.orderId)).toBe(1);
    const [refund] = await refundsOf(order.orderId);
    expect(refund).toMatchObject({ reason: 'overpayment', amount: 80, feeAmount: 0, status: 'due' });
    await expectAuditClean();
  });
});

describe('seats and the lapse', () => {
  it('a reservation counts against capacity; at the due date it lapses, its seat frees and what was paid less the fee is refunded', async () => {
    const order = await reservedOrder(1000, 1);
    // The one seat is reserved: nobody else can buy it, in full or in parts.
    const full = await t.api('POST', '/pay/stkPush', { token: other.token, body: { phone: '254712349003', Order_ID: `${order.eventId}_254712349003` } });
    expect(full.status).toBe(409);
    const listed = await t.api('GET', `/api/events/${order.eventId}/ticket-types`);
    expect(listed.body.ticketTypes[0]).toMatchObject({ reserved: 1, sold: 0, seatsLeft: 0 });
    // The organiser's dashboard: reserved beside sold.
    const dashboard = await t.api('GET', `/api/events/${order.eventId}/dashboard`, { token: organiser.token });
    expect(dashboard.body.types[0]).toMatchObject({ sold: 0, reserved: 1, reservedPaid: 300 });

    await t.api('POST', `/api/reservations/${order.orderId}/pay`, { token: buyer.token, body: { amount: 200 } });
    await settlePush(lastPush());
    const dueAt = (await orderRow(order.orderId)).instalmentDueAt!;
    // Not yet due: nothing lapses.
    expect((await t.services.instalments.sweep(new Date(dueAt.getTime() - 60_000))).lapsed).toBe(0);
    const swept = await t.services.instalments.sweep(new Date(dueAt.getTime() + 60_000));
    expect(swept.lapsed).toBe(1);
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'lapsed', instalmentPaid: 500 });
    const back = await refundsOf(order.orderId);
    expect(back.every((refund) => refund.reason === 'reservation_lapsed' && refund.status === 'due')).toBe(true);
    expect(back.reduce((sum, refund) => sum + refund.amount, 0)).toBe(450);
    // Once only, however often the job runs.
    expect((await t.services.instalments.sweep(new Date(dueAt.getTime() + 120_000))).lapsed).toBe(0);
    expect(await refundsOf(order.orderId)).toHaveLength(back.length);
    const lapsedSms = await t.db.select().from(smsMessages).where(eq(smsMessages.dedupeKey, `instalment-lapsed:${order.orderId}`));
    expect(lapsedSms).toHaveLength(1);
    // The seat is free again.
    const now = await t.api('POST', '/pay/stkPush', { token: other.token, body: { phone: '254712349004', Order_ID: `${order.eventId}_254712349004` } });
    expect(now.status).toBe(200);
    // A payment after the lapse buys nothing: refunded whole.
    const late = await paybillConfirm((await orderRow(order.orderId)).orderCode!, 100);
    expect(late.body.orderStatus).toBe('lapsed');
    await expectAuditClean();
  });
});

describe('reminders', () => {
  it('queues one SMS at 7, 3 and 1 days before the due date, with the balance, order code and paybill', async () => {
    const order = await reservedOrder(900);
    const row = await orderRow(order.orderId);
    const dueAt = row.instalmentDueAt!;
    const at = (daysBefore: number) => new Date(dueAt.getTime() - daysBefore * DAY_MS + 60_000);
    const keys = async () =>
      (await t.db.select().from(smsMessages).where(and(like(smsMessages.dedupeKey, `instalment-reminder:${order.orderId}:%`)))).map((sms) => sms.dedupeKey).sort();
    await t.services.instalments.sweep(new Date(dueAt.getTime() - 8 * DAY_MS));
    expect(await keys()).toEqual([]);
    await t.services.instalments.sweep(at(7));
    await t.services.instalments.sweep(at(7));
    expect(await keys()).toEqual([`instalment-reminder:${order.orderId}:7`]);
    await t.services.instalments.sweep(at(3));
    await t.services.instalments.sweep(at(1));
    expect(await keys()).toEqual([1, 3, 7].map((days) => `instalment-reminder:${order.orderId}:${days}`));
    const [message] = await t.db.select().from(smsMessages).where(eq(smsMessages.dedupeKey, `instalment-reminder:${order.orderId}:1`));
    expect(message!.message).toContain(String(900 - row.instalmentPaid));
    expect(message!.message).toContain(row.orderCode!);
    expect(message!.message).toContain(PAYBILL);
    await expectAuditClean();
  });
});
