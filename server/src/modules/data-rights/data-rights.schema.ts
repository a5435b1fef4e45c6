import { customType, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
