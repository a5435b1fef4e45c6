import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { toCsv } from '../tickets/index.js';
import { activeHolds, adminPayouts, earlyPayouts, eventStatement, held, payoutSummary, resultRecorded, retried } from './payouts.responses.js';
import { earlyPayoutsBody, eventParams, holdBody, organiserParams, payoutListQuery, payoutParams, resultBody, statementQuery, userParams } from './payouts.schemas.js';
import type { PayoutsService } from './payouts.service.js';
import type { RecordPayoutResult } from './record-payout-result.handler.js';

/** /api/payouts — an organiser's payouts and an event's statement (docs/decisions/payouts.md). */
export function createPayoutsRouter(deps: { payouts: PayoutsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payouts');

  routes.get(
    '/',
    {
      summary: "The caller's payouts: pending, available, on hold, in flight, paid and negative balance, per event",
      access: 'user',
      responses: { 200: { description: '`{currency, pending, available, onHold, inFlight, paid, negativeBalance, nextPayout, waitingFor, events}` in whole shillings.', schema: payoutSummary } },
    },
    ({ user }) => deps.payouts.summary(user),
  );

  routes.get(
    '/organisers/:organiserId',
    {
      summary: "An organiser's payouts summary, read-only: the organiser, an admin, or a finance member for all of the organiser's events",
      access: 'owner',
      team: { permission: 'payouts', organiser: ({ params }) => params.organiserId },
      description:
        'The same answer as GET /api/payouts gives the organiser. A finance member for all events reads it (and each event\'s statement); ' +
        'a member for one event, a co-organiser or gate staff is refused (docs/decisions/teams.md). Early payouts, payout destinations and the team stay the organiser\'s.',
      params: organiserParams,
      responses: {
        200: { description: 'As GET /api/payouts.', schema: payoutSummary },
        403: "Not the organiser, an admin, or a finance member for all of the organiser's events.",
      },
    },
    ({ params, user }) => deps.payouts.organiserSummary(params.organiserId, user),
  );

  routes.get(
    '/events/:id/statement',
    {
      summary: "An event's statement: gross sales, fees, M-Pesa charges, refunds, net, payouts with M-Pesa receipts (organiser or admin)",
      access: 'owner',
      team: { permission: 'payouts', event: ({ params }) => params.id },
      description: '`format=csv` answers the same as a text/csv attachment: the figures, then one line per payout.',
      params: eventParams,
      query: statementQuery,
      responses: {
        200: { description: 'JSON: `{eventId, title, currency, grossSales, fees, mpesaCharges, refunds, adjustments, net, paidOut, balance, payouts}`; `format=csv`: text/csv.', schema: eventStatement },
        403: 'Not the organiser or an admin.',
        404: 'Event not found (or pending and not yours).',
      },
    },
    async ({ params, query, user, res }) => {
      const statement = await deps.payouts.statement(params.id, user);
      if (query.format === 'json') return statement;
      const figures: Array<[string, number]> = [
        ['Gross sales', statement.grossSales],
        ['Fees', statement.fees],
        ['M-Pesa charges', statement.mpesaCharges],
        ['Refunds', statement.refunds],
        ['Adjustments', statement.adjustments],
        ['Net', statement.net],
        ['Paid out', statement.paidOut],
        ['Balance', statement.balance],
      ];
      const csv =
        toCsv(['Item', 'Amount (KES)'], figures) +
        toCsv(
          ['Payout', 'For this event (KES)', 'Payout amount (KES)', 'Status', 'M-Pesa receipt', 'Made', 'Paid'],
          statement.payouts.map((payout) => [payout.payoutId, payout.forEvent, payout.amount, payout.status, payout.receipt, payout.createdAt, payout.paidAt]),
        );
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="statement-${params.id}.csv"`);
      res.send(csv);
    },
  );
  return router;
}

/** /api/admin — the administrators' payouts: failed ones and their retry, holds, early-payout trust. */
export function createAdminPayoutsRouter(deps: { payouts: PayoutsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payouts');

  routes.get(
    '/payouts',
    {
      summary: 'Payouts, newest first (`?status=failed`: those waiting for an administrator; `?status=needs_attention`: a result refused for good)',
      access: 'admin',
      query: payoutListQuery,
      responses: { 200: { description: 'Bare array `[{payoutId, organiserId, username, earlyPayouts, amount, method, status, attempts, nextAttemptAt, receipt, failure, needsAttention, lastResultCode, retriedAt, createdAt, paidAt}]`.', schema: adminPayouts } },
    },
    ({ query }) => deps.payouts.list(query.status),
  );

  routes.post(
    '/payouts/:id/retry',
    {
      summary: "Retry a failed payout: its money (back on the organiser's payables) is paid in a new payout, now when one is due",
      access: 'admin',
      params: payoutParams,
      responses: {
        200: { description: '`{payoutId, retriedAt, newPayoutId, waitingFor}`: the new payout, or why none is made yet.', schema: retried },
        404: 'Payout not found.',
        409: 'The payout is not failed (`status` says what it is), or was retried already.',
      },
    },
    ({ params, user }) => deps.payouts.retry(params.id, user),
  );

  routes.get(
    '/payout-holds',
    {
      summary: 'Events whose payouts an administrator holds now, newest first',
      access: 'admin',
      responses: { 200: { description: 'Bare array `[{eventId, title, organiser, reason, heldAt}]`.', schema: activeHolds } },
    },
    () => deps.payouts.holds(),
  );

  routes.post(
    '/events/:id/payout-hold',
    {
      summary: "Hold an event's payouts, with a reason",
      access: 'admin',
      params: eventParams,
      body: holdBody,
      responses: { 201: { description: '`{eventId, held: true, reason, heldAt}`.', schema: held }, 404: 'Event not found.', 409: 'Already on hold.' },
    },
    ({ params, body, user }) => deps.payouts.hold(params.id, body.reason, user),
  );

  routes.delete(
    '/events/:id/payout-hold',
    {
      summary: "Release an event's payout hold",
      access: 'admin',
      params: eventParams,
      responses: { 200: { description: '`{eventId, held: false, reason, heldAt}`: the hold released.', schema: held }, 404: 'Event not found.', 409: 'Not on hold.' },
    },
    ({ params, user }) => deps.payouts.release(params.id, user),
  );

  routes.put(
    '/users/:id/early-payouts',
    {
      summary: `Trust an organiser with early payouts (part of an event's net before the payout date), or stop`,
      access: 'admin',
      params: userParams,
      body: earlyPayoutsBody,
      responses: { 200: { description: '`{userId, earlyPayouts}`.', schema: earlyPayouts }, 404: 'User not found.' },
    },
    ({ params, body, user }) => deps.payouts.setEarlyPayouts(params.id, body.allowed, user),
  );
  return router;
}

/** /api/internal/payouts — the payment service delivers each payout attempt's result here (X-Internal-Key). */
export function createInternalPayoutsRouter(deps: { recordResult: RecordPayoutResult; internalApiKey: string }) {
  const router = Router();
  declareRoutes(router, 'Internal (payment service)', { internalKey: deps.internalApiKey }).post(
    '/results',
    {
      summary: "Record a payout attempt's definite result (Daraja's callback or its Transaction Status answer), once",
      access: 'internal',
      description:
        'ResultCode "0": the payout is paid (`transactionId` kept as its receipt, `payout_paid` posted with `charge`). Anything else: the attempt failed and the payout ' +
        'is tried again with a new attempt after a back-off, or failed for an administrator after PAYOUT_MAX_ATTEMPTS. A repeat answers `{recorded: false}` and changes nothing.',
      body: resultBody,
      responses: {
        200: { description: '`{recorded}`: false when the attempt had its result already.', schema: resultRecorded },
        404: 'No attempt with that OriginatorConversationID.',
        409: 'A success the ledger does not accept as it is (amount differs from the payout, no TransactionID, or one used by another payout): `{doubtful: true, reason}` added.',
      },
    },
    ({ body }) => deps.recordResult(body),
  );
  return router;
}
