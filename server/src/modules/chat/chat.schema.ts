import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { id, createdAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';

/**
 * The chat module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id().primaryKey(),
    senderId: id('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientId: id('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_pair_idx').on(t.senderId, t.recipientId, t.createdAt),
    index('chat_messages_unread_idx').on(t.recipientId, t.readAt),
    index('chat_messages_recipient_idx').on(t.recipientId, t.senderId, t.createdAt),
  ],
);

/** A user who blocked another in chat: the blocked one cannot message them or see them in contacts. */
export const chatBlocks = pgTable(
  'chat_blocks',
  {
    blockerId: id('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: id('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('chat_blocks_blocked_idx').on(t.blockedId)],
);
