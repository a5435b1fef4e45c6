import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { events } from '../events/events.schema.js';

/**
 * The fees module's tables (docs/decisions/fees.md). Append-only: a new setting is a new row and the newest row
 * is in force, so the history of every fee ever set stays (each order also snapshots the fee it was charged).
 */

/**
 * The platform fee per paid ticket: `percent_bp` hundredths of a percent of its price (500 = 5 %), plus `fixed`
 * shillings, at least `minimum` shillings. `created_by` is null for the row the server writes from its
 * configuration on a fresh install.
 */
export const platformFeeSettings = pgTable(
  'platform_fee_settings',
  {
    id: id().primaryKey(),
    percentBp: integer('percent_bp').notNull(),
    fixed: integer('fixed').notNull(),
    minimum: integer('minimum').notNull(),
    createdBy: id('created_by').references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('platform_fee_settings_created_idx').on(t.createdAt, t.id),
    check('platform_fee_settings_valid', sql`${t.percentBp} between 0 and 10000 and ${t.fixed} >= 0 and ${t.minimum} >= 0`),
  ],
);

/** An administrator's fee for one event instead of the platform's; a row with no fee (all three null) clears it. */
export const eventFeeOverrides = pgTable(
  'event_fee_overrides',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    percentBp: integer('percent_bp'),
    fixed: integer('fixed'),
    minimum: integer('minimum'),
    createdBy: id('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('event_fee_overrides_event_idx').on(t.eventId, t.createdAt, t.id),
    check(
      'event_fee_overrides_valid',
      sql`(${t.percentBp} is null and ${t.fixed} is null and ${t.minimum} is null) or (${t.percentBp} between 0 and 10000 and ${t.fixed} >= 0 and ${t.minimum} >= 0)`,
    ),
  ],
);
