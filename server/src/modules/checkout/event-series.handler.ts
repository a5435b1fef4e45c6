import { createHash } from 'node:crypto';
import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { nowAsWallClock } from '../../lib/event-clock.js';
import { retryOnDeadlock } from '../../lib/db-errors.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent, eventSeries, findEvent, toEventDateDto, type EventDateRow } from '../events/index.js';
import type { MailOutbox } from '../mail/index.js';
import { dateHolders, eventSeats, ticketRecords } from '../tickets/index.js';
import { emitWebhook } from '../webhooks/index.js';
import { createPaymentsRepository } from './payments.repository.js';
import { createRefundLedger } from './refunds.service.js';
import { buildDateCancelledMail, buildDateMovedMail } from './series-date-mail.js';

export const seriesMessages = {
  notFound: 'Event not found.',
  dateNotFound: 'No such date for this event.',
  notOwner: 'Only the organiser of this event or an administrator can change its dates.',
  cancelled: 'This event was cancelled: its dates can no longer change.',
  inPast: 'A date must be in the future.',
  dateCancelled: 'This date was cancelled.',
  last: 'A series keeps at least one date: cancel the event instead.',
  hasTypes: 'Ticket types are sold for this date only: change or remove them first.',
} as const;

export interface DateInput {
  startsAt: Date;
  endsAt?: Date | null | undefined;
  capacity?: number | null | undefined;
}

/**
 * The dates of an event series (docs/decisions/event-series.md). Every change takes the event row lock the hold
 * takes, so a date's capacity, its cancellation and the seats bought on it never cross. The first date added to a
 * single-date event makes it a series: its own date becomes the first row (with its capacity), and its tickets and
 * orders so far are for that date. Cancelling a date refunds only the orders for it, through the refunds ledger
 * the event cancellation uses; all-dates passes stay valid for the other dates.
 */
export function createEventSeries(deps: { db: Database; changes: ChangeFeed; mail: Pick<MailOutbox, 'send' | 'soon'>; publicUrl: string }) {
  const { db } = deps;

  /**
   * Tells the holders of a date what happened to it, in the transaction that did it: one mail per address, each
   * with a key naming the change and the address, so handling the same change again never mails twice.
   */
  async function tellHolders(tx: Executor, change: { key: string; purpose: string }, eventId: string, dateId: string, scope: { ticketIds?: string[] }, build: (holder: Awaited<ReturnType<typeof dateHolders>>[number]) => ReturnType<typeof buildDateMovedMail>) {
    const holders = await dateHolders(tx, { eventId, dateId, passes: true, ...scope });
    for (const holder of holders) {
      // The address as a digest: the key stays unique per person without holding their email twice.
      await deps.mail.send(build(holder), change.purpose, tx, `${change.key}:${createHash('sha256').update(holder.email.toLowerCase()).digest('hex').slice(0, 24)}`);
    }
    return holders.length;
  }

  async function ownEvent(eventId: string, user: AuthUser) {
    const event = await findEvent(db, eventId);
    if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', seriesMessages.notFound);
    requireOwner(user, event.userId, { code: 'event_not_organiser', message: seriesMessages.notOwner });
    if (event.status === 'cancelled') throw AppError.conflict('event_cancelled', seriesMessages.cancelled);
    return event;
  }

  function refusePast(startsAt: Date) {
    if (startsAt.getTime() <= nowAsWallClock().getTime()) throw AppError.badRequest('event_date_in_past', seriesMessages.inPast, 'startsAt');
  }

  async function dateView(executor: Executor, row: EventDateRow, now: Date) {
    const taken = await createPaymentsRepository(executor).dateSeatsTaken(row.id, now);
    const sold = await ticketRecords(executor).countForDate(row.id);
    return { ...toEventDateDto(row), sold, seatsLeft: row.capacity === null || row.status === 'cancelled' ? null : Math.max(0, row.capacity - taken) };
  }

  async function locked<T>(eventId: string, work: (tx: Executor) => Promise<T>): Promise<T> {
    const outcome = await retryOnDeadlock(() =>
      db.transaction(async (tx) => {
        if (!(await eventSeats(tx).lockEvent(eventId))) throw AppError.notFound('event_not_found', seriesMessages.notFound);
        const result = await work(tx);
        await eventSeries(tx).followEarliestDate(eventId);
        return result;
      }),
    );
    deps.changes.publish('event', eventId);
    deps.changes.publish('event-tickets', eventId);
    return outcome;
  }

  const service = {
    /** GET /api/events/:id/dates: every date with what is sold and left (empty for an event with one date). */
    async list(eventId: string, user: AuthUser | undefined) {
      const event = await findEvent(db, eventId);
      if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', seriesMessages.notFound);
      const now = new Date();
      const rows = await eventSeries(db).listDates(eventId);
      return { eventId, dates: await Promise.all(rows.map((row) => dateView(db, row, now))) };
    },

    /** POST /api/events/:id/dates: a new date; the first one turns the event into a series. */
    async add(eventId: string, user: AuthUser, input: DateInput) {
      const event = await ownEvent(eventId, user);
      refusePast(input.startsAt);
      const created = await locked(eventId, async (tx) => {
        const series = eventSeries(tx);
        const existing = await series.listDates(eventId);
        if (existing.length === 0) {
          // The event's own date becomes the series' first, keeping what was sold for it.
          const first = await series.insertDate(eventId, { startsAt: event.startsAt, endsAt: null, capacity: event.capacity });
          await ticketRecords(tx).assignDate(eventId, first.id);
          await createPaymentsRepository(tx).assignDate(eventId, first.id);
        }
        return series.insertDate(eventId, { startsAt: input.startsAt, endsAt: input.endsAt ?? null, capacity: input.capacity ?? null });
      });
      return dateView(db, created, new Date());
    },

    /** PATCH /api/events/:id/dates/:dateId: moves a date or changes its seats (never below what is sold and held). */
    async update(eventId: string, dateId: string, user: AuthUser, input: Partial<DateInput>) {
      await ownEvent(eventId, user);
      if (input.startsAt) refusePast(input.startsAt);
      const updated = await locked(eventId, async (tx) => {
        const date = await eventSeries(tx).findDate(eventId, dateId);
        if (!date) throw AppError.notFound('event_date_not_found', seriesMessages.dateNotFound);
        if (date.status === 'cancelled') throw AppError.conflict('event_date_cancelled', seriesMessages.dateCancelled);
        const endsAt = input.endsAt === undefined ? date.endsAt : input.endsAt;
        if (endsAt && endsAt <= (input.startsAt ?? date.startsAt)) throw AppError.badRequest('validation_failed', 'The end must be after the start.', 'endsAt');
        if (input.capacity !== undefined && input.capacity !== null) {
          const taken = await createPaymentsRepository(tx).dateSeatsTaken(dateId, new Date());
          if (input.capacity < taken) {
            throw AppError.conflict('event_date_capacity_below_sold', `This date already has ${taken} seats sold or held: its capacity cannot be below ${taken}.`, { field: 'capacity', params: { taken } });
          }
        }
        const changed = (await eventSeries(tx).updateDate(dateId, {
          ...(input.startsAt ? { startsAt: input.startsAt } : {}),
          ...(input.endsAt !== undefined ? { endsAt: input.endsAt } : {}),
          ...(input.capacity !== undefined ? { capacity: input.capacity } : {}),
        }))!;
        if (changed.startsAt.getTime() !== date.startsAt.getTime()) {
          // A moved date: its holders and the series' all-dates pass holders hear the old and the new time. The key
          // names the version of the date that was moved, so the same move handled twice mails once.
          const event = (await findEvent(tx, eventId))!;
          const key = `series-date-moved:${dateId}:${date.updatedAt.getTime()}:${changed.startsAt.toISOString()}`;
          await tellHolders(tx, { key, purpose: `series date ${dateId} moved` }, eventId, dateId, {}, (holder) =>
            buildDateMovedMail({
              to: holder.email,
              username: holder.username,
              language: holder.language,
              event: { id: eventId, title: event.title, location: event.location },
              dated: holder.dated,
              passes: holder.passes,
              before: { startsAt: date.startsAt },
              after: { startsAt: changed.startsAt },
              publicUrl: deps.publicUrl,
            }),
          );
        }
        return changed;
      });
      deps.mail.soon();
      return dateView(db, updated, new Date());
    },

    /**
     * DELETE /api/events/:id/dates/:dateId: a date nobody bought is removed. One with orders is cancelled instead,
     * only with `confirm` (the editor asks first): its tickets void, its paid orders refunded, its holds released.
     */
    async remove(eventId: string, dateId: string, user: AuthUser, options: { confirm: boolean; reason: string }) {
      await ownEvent(eventId, user);
      const now = new Date();
      const outcome = await locked(eventId, async (tx) => {
        const series = eventSeries(tx);
        const dates = await series.listDates(eventId);
        const date = dates.find((candidate) => candidate.id === dateId);
        if (!date) throw AppError.notFound('event_date_not_found', seriesMessages.dateNotFound);
        if (date.status === 'cancelled') throw AppError.conflict('event_date_cancelled', seriesMessages.dateCancelled);
        if (dates.filter((candidate) => candidate.status === 'active').length <= 1) throw AppError.conflict('event_date_last', seriesMessages.last);
        const orders = createPaymentsRepository(tx);
        if (!(await orders.dateHasOrders(dateId))) {
          // Nothing was bought for it: the date simply goes (a type tied to it keeps it, as a bought one would).
          try {
            await tx.transaction(async (inner) => eventSeries(inner).deleteDate(dateId));
          } catch {
            throw AppError.conflict('event_date_has_types', seriesMessages.hasTypes);
          }
          return { removed: true as const, cancelled: false, ticketsVoided: 0, ordersReleased: 0, refunds: 0, userId: null };
        }
        const sold = await ticketRecords(tx).countForDate(dateId);
        if (!options.confirm) {
          throw AppError.conflict('event_date_confirm_cancel', `This date has ${sold} tickets sold: confirm to cancel it and refund its buyers.`, { params: { sold } });
        }
        // Lock order as the event cancellation: payments and orders were locked by the hold's event lock holders too.
        await series.cancelDate(dateId, now);
        const released = await orders.cancelPendingOrdersForDate(dateId, now);
        const voided = await ticketRecords(tx).voidForDate(dateId, 'event_cancelled', now);
        const paid = await orders.successfulPaymentsForDate(dateId);
        const refunds = await createRefundLedger(tx).refundWhatIsLeft(
          paid.map((row) => row.paymentId),
          'event_cancelled',
          `date ${date.startsAt.toISOString().slice(0, 16)} cancelled: ${options.reason}`,
          now,
        );
        await orders.setOrdersStatus(
          paid.filter((row) => row.orderStatus === 'paid').map((row) => row.orderId),
          'refund_due',
          ['paid'],
        );
        const event = await findEvent(tx, eventId);
        await emitWebhook(tx, event!.userId, 'ticket.cancelled', { eventId, ticketIds: voided.map((ticket) => ticket.id), reason: 'event_cancelled', cancelledAt: now.toISOString() });
        // Each holder of the date (a guest at the email given at checkout) hears it once, with what comes back to them;
        // all-dates pass holders hear that their pass stays valid.
        const refundsOf = (userIds: string[]) => refunds.filter((refund) => refund.userId !== null && userIds.includes(refund.userId)).map(({ amount, phone }) => ({ amount, phone }));
        await tellHolders(tx, { key: `series-date-cancelled:${dateId}`, purpose: `series date ${dateId} cancelled` }, eventId, dateId, { ticketIds: voided.map((ticket) => ticket.id) }, (holder) =>
          buildDateCancelledMail({
            to: holder.email,
            username: holder.username,
            language: holder.language,
            event: { id: eventId, title: event!.title, location: event!.location },
            dated: holder.dated,
            passes: holder.passes,
            startsAt: date.startsAt,
            reason: options.reason,
            refunds: refundsOf(holder.userIds),
            publicUrl: deps.publicUrl,
          }),
        );
        return { removed: false as const, cancelled: true, ticketsVoided: voided.length, ordersReleased: released.length, refunds: refunds.length, userId: event!.userId };
      });
      deps.mail.soon();
      const { userId: _userId, ...answer } = outcome;
      return {
        ...answer,
        msg: answer.cancelled ? `Date cancelled. ${answer.ticketsVoided} tickets void and ${answer.refunds} refunds on the way.` : 'Date removed.',
      };
    },
  };
  return service;
}

export type EventSeriesService = ReturnType<typeof createEventSeries>;
