import { Router } from 'express';
import { z } from 'zod';
import { idParam } from '../../lib/validate.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import type { PaybillHandler } from './paybill.handler.js';

/** Refunding: its reversal is on its way; refunded: M-Pesa reversed it. */
const UNMATCHED_STATUSES = ['waiting', 'attached', 'refunding', 'refunded'] as const;
const unmatchedParams = z.object({ id: idParam('Unmatched payment id') });
const unmatchedListQuery = z.object({ status: z.enum(UNMATCHED_STATUSES).optional() });
const attachBody = z.object({ orderCode: z.string().trim().min(1, 'Enter the order number.').max(40) });

const refundBody = z.object({ reason: z.string().trim().min(3, 'Say why in at least 3 characters.').max(500) });

const unmatchedItem = z.object({
  _id: z.string(),
  transId: z.string(),
  billRefNumber: z.string(),
  amount: z.int(),
  msisdn: z.string(),
  shortCode: z.string(),
  transTime: z.string().nullable(),
  status: z.enum(UNMATCHED_STATUSES),
  paymentId: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  createdAt: z.string(),
});
const attached = z.object({ unmatchedId: z.string(), status: z.literal('attached'), orderId: z.string(), orderStatus: z.string(), ticketsIssued: z.int() });
const refunding = z.object({
  unmatchedId: z.string(),
  status: z.literal('refunding'),
  refundId: z.string(),
  refundStatus: z.enum(['due', 'sent', 'succeeded', 'failed']),
  amount: z.int(),
  method: z.enum(['reversal', 'b2c']),
});

/** /api/admin/unmatched-payments — Paybill payments no order claims, for an administrator to place (docs/decisions/paybill.md). */
export function createAdminUnmatchedPaymentsRouter(deps: { paybill: PaybillHandler }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payments');

  routes.get(
    '/',
    {
      summary: 'Paybill payments whose account number matched no order, newest first',
      access: 'admin',
      query: unmatchedListQuery,
      responses: { 200: { description: '`[{_id, transId, billRefNumber, amount, msisdn, shortCode, transTime, status, paymentId, resolvedAt, createdAt}]`; `?status=` keeps one status.', schema: z.array(unmatchedItem) } },
    },
    ({ query }) => deps.paybill.listUnmatched(query.status),
  );

  routes.post(
    '/:id/attach',
    {
      summary: 'Place an unmatched Paybill payment on the order the payer meant (it then settles as that order’s payment)',
      access: 'admin',
      params: unmatchedParams,
      body: attachBody,
      responses: {
        200: { description: '`{unmatchedId, status:"attached", orderId, orderStatus, ticketsIssued}`: tickets, or refunds when it buys nothing or too much.', schema: attached },
        404: 'No such unmatched payment, or no order has that order number.',
        409: 'Already placed or refunded.',
      },
    },
    ({ params, body, user }) => deps.paybill.attach(params.id, body.orderCode, user),
  );

  routes.post(
    '/:id/refund',
    {
      summary: 'Refund an unmatched Paybill payment whole, by a reversal of its TransID, instead of placing it',
      access: 'admin',
      params: unmatchedParams,
      body: refundBody,
      responses: {
        200: { description: '`{unmatchedId, status:"refunding", refundId, refundStatus, amount, method:"reversal"}`: the refunds job sends the reversal; the payment is `refunded` once M-Pesa made it.', schema: refunding },
        404: 'No such unmatched payment.',
        409: 'Already placed or refunded.',
      },
    },
    ({ params, body, user }) => deps.paybill.refund(params.id, body.reason, user),
  );

  return router;
}
