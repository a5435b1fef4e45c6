import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent, findEvent } from '../events/index.js';
import { createDashboardRepository } from './dashboard.repository.js';

/** A year of daily sales and a week of hourly check-ins: enough for any event, and the answer stays small. */
export const MAX_SALES_DAYS = 366;
export const MAX_CHECK_IN_HOURS = 168;

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export const dashboardMessages = {
  eventNotFound: 'Event not found.',
  notOwner: 'Only the organiser of this event or an administrator can see its dashboard.',
} as const;

/**
 * The rows of `newestFirst` (keyed by a wall-clock label) on a gapless axis, oldest first: the missing
 * steps between the first and the last are zeros, so a chart's x axis is time and not "days with sales".
 * At most `max` steps, ending at the newest.
 */
function continuous<R>(newestFirst: R[], labelOf: (row: R) => string, step: number, max: number, toLabel: (ms: number) => string, zero: (label: string) => R): R[] {
  if (newestFirst.length === 0) return [];
  const byLabel = new Map(newestFirst.map((row) => [labelOf(row), row]));
  // Labels are Nairobi wall-clock times; read as UTC they step evenly (no daylight saving in Kenya).
  const asMs = (label: string) => Date.parse(label.length === 10 ? `${label}T00:00Z` : `${label}Z`);
  const last = asMs(labelOf(newestFirst[0]!));
  const first = Math.max(asMs(labelOf(newestFirst[newestFirst.length - 1]!)), last - (max - 1) * step);
  const out: R[] = [];
  for (let at = first; at <= last; at += step) {
    const label = toLabel(at);
    out.push(byLabel.get(label) ?? zero(label));
  }
  return out;
}

const dayLabel = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const hourLabel = (ms: number) => `${new Date(ms).toISOString().slice(0, 13)}:00`;

/**
 * GET /api/events/:id/dashboard: an event's sales, money and door in figures for its organiser (or an
 * admin), per ticket type and per promo code too. Five aggregate statements whatever the number of
 * tickets, read in one snapshot (the types table adds up to the totals); the answer is bounded
 * (MAX_SALES_DAYS, MAX_CHECK_IN_HOURS, at most 10 types).
 */
export function createEventDashboardService(deps: { db: Database }) {
  const { db } = deps;

  async function forEvent(eventId: string, user: AuthUser) {
    const event = await findEvent(db, eventId);
    // A pending event is answered as missing to strangers, as everywhere else.
    if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', dashboardMessages.eventNotFound);
    requireOwner(user, event.userId, { code: 'dashboard_not_organiser', message: dashboardMessages.notOwner, allowAdmin: true });

    // One snapshot for every figure: a sale, cancel or transfer committing between two statements would
    // otherwise make the types table disagree with the totals.
    const [totals, days, hours, types, promoCodes] = await db.transaction(
      (tx) => {
        const repo = createDashboardRepository(tx);
        return Promise.all([
          repo.totals(eventId),
          repo.salesByDay(eventId, MAX_SALES_DAYS),
          repo.checkInsByHour(eventId, MAX_CHECK_IN_HOURS),
          repo.typeFigures(eventId),
          repo.promoCodeFigures(eventId),
        ]);
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    // What the organiser keeps so far: money received less money already returned (refunds still on their way are shown apart).
    const revenue = totals.payments.amount - totals.refunded.amount;
    return {
      eventId,
      event: { title: event.title, date: event.startsAt.toISOString(), status: event.status, isPaid: event.isPaid, ticketPrice: event.ticketPrice },
      currency: 'KES' as const,
      totals: {
        ticketsSold: totals.validTickets,
        capacity: event.capacity,
        checkedIn: totals.checkedIn,
        grossRevenue: totals.payments.amount,
        refunded: totals.refunded,
        refundsPending: totals.refundsPending,
        revenue,
      },
      salesByDay: continuous(days, (row) => row.day, DAY_MS, MAX_SALES_DAYS, dayLabel, (day) => ({ day, tickets: 0, revenue: 0 })),
      checkInsByHour: continuous(hours, (row) => row.hour, HOUR_MS, MAX_CHECK_IN_HOURS, hourLabel, (hour) => ({ hour, checkedIn: 0 })),
      types,
      promoCodes,
    };
  }

  return { forEvent };
}

export type EventDashboardService = ReturnType<typeof createEventDashboardService>;
export type EventDashboard = Awaited<ReturnType<EventDashboardService['forEvent']>>;
