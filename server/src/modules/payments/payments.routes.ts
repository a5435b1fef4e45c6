import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { requireAdmin, requireSelf, requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { AppError } from '../../lib/app-error.js';
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

  router.post('/orders', async (req, res) => {
    const user = requireUser(req);
    const body = parse(createOrderBody, req.body);
    res.status(201).json(await payments.createOrder(user.id, body));
  });

  router.post('/orders/:orderId/abandon', async (req, res) => {
    const { orderId } = parse(orderParams, req.params);
    res.json(await payments.abandonOrder(orderId, parse(abandonOrderBody, req.body).reason));
  });

  router.post('/pushes', async (req, res) => {
    res.status(201).json(await payments.recordPush(parse(recordPushBody, req.body)));
  });

  router.post('/settle', async (req, res) => {
    res.json(await payments.settle(parse(settleBody, req.body)));
  });

  router.get('/pending', async (req, res) => {
    const query = parse(pendingQuery, req.query);
    res.json(await payments.pendingPushes(query.olderThan, query.limit));
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

  router.get('/:userId', async (req, res) => {
    const { userId } = parse(userIdParams, req.params);
    requireSelf(req, userId, { allowAdmin: true });
    res.json(await deps.payments.transactions(userId));
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
  router.get('/refunds', async (req, res) => {
    requireAdmin(req);
    res.json(await deps.payments.refundsDue());
  });
  return router;
}
