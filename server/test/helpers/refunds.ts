import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { refunds } from '../../src/db/schema.js';
import type { TestServer } from './test-server.js';

/** The headers the payment service sends on every internal call. */
export const internalHeaders = (t: TestServer) => ({ 'x-internal-key': t.config.internalApiKey });

/** An M-Pesa-shaped receipt (10 upper-case letters and digits), unique per call. */
export const receiptNo = (prefix = 'T') => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`.slice(0, 10);

export interface Paid {
  orderId: string;
  checkoutRequestId: string;
  receipt: string;
  amount: number;
  phone: string;
}

/**
 * Holds seats and records the push the way the payment service does, and settles it with a matching
 * Daraja callback unless `settle` is false (the push then stays pending). Fails the test when refused.
 * Without a buyer token it is a guest purchase (the guest-orders route, with `guestEmail` if given).
 */
export async function payFor(
  t: TestServer,
  buyerToken: string | undefined,
  eventId: string,
  options: { quantity?: number; phone?: string; settle?: boolean; items?: Array<{ typeId: string; quantity: number }>; promoCode?: string; guestEmail?: string } = {},
): Promise<Paid> {
  const phone = options.phone ?? '254712345678';
  const order = await t.api('POST', buyerToken ? '/api/internal/payments/orders' : '/api/internal/payments/guest-orders', {
    token: buyerToken,
    headers: internalHeaders(t),
    body: {
      eventId,
      quantity: options.quantity ?? 1,
      phone,
      ...(options.items ? { items: options.items } : {}),
      ...(options.promoCode ? { promoCode: options.promoCode } : {}),
      ...(options.guestEmail ? { guestEmail: options.guestEmail } : {}),
    },
  });
  if (order.status !== 201) throw new Error(`order refused: ${order.status} ${JSON.stringify(order.body)}`);
  const checkoutRequestId = `ws_CO_${randomBytes(8).toString('hex')}`;
  const merchantRequestId = `mr-${checkoutRequestId}`;
  const push = await t.api('POST', '/api/internal/payments/pushes', { headers: internalHeaders(t), body: { orderId: order.body.orderId, checkoutRequestId, merchantRequestId } });
  if (push.status !== 201) throw new Error(`push refused: ${push.status} ${JSON.stringify(push.body)}`);
  const receipt = receiptNo('P');
  const paid = { orderId: order.body.orderId as string, checkoutRequestId, receipt, amount: order.body.amount as number, phone };
  if (options.settle === false) return paid;
  const settled = await settle(t, paid);
  if (settled.body?.orderStatus !== 'paid') throw new Error(`settle did not pay: ${JSON.stringify(settled.body)}`);
  return paid;
}

/** The Daraja success callback for a push made by `payFor`. */
export function settle(t: TestServer, paid: Paid) {
  return t.api('POST', '/api/internal/payments/settle', {
    headers: internalHeaders(t),
    body: {
      checkoutRequestId: paid.checkoutRequestId,
      merchantRequestId: `mr-${paid.checkoutRequestId}`,
      resultCode: 0,
      resultDesc: 'The service request is processed successfully.',
      amount: paid.amount,
      mpesaReceiptNumber: paid.receipt,
      phone: paid.phone,
      source: 'callback',
    },
  });
}

/** The refund rows of one event, oldest first. */
export const refundsOf = (t: TestServer, eventId: string) => t.db.select().from(refunds).where(eq(refunds.eventId, eventId)).orderBy(refunds.createdAt, refunds.id);
