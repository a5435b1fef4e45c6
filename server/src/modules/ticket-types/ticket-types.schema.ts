import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';
import { eventDates, events } from '../events/events.schema.js';

/**
 * The ticket-types module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
/** An organiser's instalment plan for a ticket type: deposit percent (10-90), due date (wall clock, ISO), cancellation fee (shillings per order). */
export interface InstalmentPlan {
  depositPercent: number;
  dueDate: string;
  cancellationFee: number;
}

/**
 * The kinds of ticket an event sells (Early Bird, Regular, VIP): every event has at least one, the first
 * made for it by a trigger from its ticket_price. Sale times are wall-clock times like events.starts_at.
 */
export const ticketTypes = pgTable(
  'ticket_types',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Whole shillings; 0 only on a free event. */
    price: integer('price').notNull(),
    /** Null: limited only by the event's own capacity. */
    capacity: integer('capacity'),
    salesStart: timestamp('sales_start', { withTimezone: true }),
    salesEnd: timestamp('sales_end', { withTimezone: true }),
    maxPerOrder: integer('max_per_order').notNull().default(10),
    position: integer('position').notNull().default(0),
    /** Paying in parts ("Lipa pole pole", docs/decisions/instalments.md); null: paid in one go. The due date is a wall-clock time like sales_end. */
    instalments: jsonb('instalments').$type<InstalmentPlan | null>(),
    /**
     * A series' date this type is sold for only (a "Saturday day pass"); null: not tied to one date. On a series
     * a type tied to no date is sold for the date the buyer picks, unless `all_dates` (a festival pass: one ticket
     * valid on every date, taking a seat on each). Meaningless on an event without dates.
     */
    dateId: id('date_id').references(() => eventDates.id, { onDelete: 'no action' }),
    allDates: boolean('all_dates').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('ticket_types_date_or_all', sql`not (${t.allDates} and ${t.dateId} is not null)`),
    index('ticket_types_event_idx').on(t.eventId, t.position),
    check('ticket_types_price_valid', sql`${t.price} >= 0`),
    check('ticket_types_capacity_valid', sql`${t.capacity} is null or ${t.capacity} >= 1`),
    check('ticket_types_max_valid', sql`${t.maxPerOrder} between 1 and 10`),
    check('ticket_types_window_valid', sql`${t.salesStart} is null or ${t.salesEnd} is null or ${t.salesStart} < ${t.salesEnd}`),
  ],
);

/**
 * Discount codes of an event, applied on the server when seats are held. A use is an order holding or
 * having paid with the code; the hold function counts them under the event's row lock, so `max_uses`
 * holds under any concurrency.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** Stored upper-case; buyers may type it in any case. */
    code: text('code').notNull(),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    /** Percent off (1-100), or whole shillings off each ticket it applies to. */
    value: integer('value').notNull(),
    maxUses: integer('max_uses'),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    /** The ticket types it applies to; null for all of them. */
    ticketTypeIds: varchar('ticket_type_ids', { length: 24 }).array(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('promo_codes_event_code_idx').on(t.eventId, t.code),
    check('promo_codes_kind_valid', sql`${t.kind} in ('percent', 'fixed')`),
    check('promo_codes_value_valid', sql`${t.value} >= 1 and (${t.kind} <> 'percent' or ${t.value} <= 100)`),
    check('promo_codes_max_uses_valid', sql`${t.maxUses} is null or ${t.maxUses} >= 1`),
    check('promo_codes_code_upper', sql`${t.code} = upper(${t.code})`),
  ],
);
