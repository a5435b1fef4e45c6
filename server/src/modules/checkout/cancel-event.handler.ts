import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import { hasStarted } from '../../lib/event-clock.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { retryOnDeadlock } from '../../lib/db-errors.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent, findEvent, markEventCancelled } from '../events/index.js';
import { createPaymentsRepository } from './payments.repository.js';
import { eventSeats, ticketRecords, type TicketsService } from '../tickets/index.js';
import { buildCancellationMail } from './cancellation-mail.js';
import { createRefundLedger } from './refunds.service.js';
import { emitWebhook } from '../webhooks/index.js';

export const cancellationMessages = {
  notFound: 'Event not found.',
  notOwner: 'Only the organiser of this event or an administrator can cancel it.',
  alreadyCancelled: 'This event is already cancelled.',
  started: 'This event has already started, so its organiser can no longer cancel it. If it did not take place, ask an administrator to cancel it.',
} as const;

export interface EventCancellationDeps {
  db: Database;
  /** Its mail queue sends the holders' notices (the tickets face's ticketRecords voids the tickets). */
  tickets: TicketsService;
  changes: ChangeFeed;
  publicUrl: string;
}

/**
 * Cancelling an event (docs/decisions/refunds.md): in one transaction, under the event row lock that
 * every seat hold, free registration and late settlement takes, the event becomes `cancelled` with its
 * reason and time, every ticket is voided, every successful payment gets a refund of what is left of it
 * (its paid order becomes refund_due) and pending orders release their seats. Then every holder is told.
 */
export function createEventCancellation(deps: EventCancellationDeps) {
  const { db } = deps;

  function inTransaction(eventId: string, reason: string, now: Date) {
    return db.transaction(async (tx) => {
      const orders = createPaymentsRepository(tx);
      const tickets = ticketRecords(tx);
      // Lock order: payments, orders, then the event, as settlement takes them, so a settlement in
      // flight finishes first (its tickets are then voided and refunded here) instead of deadlocking.
      await orders.lockForEvent(eventId);
      if (!(await eventSeats(tx).lockEvent(eventId))) throw AppError.notFound('event_not_found', cancellationMessages.notFound);
      const event = await markEventCancelled(tx, eventId, reason, now);
      if (!event) throw AppError.conflict('event_already_cancelled', cancellationMessages.alreadyCancelled);
      const released = await orders.cancelPendingOrders(eventId, now);
      const voided = await tickets.voidForEvent(eventId, 'event_cancelled', now);
      // Every paid order at once, in a few statements: one query per order made a large event's
      // cancellation hold the event lock for seconds (8 s for 810 orders in bench/refunds.mjs).
      const paid = await orders.successfulPaymentsForEvent(eventId);
      const refunds = await createRefundLedger(tx).refundWhatIsLeft(
        paid.map((row) => row.paymentId),
        'event_cancelled',
        `event cancelled: ${reason}`,
        now,
      );
      await orders.setOrdersStatus(
        paid.filter((row) => row.orderStatus === 'paid').map((row) => row.orderId),
        'refund_due',
        ['paid'],
      );
      await emitWebhook(tx, event.userId, 'ticket.cancelled', { eventId, ticketIds: voided.map((ticket) => ticket.id), reason: 'event_cancelled', cancelledAt: now.toISOString() });
      return { event, released: released.length, voided, refunds: refunds.map(({ userId, amount, phone }) => ({ userId, amount, phone })) };
    });
  }

  /** One notice per holder: their void tickets and what comes back to them. */
  function notifyHolders(outcome: Awaited<ReturnType<typeof inTransaction>>, reason: string) {
    const holders = new Map<string, { tickets: number; refunds: Array<{ amount: number; phone: string }> }>();
    const holder = (userId: string) => holders.get(userId) ?? holders.set(userId, { tickets: 0, refunds: [] }).get(userId)!;
    for (const ticket of outcome.voided) holder(ticket.userId).tickets += 1;
    // An event's refunds are of its orders' payments, so each has its buyer.
    for (const refund of outcome.refunds) holder(refund.userId!).refunds.push(refund);
    const event = { id: outcome.event.id, title: outcome.event.title, startsAt: outcome.event.startsAt, location: outcome.event.location };
    for (const [userId, held] of holders) {
      deps.tickets.queueMail(`cancellation notice for event ${event.id}`, async () => {
        const contact = await ticketRecords(db).userContact(userId);
        return contact && buildCancellationMail({ to: contact.email, username: contact.username, language: contact.language, event, reason, ...held, publicUrl: deps.publicUrl });
      });
    }
    return holders.size;
  }

  return {
    /** POST /api/events/:id/cancel (and DELETE of an event with orders): the organiser or an admin. */
    async cancel(eventId: string, user: AuthUser, reason: string) {
      const event = await findEvent(db, eventId);
      // A pending event is answered as missing to strangers, as everywhere else.
      if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', cancellationMessages.notFound);
      requireOwner(user, event.userId, { code: 'event_cancel_not_organiser', message: cancellationMessages.notOwner });
      if (event.status === 'cancelled') throw AppError.conflict('event_already_cancelled', cancellationMessages.alreadyCancelled);
      // Cancelling promises every buyer a full refund: once the event has started (it took place, or is
      // taking place) that is no longer the organiser's call. An admin still can, with the reason, for an
      // event that never happened.
      if (user.role !== 'admin' && hasStarted(event.startsAt)) throw AppError.conflict('event_cancel_started', cancellationMessages.started);
      const outcome = await retryOnDeadlock(() => inTransaction(eventId, reason, new Date()));
      deps.changes.publish('event', eventId);
      deps.changes.publish('event-tickets', eventId);
      const told = notifyHolders(outcome, reason);
      const refunded = outcome.refunds.length;
      return {
        msg: `Event cancelled. ${told} ticket holder${told === 1 ? ' is' : 's are'} being told${refunded ? `, and ${refunded} refund${refunded === 1 ? ' is' : 's are'} on the way` : ''}.`,
        cancelled: true as const,
        cancelledAt: outcome.event.cancelledAt!.toISOString(),
        ticketsVoided: outcome.voided.length,
        ordersReleased: outcome.released,
        refunds: refunded,
      };
    },
  };
}

export type EventCancellationService = ReturnType<typeof createEventCancellation>;
