import { forbiddenUrlWord } from '@tukio/shared/internal-c2b';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders, payments } from '../../server/src/db/schema.js';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * Paybill through the whole stack (docs/decisions/paybill.md): the payment service registers its C2B URLs with the
 * (simulated) Daraja at start, answers validation by asking the API server, and delivers each confirmation once
 * (by TransID) through its outbox to the API server's settle path.
 */
let stack: Stack;
let buyer: Awaited<ReturnType<Stack['quickUser']>>;
let eventId: string;

beforeAll(async () => {
  stack = await startStack();
  const organiser = await stack.quickUser('PaybillOrganiser');
  buyer = await stack.quickUser('PaybillBuyer');
  eventId = await stack.createEvent({ ownerId: organiser.user._id, price: 500 });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** A purchase whose prompt the buyer dismisses (the simulator's cancelling number): the order code to pay by Paybill instead. */
async function dismissedPrompt() {
  const push = await stack.stkPush(buyer.token, eventId, '254700000001');
  expect(push.status).toBe(200);
  const settled = await stack.waitSettled(buyer.token, push.body.CheckoutRequestID);
  expect(settled.body).toMatchObject({ status: 'cancelled' });
  const [payment] = await stack.server.db.select().from(payments).where(eq(payments.checkoutRequestId, push.body.CheckoutRequestID));
  const [order] = await stack.server.db.select().from(orders).where(eq(orders.id, payment!.orderId));
  return { checkoutRequestId: push.body.CheckoutRequestID as string, order: { ...order!, orderCode: order!.orderCode! } };
}

const menuPay = (body: Record<string, unknown>) => stack.simApi('POST', '/simulator/menu/pay', { body: { phone: '254712555000', amount: 500, ...body } });

describe('Paybill through the payment service', () => {
  it('registers unguessable validation and confirmation URLs without the words Daraja refuses', async () => {
    expect(await stack.pay.paybill.registered.then(() => stack.pay.paybill.register())).toBe(true);
    const registration = stack.sim.running.simulator.c2b.registration();
    expect(registration).toMatchObject({ responseType: 'Completed', version: 'v2', ...stack.pay.paybill.urls });
    for (const url of [registration!.validationUrl, registration!.confirmationUrl]) {
      expect(forbiddenUrlWord(url)).toBeUndefined();
      expect(url).toMatch(/\/hooks\/paybill\/[0-9a-f]{32}\/(validation|confirmation)$/);
    }
    // Another secret: as if there were no such route.
    const wrong = await stack.payApi('POST', '/hooks/paybill/0123456789abcdef0123456789abcdef/confirmation', { body: {} });
    expect(wrong.status).toBe(404);
  });

  it('validation rejects an unknown account and a wrong amount (no money moves); the right payment settles the order', async () => {
    const { checkoutRequestId, order } = await dismissedPrompt();
    expect(order.orderCode).toMatch(/^[2-9A-HJKMNP-Z]{7}$/);
    expect((await menuPay({ account: order.orderCode, mode: 'wrong-account' })).body).toMatchObject({ status: 'rejected', resultCode: 'C2B00012' });
    expect((await menuPay({ account: order.orderCode, mode: 'wrong-amount' })).body).toMatchObject({ status: 'rejected', resultCode: 'C2B00013' });
    const paid = await menuPay({ account: order.orderCode.toLowerCase() });
    expect(paid.body).toMatchObject({ status: 'completed', confirmationSent: true });
    // The dialog's poll of the dismissed prompt turns to success once the Paybill payment is settled.
    await vi.waitFor(async () => expect((await stack.confirm(buyer.token, checkoutRequestId)).body).toMatchObject({ success: true, orderStatus: 'paid' }), { timeout: 10_000, interval: 50 });
    const [payment] = await stack.server.db.select().from(payments).where(eq(payments.mpesaReceiptNumber, paid.body.transId));
    expect(payment).toMatchObject({ status: 'success', amount: 500, orderId: order.id, checkoutRequestId: `c2b_${paid.body.transId}` });
  });

  it('a confirmation M-Pesa sends twice is delivered once and settles once', async () => {
    const { order } = await dismissedPrompt();
    const body = {
      TransactionType: 'Pay Bill',
      TransID: 'UDD1234567',
      TransTime: '20261129120000',
      TransAmount: '500.00',
      BusinessShortCode: stack.config.daraja.shortcode,
      BillRefNumber: order.orderCode,
      InvoiceNumber: '',
      OrgAccountBalance: '1500.00',
      ThirdPartyTransID: '',
      MSISDN: '2547 ***** 000',
      FirstName: 'JOHN',
    };
    const confirmationPath = new URL(stack.pay.paybill.urls.confirmationUrl).pathname;
    const answers = await Promise.all([stack.payApi('POST', confirmationPath, { body }), stack.payApi('POST', confirmationPath, { body })]);
    for (const answer of answers) expect(answer.body).toEqual({ ResultCode: 0, ResultDesc: 'Success' });
    await vi.waitFor(async () => expect((await stack.server.db.select().from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe('paid'), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(stack.pay.paybill.outbox.pending()).toEqual([]), { timeout: 10_000, interval: 50 });
    const rows = await stack.server.db.select().from(payments).where(eq(payments.mpesaReceiptNumber, 'UDD1234567'));
    expect(rows).toHaveLength(1);
    // Once more, later: still one payment.
    expect((await stack.payApi('POST', confirmationPath, { body })).body.ResultCode).toBe(0);
    expect(await stack.server.db.select().from(payments).where(eq(payments.orderId, order.id))).toHaveLength(2);
  });
});
