import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { adjusted, balances, eventLedger } from './ledger.responses.js';
import { adjustmentBody, balancesQuery, eventParams } from './ledger.schemas.js';
import type { LedgerService } from './ledger.service.js';

/** /api/admin/ledger — administrators' adjustments and balances (docs/decisions/ledger.md). */
export function createAdminLedgerRouter(deps: { ledger: LedgerService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payments');

  routes.post(
    '/ledger/adjustments',
    {
      summary: 'Post an adjustment: move whole shillings from one ledger account to another, with a reason',
      access: 'admin',
      description:
        'One balanced transaction: `amount` debited to `debitAccount` and credited to `creditAccount`, for `eventId` when given (required when either is ' +
        '`organiser_payable`). Ledger entries are never edited: a mistake is corrected by another adjustment. The reason and the administrator are kept.',
      body: adjustmentBody,
      responses: {
        201: { description: '`{transactionId, balances}`: the balances after it (of the event when one was named).', schema: adjusted },
        400: 'Invalid input: an unknown account, the same account twice, an amount not above 0, no reason, or an organiser payable without an event.',
        404: 'Event not found.',
      },
    },
    ({ body, user }) => deps.ledger.adjust(body, user),
  );

  routes.get(
    '/ledger/balances',
    {
      summary: "Every ledger account's balance, or one event's",
      access: 'admin',
      query: balancesQuery,
      responses: { 200: { description: '`{eventId, balances}`: balances derived from the entries (debit positive).', schema: balances } },
    },
    ({ query }) => deps.ledger.balances(query.eventId),
  );

  return router;
}

/** GET /api/events/:id/ledger (mounted under /api/events before the events router). */
export function createEventLedgerRouter(deps: { ledger: LedgerService }) {
  const router = Router();
  declareRoutes(router, 'Events').get(
    '/:id/ledger',
    {
      summary: "What the event's organiser is owed: gross sales, reversals, refunds, adjustments and the balance (organiser or admin)",
      access: 'owner',
      team: { permission: 'payouts', event: ({ params }) => params.id },
      params: eventParams,
      responses: {
        200: { description: '`{eventId, currency, grossSales, reversed, refunds, adjustments, balance}` in whole shillings.', schema: eventLedger },
        403: 'Not the organiser or an admin.',
        404: 'Event not found (or pending and not yours).',
      },
    },
    ({ params, user }) => deps.ledger.forEvent(params.id, user),
  );
  return router;
}
