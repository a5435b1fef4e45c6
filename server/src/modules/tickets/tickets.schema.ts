import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { eventDates, events } from '../events/events.schema.js';
import { orders } from '../checkout/payments.schema.js';
import { ticketTypes } from '../ticket-types/ticket-types.schema.js';

/**
 * The tickets module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
export const tickets = pgTable(
  'tickets',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: id('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    /** Signed ticket code carried by the QR; verifiable offline with the public key. */
    code: text('code').notNull(),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    checkedInBy: id('checked_in_by'),
    /** The gate device whose scan admitted the ticket (its staff-given name, e.g. "Gate B"); see checkin_scans. */
    checkedInDevice: text('checked_in_device'),
    /**
     * A void ticket is kept (its holder still sees it, and the audit counts it) but no longer admits anyone:
     * its event was cancelled, its holder cancelled it, it was transferred (replaced by another ticket), or the payment behind it was contradicted by M-Pesa.
     * Once void it stays void with its reason (a trigger refuses changing either).
     */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason', { enum: ['event_cancelled', 'self_cancel', 'transferred', 'payment_reversed'] }),
    /** The ticket this one replaced when it was transferred to its holder (same order, new code); one replacement at most. */
    transferredFrom: id('transferred_from').references((): AnyPgColumn => tickets.id, { onDelete: 'set null' }),
    ticketTypeId: id('ticket_type_id').references(() => ticketTypes.id, { onDelete: 'no action' }),
    /** This ticket's share of its payment (whole shillings; an order's tickets add up to its amount). Null before ticket types. */
    pricePaid: integer('price_paid'),
    /** The series date this ticket admits on (docs/decisions/event-series.md); null: an event without dates, or an all-dates pass. */
    dateId: id('date_id').references(() => eventDates.id, { onDelete: 'no action' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tickets_code_idx').on(t.code),
    uniqueIndex('tickets_transferred_from_idx').on(t.transferredFrom),
    check('tickets_void_reason_valid', sql`${t.voidReason} in ('event_cancelled', 'self_cancel', 'transferred', 'payment_reversed')`),
    check('tickets_void_together', sql`(${t.voidedAt} is null) = (${t.voidReason} is null)`),
    index('tickets_event_user_idx').on(t.eventId, t.userId),
    index('tickets_user_idx').on(t.userId),
    index('tickets_type_idx').on(t.ticketTypeId),
    index('tickets_date_idx').on(t.dateId),
  ],
);

/**
 * Every door scan of a genuine ticket, from the live check-in and from gate devices syncing what they
 * scanned offline (docs/decisions/offline.md). The earliest scan (`scanned_at`, corrected for the
 * device's clock) admits the ticket and is copied to tickets.checked_in_at/_device; later ones are
 * flagged duplicates. On a series the scan names the date it admitted for, and "first" is per ticket
 * and date (an all-dates pass is admitted once on each date). A retried sync finds its row by (ticket,
 * device, the device's own time) and changes nothing.
 */
export const checkinScans = pgTable(
  'checkin_scans',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    ticketId: id('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    /** The name staff gave the device ("Gate B"); null for scans from before devices had names. */
    device: text('device'),
    /** When the scan happened on the server's clock (the device's time corrected by its measured offset). */
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    /** The scan time as the device sent it: with the device and ticket, what makes a retry recognisable. */
    deviceScannedAt: timestamp('device_scanned_at', { withTimezone: true }).notNull(),
    scannedBy: id('scanned_by'),
    /** Sent by a device syncing offline scans (false: the live check-in). */
    offline: boolean('offline').notNull().default(false),
    /** On a series (docs/decisions/event-series.md): the date the door admitted for; null on an event with one date. */
    dateId: id('date_id').references(() => eventDates.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('checkin_scans_retry_idx').on(t.ticketId, t.device, t.deviceScannedAt),
    index('checkin_scans_event_idx').on(t.eventId, t.scannedAt),
    index('checkin_scans_ticket_date_idx').on(t.ticketId, t.dateId),
  ],
);

/**
 * Admissions on a series' dates (docs/decisions/event-series.md): one row per ticket and date it admitted on, so an
 * all-dates pass is admitted once on each date and a day ticket once on its own. tickets.checked_in_at keeps the
 * first admission, as on a single-date event.
 */
export const ticketDateCheckins = pgTable(
  'ticket_date_checkins',
  {
    ticketId: id('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    dateId: id('date_id')
      .notNull()
      .references(() => eventDates.id, { onDelete: 'cascade' }),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }).notNull(),
    checkedInBy: id('checked_in_by'),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.dateId] }), index('ticket_date_checkins_date_idx').on(t.dateId)],
);
