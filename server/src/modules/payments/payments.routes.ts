import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { requireAdmin, requireSelf, requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { AppError } from '../../lib/app-error.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import { parse } from '../../lib/validate.js';
import {
  abandonOrderBody,
  checkoutParams,
  createOrderBody,
  orderParams,
  pendingQuery,
  recordPushBody,
  saveTransactionBody,
  settleBody,
  userIdParams,
} from './payments.schemas.js';
import type { PaymentsService } from './payments.service.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Internal calls carry the shared INTERNAL_API_KEY in `X-Internal-Key`. Both sides are hashed
 * first so the comparison takes the same time whatever the length of the guess.
 */
export function requireInternalKey(internalApiKey: string): RequestHandler {
  const expected = digest(internalApiKey);
  return (req, _res, next) => {
    const given = req.get('x-internal-key');
    if (!given || !timingSafeEqual(digest(given), expected)) {
      next(new AppError(401, 'This endpoint is for Tukio services only.'));
      return;
    }
    next();
  };
}

/**
 * /api/internal/payments — called by the payment service only. The user's own bearer token is
 * forwarded where the call acts for a user, so the API server decides who that user is.
 */
export function createInternalPaymentsRouter(deps: { payments: PaymentsService; internalApiKey: string }) {
  const { payments } = deps;
  const router = Router();
  router.use(requireInternalKey(deps.internalApiKey));
  const doc = apiDocs(router, 'Internal (payment service)');

  doc.get('/whoami', {
    summary: 'The account a forwarded bearer token belongs to',
    auth: 'internal',
    userToken: true,
    description: "Called first by the payment service's POST /api/stkPush, so its per-account limit counts verified accounts only (a forged token naming someone else's id must not spend their budget).",
    responses: { 200: { description: '`{userId}`.', schema: shape.object({ userId: 'string' }) }, 401: 'No valid token.' },
  });
  router.get('/whoami', (req, res) => {
    res.json({ userId: requireUser(req).id });
  });

  doc.post('/orders', {
    summary: 'Hold seats for an M-Pesa purchase (before the STK push)',
    auth: 'internal',
    userToken: true,
    description: "Called by the payment service's POST /api/stkPush with the user's own bearer token, which decides the buyer.",
    body: createOrderBody,
    responses: {
      201: {
        description: 'The held order.',
        schema: shape.object({ orderId: 'string', amount: 'integer', quantity: 'integer', holdExpiresAt: 'string', accountReference: 'string', transactionDesc: 'string', eventTitle: 'string' }),
      },
      404: 'Event not found.',
      409: 'Not enough seats left.',
      503: 'The caller gave up (deadline passed).',
    },
  });
  router.post('/orders', async (req, res) => {
    const user = requireUser(req);
    const body = parse(createOrderBody, req.body);
    res.status(201).json(await payments.createOrder(user.id, body));
  });

  doc.post('/orders/:orderId/abandon', {
    summary: 'Release the seats of an order whose push was refused',
    auth: 'internal',
    params: orderParams,
    body: abandonOrderBody,
    responses: { 200: { description: '`{released}`.', schema: shape.object({ released: 'boolean' }) } },
  });
  router.post('/orders/:orderId/abandon', async (req, res) => {
    const { orderId } = parse(orderParams, req.params);
    res.json(await payments.abandonOrder(orderId, parse(abandonOrderBody, req.body).reason));
  });

  doc.post('/pushes', {
    summary: 'Record the CheckoutRequestID Daraja gave for an order',
    auth: 'internal',
    body: recordPushBody,
    responses: { 201: { description: '`{paymentId, checkoutRequestId}`.', schema: shape.object({ paymentId: 'string', checkoutRequestId: 'string' }) }, 404: 'Order not found.', 409: 'Push already recorded for another order.' },
  });
  router.post('/pushes', async (req, res) => {
    res.status(201).json(await payments.recordPush(parse(recordPushBody, req.body)));
  });

  doc.post('/settle', {
    summary: 'Settle a payment from the Daraja callback or a status query (idempotent)',
    auth: 'internal',
    description: 'A success issues the tickets (or marks the order refund_due when the seats are gone).',
    body: settleBody,
    responses: {
      200: '`{checkoutRequestId, status, orderStatus, ticketsIssued, changed, view}`.',
      404: 'No payment with that CheckoutRequestID.',
      409: 'A callback that does not match the push (MerchantRequestID or amount): `{doubtful:true, reason}` added.',
    },
  });
  router.post('/settle', async (req, res) => {
    res.json(await payments.settle(parse(settleBody, req.body)));
  });

  doc.get('/pending', {
    summary: 'Pushes still waiting for a result (the reconciler polls these); expires stale holds',
    auth: 'internal',
    query: pendingQuery,
    responses: { 200: { description: 'Bare array `[{checkoutRequestId, createdAt}]`.', schema: shape.array(shape.object({ checkoutRequestId: 'string', createdAt: 'string' })) } },
  });
  router.get('/pending', async (req, res) => {
    const query = parse(pendingQuery, req.query);
    res.json(await payments.pendingPushes(query.olderThan, query.limit));
  });

  doc.get('/status/:checkoutRequestId', {
    summary: "A payment's status for its owner (confirmPayment)",
    auth: 'internal',
    userToken: true,
    params: checkoutParams,
    responses: { 200: 'The payment as the client shows it.', 404: 'No payment to confirm (unknown, or not the caller\'s).' },
  });
  router.get('/status/:checkoutRequestId', async (req, res) => {
    const user = requireUser(req);
    const { checkoutRequestId } = parse(checkoutParams, req.params);
    res.json(await payments.statusFor(user.id, checkoutRequestId));
  });

  return router;
}

/** /api/transactions — read-only views of what the server recorded; the client's word changes nothing. */
export function createTransactionsRouter(deps: { payments: PaymentsService }) {
  const router = Router();
  const doc = apiDocs(router, 'Payments');

  doc.get('/:userId', {
    summary: "A user's payment attempts, newest first (self or admin)",
    auth: 'self',
    description: 'An administrator may read any user\'s transactions.',
    params: userIdParams,
    responses: { 200: 'Bare array `[{_id, name, eventId, checkoutRequestId, phoneNumber, amount, quantity, date, paymentStatus, orderStatus, resultDesc, createdAt, mpesaReceiptNumber}]`.' },
  });
  router.get('/:userId', async (req, res) => {
    const { userId } = parse(userIdParams, req.params);
    requireSelf(req, userId, { allowAdmin: true });
    res.json(await deps.payments.transactions(userId));
  });

  doc.post('/', {
    summary: 'Look up a transaction the server already recorded for the caller',
    auth: 'user',
    description: "The client's word changes nothing: a 2xx only for a payment the server recorded for the caller.",
    body: saveTransactionBody,
    responses: { 200: 'The recorded transaction (same fields as GET /api/transactions/{userId}).', 403: 'It belongs to another account, or `userId` is not the caller.', 404: 'No such payment recorded.' },
  });
  router.post('/', async (req, res) => {
    const body = parse(saveTransactionBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    res.json(await deps.payments.findTransaction(user.id, body.transactionData.checkoutRequestId));
  });

  return router;
}

/** /api/admin/refunds — paid orders that could not get seats. */
export function createRefundsRouter(deps: { payments: PaymentsService }) {
  const router = Router();
  apiDocs(router, 'Payments').get('/refunds', {
    summary: 'Paid orders that could not get seats and are due a refund',
    auth: 'admin',
    responses: { 200: 'Bare array `[{_id, orderId, eventId, eventTitle, userId, username, email, quantity, amount, phoneNumber, …}]`.' },
  });
  router.get('/refunds', async (req, res) => {
    requireAdmin(req);
    res.json(await deps.payments.refundsDue());
  });
  return router;
}
