import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';

/** The api-keys module's table: only its repository writes it (docs/decisions/webhooks.md, "API keys"). */
export const API_KEY_SCOPES = ['events:read', 'orders:read', 'attendees:read', 'checkins:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** An organiser's key: only its SHA-256 is kept (the key itself is shown once); revoked keys stay as history. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id().primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters (`tk_live_ab12`), to tell keys apart in the list. */
    prefix: text('prefix').notNull(),
    /** Hex SHA-256 of the whole key: the key has 256 random bits, so a fast hash is enough. */
    keyHash: text('key_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('api_keys_hash_idx').on(table.keyHash), index('api_keys_user_idx').on(table.userId)],
);
