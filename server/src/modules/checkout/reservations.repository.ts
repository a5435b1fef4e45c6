import { and, asc, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { users } from '../auth/index.js';
import { events } from '../events/index.js';
import { orderItems, orders, payments } from './payments.schema.js';

/** Reservations: orders on an instalment plan whose deposit is paid (docs/decisions/instalments.md). */
export function createReservationsRepository(db: Executor) {
  const reservationColumns = {
    order: orders,
    eventTitle: events.title,
    eventStartsAt: events.startsAt,
    // Ticket types sit above checkout: their names come from their database function.
    typeName: sql<string | null>`(select tukio_ticket_type_name(i.ticket_type_id) from ${orderItems} i where i.order_id = ${orders.id} order by i.position limit 1)`,
  };

  return {
    /** A person's reservations still open and those that ended lately (paid or lapsed in the last 30 days), due soonest first. */
    async listForUser(userId: string, since: Date) {
      return db
        .select(reservationColumns)
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(
          and(
            eq(orders.userId, userId),
            sql`${orders.instalmentDeposit} is not null`,
            sql`(${orders.status} = 'reserved' or (${orders.status} in ('paid', 'lapsed') and ${orders.updatedAt} > ${since.toISOString()}))`,
          ),
        )
        .orderBy(asc(orders.instalmentDueAt), desc(orders.createdAt));
    },

    async findForUser(orderId: string, userId: string) {
      const [row] = await db
        .select(reservationColumns)
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
        .limit(1);
      return row;
    },

    /** Reservations whose due date has come: the lapse's work list, oldest due first. */
    async dueToLapse(now: Date, limit: number) {
      return db
        .select({ id: orders.id, eventId: orders.eventId })
        .from(orders)
        .where(and(eq(orders.status, 'reserved'), lte(orders.instalmentDueAt, now)))
        .orderBy(asc(orders.instalmentDueAt))
        .limit(limit);
    },

    /** Reservations due within `until` (and not yet due), with whom to remind and of what. */
    async dueBefore(now: Date, until: Date, limit: number) {
      return db
        .select({ order: orders, eventTitle: events.title, language: users.language })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .innerJoin(users, eq(users.id, orders.userId))
        .where(and(eq(orders.status, 'reserved'), gt(orders.instalmentDueAt, now), lte(orders.instalmentDueAt, until)))
        .orderBy(asc(orders.instalmentDueAt))
        .limit(limit);
    },

    /** The language a person reads their SMS in. */
    async languageOf(userId: string): Promise<'en' | 'sw'> {
      const [row] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId)).limit(1);
      return row?.language === 'sw' ? 'sw' : 'en';
    },

    /** An order's payments locked (payment → order, as settlement locks them), oldest first. */
    async lockPaymentsOf(orderId: string) {
      return db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(asc(payments.createdAt), asc(payments.id)).for('update');
    },

    /** Reserved and paid seats per ticket type of an event, and reservations' money (the organiser's dashboard). */
    async countsForEvent(eventId: string) {
      const result = await db
        .select({
          typeId: orderItems.ticketTypeId,
          status: orders.status,
          seats: sql<number>`sum(${orderItems.quantity})::int`.mapWith(Number),
          paid: sql<number>`sum(${orders.instalmentPaid})::int`.mapWith(Number),
        })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(and(eq(orders.eventId, eventId), inArray(orders.status, ['reserved', 'paid'])))
        .groupBy(orderItems.ticketTypeId, orders.status);
      return result;
    },
  };
}
