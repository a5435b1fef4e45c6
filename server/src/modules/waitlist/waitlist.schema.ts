import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { events } from '../events/events.schema.js';

/**
 * The waitlist module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
const WAITLIST_STATUSES = ['waiting', 'offered', 'accepted', 'expired', 'left', 'closed'] as const;

/**
 * The waitlist of a sold-out event, first come first served. A freed seat is offered to the first
 * person `waiting`: the entry becomes `offered` until `offer_expires_at`, and while the offer is live its
 * seats count as taken for everyone but its holder (the hold function and the seat counts read it). The
 * offer ends `accepted` when its holder gets a ticket for the event (a trigger), `expired` when its time
 * runs out (the seats pass on), `left` when the person leaves, `closed` when the event is cancelled or over.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Seats wanted; an offer may hold fewer when fewer were freed (`offered_quantity`). */
    quantity: integer('quantity').notNull(),
    status: text('status', { enum: WAITLIST_STATUSES }).notNull().default('waiting'),
    offeredQuantity: integer('offered_quantity'),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('waitlist_status_valid', sql`${t.status} in ('waiting', 'offered', 'accepted', 'expired', 'left', 'closed')`),
    check('waitlist_quantity_valid', sql`${t.quantity} between 1 and 10`),
    check(
      'waitlist_offer_together',
      sql`(${t.status} = 'waiting' and ${t.offeredAt} is null) or (${t.status} <> 'waiting' and ${t.status} <> 'offered') or (${t.status} = 'offered' and ${t.offeredAt} is not null and ${t.offerExpiresAt} is not null and ${t.offeredQuantity} between 1 and ${t.quantity})`,
    ),
    // One open place per person and event (waiting or offered); a person may join again after leaving.
    uniqueIndex('waitlist_open_idx').on(t.eventId, t.userId).where(sql`${t.status} in ('waiting', 'offered')`),
    index('waitlist_event_status_idx').on(t.eventId, t.status, t.createdAt),
    index('waitlist_user_idx').on(t.userId),
  ],
);
