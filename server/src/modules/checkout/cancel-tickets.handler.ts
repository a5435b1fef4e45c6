import { selfCancelRefund, selfCancelTerms } from '@tukio/shared/refund-policy';
import { formatShillings } from '@tukio/shared/shillings';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { retryOnDeadlock } from '../../lib/db-errors.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { msUntilStart } from '../../lib/event-clock.js';
import type { AuthUser } from '../auth/index.js';
import { refundPolicyOf } from '../events/index.js';
import { createPaymentsRepository } from './payments.repository.js';
import { eventSeats, ticketMessages, ticketRecords, ticketPaid, voidedError, type TicketsService } from '../tickets/index.js';
import { createRefundLedger } from './refunds.service.js';
import { buildSelfCancelMail } from './self-cancel-mail.js';
import { emitWebhook } from '../webhooks/index.js';

export const selfCancelErrors = {
  oneEvent: 'Cancel the tickets of one event at a time.',
  eventCancelled: 'This event was cancelled: its tickets are void already and your refund is on its way.',
} as const;

export interface SelfCancelDeps {
  db: Database;
  /** Its mail queue sends the confirmation. */
  tickets: TicketsService;
  changes: ChangeFeed;
  publicUrl: string;
}

/**
 * A holder cancels some or all of their tickets of one event (docs/decisions/refunds.md, "Self-cancel"):
 * within the event's refund policy (@tukio/shared/refund-policy, the rule the client shows), in one
 * transaction, the tickets are voided ('self_cancel'), their seats freed, and each paid order's payment
 * gets a refund of price × tickets × percent, never more than what is left of it.
 */
/**
 * What the buyer paid for tickets that cost `ticketsPaid`: with the platform fee paid on top of the order, their
 * share of it too (in proportion to their price, rounded down; all of an order's tickets give all of it), so a
 * refund gives back the fee with the tickets (docs/decisions/fees.md). An absorbed fee is inside the price already.
 */
function withFeeOnTop(order: { amount: number; feeAmount: number; feeMode: 'absorbed' | 'on_top' }, ticketsPaid: number): number {
  if (order.feeMode !== 'on_top' || order.feeAmount <= 0 || order.amount <= order.feeAmount) return ticketsPaid;
  return Math.floor((ticketsPaid * order.amount) / (order.amount - order.feeAmount));
}

export function createSelfCancel(deps: SelfCancelDeps) {
  const { db } = deps;

  function inTransaction(userId: string, eventId: string, ticketIds: string[], orderIds: string[], now: Date) {
    return db.transaction(async (tx) => {
      const tickets = ticketRecords(tx);
      // Lock order: payments, orders, then the event, as settlement and event cancellation take them.
      const orders = await createPaymentsRepository(tx).lockOrdersWithPayments(orderIds);
      const event = await eventSeats(tx).lockEvent(eventId);
      if (!event) throw AppError.notFound('event_not_found', ticketMessages.notFound);
      // Read again under the locks: a cancel or transfer of the same tickets that ran first wins.
      const locked = await tickets.lockTickets(ticketIds);
      if (locked.length !== ticketIds.length || locked.some((ticket) => ticket.userId !== userId || ticket.eventId !== eventId)) {
        throw AppError.notFound('ticket_not_found', ticketMessages.ticketNotFound);
      }
      const voidTicket = locked.find((ticket) => ticket.voidedAt);
      if (voidTicket) throw voidedError(voidTicket.voidReason);
      if (locked.some((ticket) => ticket.checkedInAt)) throw AppError.conflict('ticket_used', ticketMessages.used);
      if (event.status === 'cancelled') throw AppError.conflict('self_cancel_event_cancelled', selfCancelErrors.eventCancelled);
      const byOrder = new Map(orders.map((row) => [row.order.id, row]));
      const paidFor = (ticket: (typeof locked)[number]) => (ticket.orderId ? ticketPaid(ticket, byOrder.get(ticket.orderId)?.order ?? { amount: 0, quantity: 0 }) : 0);
      const paid = locked.some((ticket) => paidFor(ticket) > 0);
      const terms = selfCancelTerms(refundPolicyOf(event), { msUntilStart: msUntilStart(event.startsAt, now), paid });
      if (!terms.allowed) throw AppError.conflict(terms.code, terms.reason, { params: terms.params });
      const voided = await tickets.voidTickets(ticketIds, 'self_cancel', now);
      if (voided.length !== ticketIds.length) throw AppError.conflict('ticket_void_self_cancelled', ticketMessages.selfCancelled);
      const ledger = createRefundLedger(tx);
      const refunds: Array<{ amount: number; phone: string }> = [];
      for (const orderId of orderIds) {
        const row = byOrder.get(orderId);
        const ofOrder = locked.filter((ticket) => ticket.orderId === orderId);
        const count = ofOrder.length;
        // Each ticket's own price (a VIP ticket refunds what it cost, not the order's average), with its share of a fee paid on top.
        const amount = row ? selfCancelRefund(withFeeOnTop(row.order, ofOrder.reduce((sum, ticket) => sum + paidFor(ticket), 0)), 1, terms.percent) : 0;
        if (!row?.paymentId || amount <= 0) continue;
        const refund = await ledger.createRefund({
          paymentId: row.paymentId,
          reason: 'self_cancel',
          upTo: amount,
          detail: `${count} ticket${count === 1 ? '' : 's'} cancelled by the holder (${terms.percent}%)`,
          now,
        });
        if (refund) refunds.push({ amount: refund.amount, phone: refund.phone });
      }
      await emitWebhook(tx, event.userId, 'ticket.cancelled', { eventId, ticketIds, reason: 'self_cancel', cancelledAt: now.toISOString() });
      return { event, voided: voided.length, refunds };
    });
  }

  return {
    /** POST /api/tickets/cancel: the caller's own tickets of one event. */
    async cancel(user: AuthUser, ticketIds: string[]) {
      const ids = [...new Set(ticketIds)];
      const owned = await ticketRecords(db).findByIds(ids);
      // Someone else's ticket is answered as missing: its existence is not the caller's business.
      if (owned.length !== ids.length || owned.some((row) => row.userId !== user.id)) throw AppError.notFound('ticket_not_found', ticketMessages.ticketNotFound);
      const eventId = owned[0]!.eventId;
      if (owned.some((row) => row.eventId !== eventId)) throw new AppError(400, 'self_cancel_one_event', selfCancelErrors.oneEvent);
      const orderIds = [...new Set(owned.flatMap((row) => (row.orderId ? [row.orderId] : [])))].sort();
      const outcome = await retryOnDeadlock(() => inTransaction(user.id, eventId, ids, orderIds, new Date()));
      deps.changes.publish('event', eventId);
      deps.changes.publish('event-tickets', eventId);
      const event = { id: outcome.event.id, title: outcome.event.title, startsAt: outcome.event.startsAt, location: outcome.event.location };
      deps.tickets.queueMail(`self-cancel confirmation for event ${eventId}`, async () => {
        const contact = await ticketRecords(db).userContact(user.id);
        return contact && buildSelfCancelMail({ to: contact.email, username: contact.username, language: contact.language, event, tickets: outcome.voided, refunds: outcome.refunds, publicUrl: deps.publicUrl });
      });
      const refunded = outcome.refunds.reduce((sum, refund) => sum + refund.amount, 0);
      const tickets = `${outcome.voided} ticket${outcome.voided === 1 ? '' : 's'}`;
      return {
        msg: refunded > 0 ? `${tickets} cancelled. ${formatShillings(refunded)} is on its way back to your M-Pesa.` : `${tickets} cancelled.`,
        cancelled: outcome.voided,
        refundAmount: refunded,
      };
    },
  };
}

export type SelfCancelService = ReturnType<typeof createSelfCancel>;
