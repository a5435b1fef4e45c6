import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import type { EventCancellationService } from './cancel-event.handler.js';
import { adminRefundPage, adminRefunds, audited, cancelled, eventRefunds, resulted, retried, selfCancelled } from './refunds.responses.js';
import { auditBody, cancelBody, eventParams, refundListQuery, refundPageQuery, refundParams, resultBody, selfCancelBody } from './refunds.schemas.js';
import type { RefundsService } from './refunds.service.js';
import type { SelfCancelService } from './cancel-tickets.handler.js';

/**
 * /api/internal — the refund ledger's calls, made by the payment service only (the declaration checks
 * the shared INTERNAL_API_KEY): its result outbox delivers Daraja's answers; the audit.
 */
export function createInternalRefundsRouter(deps: { refunds: RefundsService; internalApiKey: string }) {
  const { refunds } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Internal (payment service)', { internalKey: deps.internalApiKey });

  routes.post(
    '/refunds/result',
    {
      summary: "Record Daraja's definite answer for a refund attempt (its callback or Transaction Status answer, from the payment service's outbox), once",
      access: 'internal',
      description:
        'One call per result, delivered until acknowledged. ResultCode "0" (not `rejected`): the attempt and refund succeed, `receipt` = transactionId. Anything else: the attempt fails and the refund is due again ' +
        'after the back-off, or failed after REFUND_MAX_ATTEMPTS. A result for an attempt already final changes nothing (`changed: false`). A queue timeout is not a result.',
      body: resultBody,
      responses: {
        200: { description: '`{refundId, status, changed}`.', schema: resulted },
        404: 'No attempt with that OriginatorConversationID.',
        409: 'A success the ledger does not accept as it is (amount differs from the refund, no TransactionID, or one used by another refund): `{doubtful: true, reason}` added.',
      },
    },
    ({ body }) => refunds.result(body),
  );

  routes.post(
    '/audit',
    {
      summary: "Compare what M-Pesa reports as completed (payments and refunds) with the ledger",
      access: 'internal',
      description: 'Answers the discrepancies found (docs/decisions/refunds.md, "Audit"); an empty list means the ledger agrees with the provider.',
      body: auditBody,
      responses: { 200: { description: '`{discrepancies: [{kind, detail}], notices: [{kind, detail}], checked: {payments, refunds}}`: notices agree with the provider but a person should know them (a forged success already voided).', schema: audited } },
    },
    ({ body }) => refunds.audit(body),
  );

  return router;
}

/** /api/admin/refunds — the refund ledger as administrators see and nudge it. */
export function createAdminRefundsRouter(deps: { refunds: RefundsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payments');

  routes.get(
    '/refunds',
    {
      summary: 'Refunds (paid orders that got no seats, cancelled events, late payments), newest first',
      access: 'admin',
      query: refundListQuery,
      responses: {
        200: {
          description:
            'Bare array `[{_id, orderId, eventId, eventTitle, userId, username, email, quantity, amount, phoneNumber, checkoutRequestId, mpesaReceiptNumber, paidAt, flaggedAt, ' +
            'refundId, status, refundAmount, method, attempts, nextAttemptAt, receipt, reason}]`; `?status=` keeps one status.',
          schema: adminRefunds,
        },
      },
    },
    ({ query }) => deps.refunds.list(query.status),
  );

  routes.get(
    '/refunds/paged',
    {
      summary: 'Refunds, newest first, a page at a time (the admin dashboard)',
      access: 'admin',
      description: 'The paged form of GET /api/admin/refunds: same items, order and `status` filter; `total` counts the filtered list.',
      query: refundPageQuery,
      responses: { 200: { description: '`{items, total, nextCursor}`.', schema: adminRefundPage } },
    },
    ({ query }) => deps.refunds.listPage(query),
  );

  routes.post(
    '/refunds/:id/retry',
    {
      summary: 'Send a failed refund again (it becomes due now)',
      access: 'admin',
      params: refundParams,
      responses: {
        200: { description: '`{refundId, status: "due", method, attempts, nextAttemptAt}`.', schema: retried },
        404: 'Refund not found.',
        409: 'The refund is not failed (`status` says what it is).',
      },
    },
    ({ params, user }) => deps.refunds.retry(params.id, user),
  );

  return router;
}

/** POST /api/events/:id/cancel and GET /api/events/:id/refunds (mounted under /api/events before the events router). */
export function createEventCancellationRouter(deps: { cancellation: EventCancellationService; refunds: RefundsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Events');
  routes.post(
    '/:id/cancel',
    {
      summary: 'Cancel an event (organiser or admin): tickets void, buyers refunded, holders emailed',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description:
        'Final: the event answers `status: "cancelled"` with `cancelReason` and `cancelledAt`, stays readable (comments, reviews, forums) and leaves the ' +
        'upcoming, popular and search lists. Every ticket is voided, every successful payment refunded in full (M-Pesa reversal or B2C), pending orders ' +
        'release their seats, and every holder is emailed the reason. Once the event has started only an admin may cancel it (e.g. it never took place).',
      params: eventParams,
      body: cancelBody,
      responses: {
        200: { description: '`{msg, cancelled, cancelledAt, ticketsVoided, ordersReleased, refunds}`.', schema: cancelled },
        403: 'Not the organiser or an admin.',
        404: 'Event not found (or pending and not yours).',
        409: 'Already cancelled, or started and the caller is not an admin (`event_cancel_started`): nothing changed.',
      },
    },
    ({ params, body, user }) => deps.cancellation.cancel(params.id, user, body.reason),
  );

  routes.get(
    '/:id/refunds',
    {
      summary: "The event's cancelled tickets and refunds (organiser or admin)",
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description:
        'Tickets cancelled by their holders, voided by the event\'s cancellation and transferred; the refunds counted and totalled (KES) by status, and listed ' +
        'newest first with the buyer\'s username (no phone or email), amount, reason, status, receipt once paid, and dates.',
      params: eventParams,
      responses: {
        200: { description: '`{eventId, tickets, total, byStatus, refunds}`.', schema: eventRefunds },
        403: 'Not the organiser or an admin.',
        404: 'Event not found (or pending and not yours).',
      },
    },
    ({ params, user }) => deps.refunds.forEvent(params.id, user),
  );
  return router;
}

/** POST /api/tickets/cancel (mounted under /api/tickets next to the tickets router). */
export function createSelfCancelRouter(deps: { selfCancel: SelfCancelService }) {
  const router = Router();
  declareRoutes(router, 'Tickets').post(
    '/cancel',
    {
      summary: "Cancel some or all of your tickets of one event, within the organiser's refund policy",
      access: 'user',
      description:
        'The tickets are voided (`voidReason: "self_cancel"`) and their seats freed; for paid tickets a refund of price × tickets × the policy percent ' +
        '(never more than is left of the payment) goes back to M-Pesa, and the holder is emailed. Free tickets can be released until the start; ' +
        "paid ones only within the event's `refundPolicy` (`selfCancel` in `GET /api/tickets/mine` says so per ticket). Nothing changes on a refusal.",
      body: selfCancelBody,
      responses: {
        200: { description: '`{msg, cancelled, refundAmount}`.', schema: selfCancelled },
        400: 'Invalid input, or tickets of more than one event.',
        404: 'A ticket that does not exist or is not the caller\'s.',
        409: 'Outside the refund policy (no refunds, too close to the start, or started: the message says which), a void or checked-in ticket, or a cancelled event.',
      },
    },
    ({ body, user }) => deps.selfCancel.cancel(user, body.ticketIds),
  );
  return router;
}
