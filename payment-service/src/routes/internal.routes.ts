import { pullTransactionsRequest, pullTransactionsResponse } from '@tukio/shared/internal-c2b';
import { stkPushRequest, stkPushResponse, stkQueryRequest, stkQueryResponse } from '@tukio/shared/internal-api';
import express, { Router } from 'express';
import type { PushService } from '../checkout/push.service.js';
import { PaymentServiceError } from '../errors.js';
import type { PullTransactions } from '../pull-transactions.js';
import { declareRoutes } from '../route-declaration.js';

/**
 * /internal/stk-push and /internal/stk-query: what the API server's checkout asks of M-Pesa (X-Internal-Key).
 * Not under /api, so no browser-facing middleware (CORS) applies.
 */
export function createInternalRouter(deps: { internalApiKey: string; pushes: PushService; pull?: PullTransactions | undefined }) {
  const router = Router();
  const routes = declareRoutes(router, 'Internal', { internalKey: deps.internalApiKey });
  // The body is read only once the key has passed.
  const json = express.json({ limit: '4kb' });

  routes.post(
    '/internal/stk-push',
    {
      summary: 'Send the M-Pesa prompt for an order the API server holds',
      access: 'internal',
      use: [json],
      body: stkPushRequest,
      responses: {
        200: { description: 'Daraja accepted the push.', schema: stkPushResponse },
        400: "Invalid input (`msg` names the field), or M-Pesa refused the phone (`mpesa_phone_refused`, with M-Pesa's `errorCode`).",
        409: "A prompt is already pending on this phone (`mpesa_prompt_pending`, with M-Pesa's `errorCode`).",
        502: 'M-Pesa refused the request (`mpesa_refused`, with its `errorCode`) or is unreachable (`mpesa_unreachable`).',
      },
    },
    ({ body }) => deps.pushes.sendPush(body),
  );

  routes.post(
    '/internal/stk-query',
    {
      summary: 'Ask M-Pesa where a push stands, and settle it when it has a final answer',
      access: 'internal',
      use: [json],
      body: stkQueryRequest,
      responses: { 200: { description: 'Whether M-Pesa gave a final answer (and it was settled).', schema: stkQueryResponse } },
    },
    ({ body }) => deps.pushes.queryPush(body.checkoutRequestId),
  );

  routes.post(
    '/internal/pull-transactions',
    {
      summary: "The paybill shortcode's C2B payments M-Pesa completed in a time window (Daraja Pull Transactions, every page)",
      description: 'For the daily reconciliation (docs/decisions/reconciliation.md). Daraja keeps only the last 48 hours.',
      access: 'internal',
      use: [json],
      body: pullTransactionsRequest,
      responses: {
        200: { description: 'Every payment in the window, once per receipt.', schema: pullTransactionsResponse },
        502: 'Pull Transactions is not configured (PULL_NOMINATED_NUMBER), or M-Pesa refused or did not answer (`mpesa_refused`).',
      },
    },
    async ({ body }) => {
      if (!deps.pull) throw new PaymentServiceError(502, 'mpesa_refused', 'Pull Transactions is not configured (PULL_NOMINATED_NUMBER).');
      try {
        return await deps.pull.list(new Date(body.from), new Date(body.to));
      } catch (error) {
        throw new PaymentServiceError(502, 'mpesa_refused', `M-Pesa's Pull Transactions failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  );

  return router;
}
