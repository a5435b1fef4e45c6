import { sql } from 'drizzle-orm';
import { boolean, check, customType, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';

const bytea = customType<{ data: Buffer }>({
  dataType() {
    return 'bytea';
  },
});

/**
 * The data-rights module's tables: only its repository writes them (docs/decisions/server-boundaries.md, "Tables").
 * A "Download my data" request and, once built, its ZIP: kept in the database so any instance can serve the link,
 * and removed when downloaded or 24 hours after it was made (docs/decisions/data-rights.md).
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: id().primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['requested', 'ready', 'downloaded', 'expired'] })
      .notNull()
      .default('requested'),
    /** SHA-256 of the emailed download token: a database leak does not leak working links. */
    tokenHash: text('token_hash'),
    archive: bytea('archive'),
    archiveBytes: integer('archive_bytes'),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('data_exports_token_hash_idx').on(t.tokenHash), index('data_exports_user_idx').on(t.userId, t.createdAt)],
);

/**
 * "Delete my account" (docs/decisions/data-rights.md): one row per request. `requested`: the confirmation link was
 * emailed; `scheduled`: confirmed (or an admin acted on a written request), the account is deactivated and erased
 * at `erase_at`; `cancelled`: undone in time (or the link was never followed); `erased`: done. The row stays after
 * erasure as the record that it was done (and, for an admin's deletion, who did it and why).
 */
export const accountDeletions = pgTable(
  'account_deletions',
  {
    id: id().primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['requested', 'scheduled', 'cancelled', 'erased'] })
      .notNull()
      .default('requested'),
    /** SHA-256 of the emailed confirmation token (like password-reset links: a leak does not leak working links). */
    confirmTokenHash: text('confirm_token_hash'),
    confirmExpiresAt: timestamp('confirm_expires_at', { withTimezone: true }),
    /** SHA-256 of the emailed undo token; works until `erase_at`. */
    undoTokenHash: text('undo_token_hash'),
    /** The user chose to keep tickets to future events void without refund rather than cancel them first. */
    forfeitTickets: boolean('forfeit_tickets').notNull().default(false),
    /** An admin acting on a written request (no password or email step), and the reason they logged. */
    requestedBy: id('requested_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    eraseAt: timestamp('erase_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: id('cancelled_by').references(() => users.id, { onDelete: 'set null' }),
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_deletions_confirm_token_idx').on(t.confirmTokenHash),
    uniqueIndex('account_deletions_undo_token_idx').on(t.undoTokenHash),
    // One open request per account at a time.
    uniqueIndex('account_deletions_open_idx').on(t.userId).where(sql`${t.status} in ('requested', 'scheduled')`),
    index('account_deletions_due_idx').on(t.status, t.eraseAt),
    check('account_deletions_scheduled_when', sql`${t.status} <> 'scheduled' or ${t.eraseAt} is not null`),
  ],
);
