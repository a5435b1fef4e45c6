import type { RecordPushRequest } from '@tukio/shared/internal-api';
import { c2bConfirmationRequest, c2bConfirmationResponse, c2bValidateRequest, c2bValidateResponse } from '@tukio/shared/internal-c2b';
import { Router } from 'express';
import { z } from 'zod';
import { pageSchema } from '../../lib/keyset-page.js';
import { answerEach } from '../../lib/batch-answer.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { timePageQuery } from '../../lib/time-cursor.js';
import { batchAnswers, guestTickets, heldOrder, paymentView, pendingPushes, recordedPush, released, settled, transaction, whoami } from './payments.responses.js';
import {
  abandonOrderBody,
  checkoutParams,
  createGuestOrderBody,
  guestTicketParams,
  createOrderBody,
  orderParams,
  pendingQuery,
  recordPushBody,
  recordPushesBody,
  saveTransactionBody,
  settleBody,
  settleManyBody,
  userIdParams,
} from './payments.schemas.js';
import type { GuestCheckout } from './guest-checkout.service.js';
import type { PaymentsService } from './payments.service.js';
import type { SaleLine } from './start-checkout.handler.js';


/**
 * /api/internal/payments — called by the payment service only (the declaration checks the shared
 * INTERNAL_API_KEY). The user's own bearer token is forwarded where the call acts for a user
 * (`userToken`), so the API server decides who that user is.
 */
export function createInternalPaymentsRouter(deps: {
  payments: PaymentsService;
  guests: GuestCheckout;
  waitingRoom: SaleLine;
  internalApiKey: string;
  /** payment_push_seconds: the reported push times, for operators. */
  pushSeconds?: { observe(seconds: number): void } | undefined;
}) {
  const { payments } = deps;
  const router = Router();
  /** A push recorded: its time, when the payment service reports it, feeds the admission rate and a metric. */
  const recordPush = async ({ pushMs, ...push }: RecordPushRequest) => {
    const recorded = await payments.recordPush(push);
    if (pushMs !== undefined) {
      deps.waitingRoom.observePush(pushMs);
      deps.pushSeconds?.observe(pushMs / 1000);
    }
    return recorded;
  };
  const routes = declareRoutes(router, 'Internal (payment service)', { internalKey: deps.internalApiKey });

  routes.get(
    '/whoami',
    {
      summary: 'The account a forwarded bearer token belongs to',
      access: 'internal',
      userToken: true,
      description: "Called first by the payment service's POST /api/stkPush, so its per-account limit counts verified accounts only (a forged token naming someone else's id must not spend their budget).",
      responses: { 200: { description: '`{userId}`.', schema: whoami }, 401: 'No valid token.' },
    },
    ({ user }) => ({ userId: user.id }),
  );

  routes.post(
    '/orders',
    {
      summary: 'Hold seats for an M-Pesa purchase (before the STK push)',
      access: 'internal',
      refuseRestricted: true,
      userToken: true,
      description: "Called by the payment service's POST /api/stkPush with the user's own bearer token, which decides the buyer.",
      body: createOrderBody,
      responses: {
        201: { description: 'The held order.', schema: heldOrder },
        404: 'Event not found.',
        409: 'Not enough seats left.',
        429: 'Not the buyer’s turn yet: many buyers wait in this sale’s line (`waiting_room_queued`, with their kept place).',
        503: 'The caller gave up (deadline passed).',
      },
    },
    async ({ body, user }) => {
      await deps.waitingRoom.admit(body.eventId, { userId: user.id });
      return deps.waitingRoom.timeHold(() => payments.createOrder(user.id, body));
    },
  );

  routes.post(
    '/guest-orders',
    {
      summary: 'Hold seats for a guest purchase by phone (no account)',
      access: 'internal',
      description:
        "Called by the payment service's POST /api/stkPush when no bearer token came. The phone's shadow account buys (made on its first purchase); the server prices the order as any other.",
      body: createGuestOrderBody,
      responses: {
        201: { description: 'The held order.', schema: heldOrder },
        404: 'Event not found.',
        409: 'Not enough seats left.',
        429: 'Not the buyer’s turn yet: many buyers wait in this sale’s line (`waiting_room_queued`, with their kept place).',
        503: 'The caller gave up (deadline passed).',
      },
    },
    async ({ body }) => {
      await deps.waitingRoom.admit(body.eventId, { phone: body.phone });
      return deps.waitingRoom.timeHold(() => deps.guests.createOrder(body));
    },
  );

  routes.get(
    '/guest-status/:checkoutRequestId',
    {
      summary: "A guest checkout's status (confirmPayment without a token)",
      access: 'internal',
      params: checkoutParams,
      responses: {
        200: { description: 'The payment as the client shows it.', schema: paymentView },
        404: "No payment to confirm (unknown, or a member's: that needs its owner's token).",
      },
    },
    ({ params }) => payments.statusFor(undefined, params.checkoutRequestId),
  );

  routes.post(
    '/orders/:orderId/abandon',
    {
      summary: 'Release the seats of an order whose push was refused',
      access: 'internal',
      params: orderParams,
      body: abandonOrderBody,
      responses: { 200: { description: '`{released}`.', schema: released } },
    },
    ({ params, body }) => payments.abandonOrder(params.orderId, body.reason),
  );

  routes.post(
    '/pushes',
    {
      summary: 'Record the CheckoutRequestID Daraja gave for an order',
      access: 'internal',
      body: recordPushBody,
      responses: {
        201: { description: '`{paymentId, checkoutRequestId}`.', schema: recordedPush },
        404: 'Order not found.',
        409: 'Push already recorded for another order.',
      },
    },
    ({ body }) => recordPush(body),
  );

  routes.post(
    '/pushes/batch',
    {
      summary: 'Record several pushes in one request (POST /pushes for each item)',
      access: 'internal',
      description: "The payment service sends the pushes recorded during a burst together. Each item is answered with the status and body POST /pushes would have answered it with.",
      body: recordPushesBody,
      responses: { 200: { description: '`{results:[{status, body}]}`, one per item, in order.', schema: batchAnswers } },
    },
    ({ body }) => answerEach(body.items, 201, recordPush),
  );

  routes.post(
    '/settle',
    {
      summary: 'Settle a payment from the Daraja callback or a status query (idempotent)',
      access: 'internal',
      description: 'A success issues the tickets (or marks the order refund_due when the seats are gone).',
      body: settleBody,
      responses: {
        200: { description: '`{checkoutRequestId, status, orderStatus, ticketsIssued, changed, view}`.', schema: settled },
        404: 'No payment with that CheckoutRequestID.',
        409: 'A callback that does not match the push (MerchantRequestID or amount): `{doubtful:true, reason}` added.',
      },
    },
    ({ body }) => payments.settle(body),
  );

  routes.post(
    '/c2b/validate',
    {
      summary: 'May this Paybill payment go ahead? (M-Pesa C2B validation)',
      access: 'internal',
      description: "Accepts a payment of exactly an open order's amount to its order code; answers the Daraja rejection code otherwise (docs/decisions/paybill.md).",
      body: c2bValidateRequest,
      responses: { 200: { description: '`{resultCode, resultDesc}`: `0` accepts, `C2B00012` unknown account, `C2B00013` wrong amount.', schema: c2bValidateResponse } },
    },
    ({ body }) => payments.paybill.validate(body),
  );

  routes.post(
    '/c2b/confirmations',
    {
      summary: 'Settle a Paybill payment M-Pesa completed (M-Pesa C2B confirmation; idempotent by TransID)',
      access: 'internal',
      description:
        "Settled as a payment of the order whose code is the account number, by the one settle path: tickets, or a refund when it buys nothing (order already paid, too little, sold out after the hold) and of any overpayment. An unknown account number waits for an administrator (unmatched_payments).",
      body: c2bConfirmationRequest,
      responses: { 200: { description: '`{outcome: settled|duplicate|unmatched, orderStatus?}`.', schema: c2bConfirmationResponse } },
    },
    ({ body }) => payments.paybill.confirm(body),
  );

  routes.post(
    '/settle/batch',
    {
      summary: 'Settle several payments in one request (POST /settle for each item)',
      access: 'internal',
      description: "The payment service sends the callbacks that arrive during a burst together; their successes are settled in a few statements. Each item is answered with the status and body POST /settle would have answered it with.",
      body: settleManyBody,
      responses: { 200: { description: '`{results:[{status, body}]}`, one per item, in order.', schema: batchAnswers } },
    },
    ({ body }) => answerEach(body.items, 200, (item) => payments.settle(item)),
  );

  routes.get(
    '/pending',
    {
      summary: 'Pushes still waiting for a result (the reconciler polls these); expires stale holds',
      access: 'internal',
      query: pendingQuery,
      responses: { 200: { description: 'Bare array `[{checkoutRequestId, createdAt}]`.', schema: pendingPushes } },
    },
    ({ query }) => payments.pendingPushes(query.olderThan, query.limit),
  );

  routes.get(
    '/unconfirmed',
    {
      summary: 'Successes recorded from a callback alone that no STK query has confirmed (the reconciler asks M-Pesa about these)',
      access: 'internal',
      query: pendingQuery,
      responses: { 200: { description: 'Bare array `[{checkoutRequestId, createdAt}]`: unchanged for `olderThan` seconds, created in the last 24 hours.', schema: pendingPushes } },
    },
    ({ query }) => payments.unconfirmedSuccesses(query.olderThan, query.limit),
  );

  routes.get(
    '/status/:checkoutRequestId',
    {
      summary: "A payment's status for its owner (confirmPayment)",
      access: 'internal',
      userToken: true,
      params: checkoutParams,
      responses: {
        200: { description: 'The payment as the client shows it.', schema: paymentView },
        404: "No payment to confirm (unknown, or not the caller's).",
      },
    },
    ({ params, user }) => payments.statusFor(user.id, params.checkoutRequestId),
  );

  return router;
}

const transactionsPageQuery = z.object(timePageQuery(20));

/** /api/transactions — read-only views of what the server recorded; the client's word changes nothing. */
export function createTransactionsRouter(deps: { payments: PaymentsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payments');

  routes.get(
    '/:userId',
    {
      summary: "A user's payment attempts, newest first (self or admin)",
      access: 'self',
      self: ({ params }) => params.userId,
      allowAdmin: true,
      description: "An administrator may read any user's transactions.",
      params: userIdParams,
      responses: {
        200: {
          description:
            'Bare array `[{_id, name, eventId, checkoutRequestId, phoneNumber, amount, quantity, date, paymentStatus, orderStatus, resultDesc, createdAt, mpesaReceiptNumber, refundStatus, refundAmount, refundReceipt}]`; the refund fields describe the payment\'s latest refund (null when none).',
          schema: transaction.array(),
        },
      },
    },
    ({ params }) => deps.payments.transactions(params.userId),
  );

  routes.get(
    '/:userId/paged',
    {
      summary: "A user's payment attempts, newest first, a page at a time (self or admin)",
      access: 'self',
      self: ({ params }) => params.userId,
      allowAdmin: true,
      description: 'The paged form of GET /api/transactions/{userId}: same items and order.',
      params: userIdParams,
      query: transactionsPageQuery,
      responses: { 200: { description: '`{items, total, nextCursor}`: items as in GET /api/transactions/{userId}.', schema: pageSchema(transaction) } },
    },
    ({ params, query }) => deps.payments.transactionsPage(params.userId, query),
  );

  routes.post(
    '/',
    {
      summary: 'Look up a transaction the server already recorded for the caller',
      access: 'user',
      self: ({ body }) => body.userId,
      description: "The client's word changes nothing: a 2xx only for a payment the server recorded for the caller.",
      body: saveTransactionBody,
      responses: {
        200: { description: 'The recorded transaction (same fields as GET /api/transactions/{userId}).', schema: transaction },
        403: 'It belongs to another account, or `userId` is not the caller.',
        404: 'No such payment recorded.',
      },
    },
    ({ body, user }) => deps.payments.findTransaction(user.id, body.transactionData.checkoutRequestId),
  );

  return router;
}

/** /api/guest-tickets — a guest order's ticket page, opened from the link its SMS carries. */
export function createGuestTicketsRouter(deps: { guests: GuestCheckout }) {
  const router = Router();
  declareRoutes(router, 'Payments').get(
    '/:token',
    {
      summary: "A guest order's tickets, for the holder of its SMS link",
      access: 'public',
      description: 'The token is the signed capability the SMS link carries (`/t/<token>`). Once the order is claimed by an account its tickets are under My Tickets and the link answers 404.',
      params: guestTicketParams,
      responses: { 200: { description: '`{orderStatus, event, tickets, refunds}`; each ticket carries its signed code (for the QR); a cancelled event its reason, the refunds where they stand.', schema: guestTickets }, 404: 'Unknown or forged link, or claimed.' },
    },
    ({ params }) => deps.guests.ticketsFor(params.token),
  );
  return router;
}
