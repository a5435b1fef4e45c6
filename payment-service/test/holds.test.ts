import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, tickets } from '../../server/src/db/schema.js';
import { startStack, type Stack } from './helpers/stack.js';

// Holds last 0.6 s here so a payment can arrive after its hold ran out.
let s: Stack;
let organiser: Awaited<ReturnType<Stack['quickUser']>>;
beforeAll(async () => {
  s = await startStack({ serverEnv: { HOLD_MINUTES: '0.01', STK_RATE_LIMIT_PER_USER: '3' } });
  organiser = await s.quickUser('organiser');
});
afterAll(async () => {
  await s?.close();
});

/** Waits until the buyer's seat hold has run out, by the time its order row gives. */
async function holdRunsOut(userId: string) {
  const [order] = await s.server.db.select().from(orders).where(eq(orders.userId, userId));
  const until = order!.holdExpiresAt!.getTime();
  await expect.poll(() => Date.now() > until, { timeout: 10_000, interval: 20 }).toBe(true);
}
const ticketCount = async (eventId: string) => (await s.server.db.select().from(tickets).where(eq(tickets.eventId, eventId))).length;

async function payOnPhone(checkoutRequestId: string) {
  const prompt = await s.prompt(checkoutRequestId);
  const res = await s.simApi('POST', `${prompt!.promptPath}/pay`, { body: { pin: '1234' } });
  expect(res.status).toBe(200);
}

describe('late payments after the seat hold expired', () => {
  it('still gets tickets when seats remain', async () => {
    const buyer = await s.quickUser('slowbuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 500, capacity: 2 });
    const push = await s.stkPush(buyer.token, eventId, '254700000005');
    expect(push.status).toBe(200);
    await holdRunsOut(buyer.user._id);
    // Another buyer gets a seat; a reconciler pass marks the stale hold expired.
    const other = await s.quickUser('quickbuyer');
    const quick = await s.stkPush(other.token, eventId, '254722000001');
    expect((await s.waitSettled(other.token, quick.body.CheckoutRequestID)).body.success).toBe(true);
    await s.pay.reconciler.runOnce();
    const [held] = await s.server.db.select().from(orders).where(eq(orders.userId, buyer.user._id));
    expect(held?.status).toBe('expired');

    await payOnPhone(push.body.CheckoutRequestID);
    const settled = await s.waitSettled(buyer.token, push.body.CheckoutRequestID);
    expect(settled.body).toMatchObject({ success: true, status: 'success', orderStatus: 'paid' });
    expect(await ticketCount(eventId)).toBe(2);
  });

  it('is flagged refund_due when the seats went to someone else, and listed for admins', async () => {
    const buyer = await s.quickUser('unluckybuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 800, capacity: 1, title: 'Tiny Gig' });
    const push = await s.stkPush(buyer.token, eventId, '254700000005');
    await holdRunsOut(buyer.user._id);
    const other = await s.quickUser('luckybuyer');
    const quick = await s.stkPush(other.token, eventId, '254722000002');
    expect(quick.status).toBe(200);
    expect((await s.waitSettled(other.token, quick.body.CheckoutRequestID)).body.success).toBe(true);

    await payOnPhone(push.body.CheckoutRequestID);
    const settled = await s.waitSettled(buyer.token, push.body.CheckoutRequestID);
    expect(settled.body).toMatchObject({ success: false, status: 'success', orderStatus: 'refund_due' });
    expect(settled.body.resultDesc).toMatch(/refunded/);
    expect(await ticketCount(eventId)).toBe(1);
    const register = await s.api('POST', `/api/events/register/${eventId}`, { token: buyer.token, body: {} });
    expect(register.status).toBe(402);

    const admin = await s.server.loginAdmin();
    const refunds = await s.api('GET', '/api/admin/refunds', { token: admin.token });
    expect(refunds.status).toBe(200);
    expect(refunds.body).toEqual([
      expect.objectContaining({ eventId, eventTitle: 'Tiny Gig', userId: buyer.user._id, amount: 800, phoneNumber: '254700000005', checkoutRequestId: push.body.CheckoutRequestID }),
    ]);
    expect(refunds.body[0].mpesaReceiptNumber).toMatch(/^[A-Z0-9]{10}$/);
    expect((await s.api('GET', '/api/admin/refunds', { token: buyer.token })).status).toBe(403);
  });
});

describe('stkPush rate limit', () => {
  it('allows STK_RATE_LIMIT_PER_USER pushes per account per window, then 429', async () => {
    const eager = await s.quickUser('eagerbuyer');
    const eventId = await s.createEvent({ ownerId: organiser.user._id, price: 50 });
    for (let i = 0; i < 3; i++) expect((await s.stkPush(eager.token, eventId, `25473300010${i}`)).status).toBe(200);
    const limited = await s.stkPush(eager.token, eventId, '254733000109');
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/^Failed to initiate payment: too many payment attempts/);
    // Another account is not affected.
    const other = await s.quickUser('patientbuyer');
    expect((await s.stkPush(other.token, eventId, '254733000110')).status).toBe(200);
  });
});
