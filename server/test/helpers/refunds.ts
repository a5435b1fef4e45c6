import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { RefundStatusBody, SendRefundBody } from '@tukio/shared/internal-refunds';
import { and, eq, isNotNull } from 'drizzle-orm';
import { payments, refundAttempts, refunds } from '../../src/db/schema.js';
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
  options: { quantity?: number; phone?: string; settle?: boolean; items?: Array<{ typeId: string; quantity: number }>; promoCode?: string; guestEmail?: string; dateId?: string } = {},
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
      ...(options.dateId ? { dateId: options.dateId } : {}),
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

/** What the stand-in payment service answers a refund attempt: HTTP status and body. */
export type DeskAnswer = { status: number; body: unknown };

/**
 * A stand-in for the payment service's refund routes, over HTTP as the refunds job calls them: POST /internal/refunds
 * (recorded in `sent`, answered by `answer`: Daraja accepted it with ConversationID `AG_<attempt>` unless a test says
 * otherwise) and POST /internal/refunds/status (recorded in `asked`, 202). Start the server with PAYMENT_PORT = `port`.
 */
export async function startRefundDesk() {
  const { createServer } = await import('node:http');
  const sent: Array<SendRefundBody & { refundId: string }> = [];
  const asked: RefundStatusBody[] = [];
  const desk = {
    port: 0,
    sent,
    asked,
    answer: (body: SendRefundBody): DeskAnswer => ({ status: 200, body: { outcome: 'accepted', conversationId: `AG_${body.originatorConversationId}` } }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text || '{}');
      let answer: DeskAnswer = { status: 404, body: { message: 'not found' } };
      if (req.url === '/internal/refunds') {
        sent.push({ ...body, refundId: /^tukio-([0-9a-f]{24})-\d+$/.exec(body.originatorConversationId)?.[1] ?? '' });
        answer = desk.answer(body);
      } else if (req.url === '/internal/refunds/status') {
        asked.push(body);
        answer = { status: 202, body: { asked: true } };
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  desk.port = (server.address() as AddressInfo).port;
  return desk;
}

export type RefundDesk = Awaited<ReturnType<typeof startRefundDesk>>;

/**
 * Runs the refunds job until it sent an attempt of every refund in `ids` through `desk` (others due meanwhile go
 * too, and are ignored); the attempts sent, in that order.
 */
export async function sendRefunds(t: TestServer, desk: RefundDesk, ids: string[]) {
  const from = desk.sent.length;
  const mine = () => desk.sent.slice(from).filter((item) => ids.includes(item.refundId));
  for (let round = 0; round < 10 && mine().length < ids.length; round++) await t.services.refundsJob.runOnce();
  return mine();
}

/** M-Pesa's books for this database as the payments audit compares them: every successful payment, and every succeeded refund as paid. */
export async function providerView(t: TestServer) {
  const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
  const refunded = await t.db
    .select({ transactionId: refunds.receipt, amount: refunds.amount, originatorConversationId: refundAttempts.originatorConversationId, kind: refundAttempts.method })
    .from(refunds)
    .innerJoin(refundAttempts, and(eq(refundAttempts.refundId, refunds.id), eq(refundAttempts.transactionId, refunds.receipt)))
    .where(and(eq(refunds.status, 'succeeded'), isNotNull(refunds.receipt)));
  return {
    payments: paid.map((payment) => ({ receipt: payment.mpesaReceiptNumber!, amount: payment.amount, phone: payment.phone, checkoutRequestId: payment.checkoutRequestId })),
    refunds: refunded.map((refund) => ({ ...refund, transactionId: refund.transactionId! })),
  };
}

/** POST /api/internal/audit with M-Pesa's books as `body`. */
export const auditBooks = (t: TestServer, body: unknown) => t.api('POST', '/api/internal/audit', { headers: internalHeaders(t), body });
