import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders, users } from '../../server/src/db/schema.js';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * The original contract, followed to the letter, without an account: POST /api/stkPush with no bearer token
 * starts a real guest purchase (priced by the server), and POST /api/confirmPayment with no token answers
 * for that checkout only. A signed-in buyer then attaches the paid order with POST /api/transactions.
 */

let s: Stack;
let organiser: Awaited<ReturnType<Stack['quickUser']>>;
beforeAll(async () => {
  // A small per-account budget, to see that guests are counted per phone.
  s = await startStack({ serverEnv: { STK_RATE_LIMIT_PER_USER: '3' } });
  organiser = await s.quickUser('guestorganiser');
});
afterAll(async () => {
  await s?.close();
});

let phoneCounter = 0;
const freshPhone = () => `2547${String(30_000_000 + phoneCounter++).slice(-8)}`;

const guestPush = (eventId: string, phone: string, extra: Record<string, unknown> = {}) =>
  s.payApi('POST', '/api/stkPush', { body: { phone, amount: 1, Order_ID: `${eventId}_${phone}`, ...extra } });
const guestConfirm = (checkoutRequestId: string) => s.payApi('POST', '/api/confirmPayment', { body: { CheckoutRequestID: checkoutRequestId } });

describe('guest checkout by phone', () => {
  it('charges the server price, confirms without a token, and the signed-in buyer attaches the order', async () => {
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 850, capacity: 20, title: 'Guest Gala' });
    const phone = freshPhone();
    const push = await guestPush(eventId, phone, { quantity: 2, email: 'guest.buyer@example.com' });
    expect(push.status, JSON.stringify(push.body)).toBe(200);
    expect(push.body).toMatchObject({ ResponseCode: '0', amount: 1700, quantity: 2 });
    expect((await s.prompt(push.body.CheckoutRequestID))?.amount).toBe(1700);

    let confirmed: Awaited<ReturnType<typeof guestConfirm>> | undefined;
    await vi.waitFor(
      async () => {
        confirmed = await guestConfirm(push.body.CheckoutRequestID);
        expect(confirmed.body.status).not.toBe('pending');
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(confirmed!.status).toBe(200);
    expect(confirmed!.body).toMatchObject({ success: true, status: 'success', orderStatus: 'paid', amount: 1700, quantity: 2 });
    const [order] = await s.server.db.select().from(orders).innerJoin(users, eq(users.id, orders.userId)).where(eq(orders.amount, 1700));
    expect(order).toMatchObject({ orders: { guestEmail: 'guest.buyer@example.com', status: 'paid' }, users: { guestPhone: phone } });

    // The same client, signed in, records the transaction and registers: the order is the buyer's now.
    const buyer = await s.quickUser('signedinguest');
    const transactionData = { eventId, amount: 1700, name: 'Guest Gala', phoneNumber: phone, checkoutRequestId: push.body.CheckoutRequestID, paymentStatus: 'Success' };
    const attached = await s.api('POST', '/api/transactions', { token: buyer.token, body: { userId: buyer.user._id, transactionData } });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    const registered = await s.api('POST', `/api/events/register/${eventId}`, { token: buyer.token, body: { userId: buyer.user._id } });
    expect(registered.body).toEqual({ message: 'Registered successfully' });
    expect((await s.api('GET', '/api/tickets/mine', { token: buyer.token })).body).toHaveLength(2);
    // Attached to a member, it is no longer answered without that member's token.
    expect((await guestConfirm(push.body.CheckoutRequestID)).status).toBe(401);
    expect((await s.confirm(buyer.token, push.body.CheckoutRequestID)).body).toMatchObject({ success: true });
  });

  it("refuses a member's payment without its token, and a bad email by its field", async () => {
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 200 });
    const member = await s.quickUser('tokenholder');
    const push = await s.stkPush(member.token, eventId, freshPhone());
    expect(push.status).toBe(200);
    const anonymous = await guestConfirm(push.body.CheckoutRequestID);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, msg: 'Please log in to confirm the payment.' });
    expect((await s.waitSettled(member.token, push.body.CheckoutRequestID)).body).toMatchObject({ success: true });
    expect((await guestConfirm(push.body.CheckoutRequestID)).status).toBe(401);
    expect((await guestConfirm('ws_CO_unknown')).status).toBe(401);

    const bad = await guestPush(eventId, freshPhone(), { email: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'email', code: 'validation_failed', params: { field: 'email', kind: 'invalid_email' } });
    expect(anonymous.body).toMatchObject({ code: 'login_required' });
  });

  it("keeps a guest's browser language (Accept-Language) on the phone's shadow account, for its SMS and email", async () => {
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 300, capacity: 10 });
    const phone = freshPhone();
    const push = await s.payApi('POST', '/api/stkPush', {
      body: { phone, amount: 1, Order_ID: `${eventId}_${phone}` },
      headers: { 'accept-language': 'sw-KE,sw;q=0.9,en;q=0.8' },
    });
    expect(push.status, JSON.stringify(push.body)).toBe(200);
    const shadow = async () => (await s.server.db.select({ language: users.language }).from(users).where(eq(users.guestPhone, phone)))[0]?.language;
    expect(await shadow()).toBe('sw');
    // An English browser's next purchase from the same phone switches it back (its order is made before any prompt).
    await guestPush(eventId, phone, {});
    expect(await shadow()).toBe('en');
  });

  it('counts guest attempts per phone', async () => {
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 100, capacity: 100 });
    const phone = freshPhone();
    for (let i = 0; i < 3; i += 1) expect((await guestPush(eventId, phone)).status).not.toBe(429);
    const limited = await guestPush(eventId, phone);
    expect(limited.status).toBe(429);
    // Another phone has its own budget.
    expect((await guestPush(eventId, freshPhone())).status).toBe(200);
  });
});
