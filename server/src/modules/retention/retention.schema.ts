import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { events } from '../events/events.schema.js';

/**
 * The retention module's table: only its repository writes it (docs/decisions/server-boundaries.md, "Tables").
 * One row per event whose personal data was erased (docs/decisions/data-rights.md, "Retention"): its primary key
 * makes "once per event" hold across instances and reruns of the daily job.
 */
export const eventShreds = pgTable('event_shreds', {
  eventId: id('event_id')
    .primaryKey()
    // A free event can still be deleted (an event with orders never is): its record goes with it.
    .references(() => events.id, { onDelete: 'cascade' }),
  shreddedAt: timestamp('shredded_at', { withTimezone: true }).notNull().defaultNow(),
  /** The administrator who erased it early; null when the daily job did, at the end of retention. */
  shreddedBy: id('shredded_by').references(() => users.id, { onDelete: 'set null' }),
  /** Why an administrator erased it early (kept for the record); null for the job. */
  reason: text('reason'),
  /** How many rows had a column erased. */
  rowsErased: integer('rows_erased').notNull().default(0),
});
