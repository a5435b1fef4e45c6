import { pgTable, text } from 'drizzle-orm/pg-core';
import { id, createdAt } from '../../db/columns.js';

/**
 * The contact module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
export const contactMessages = pgTable('contact_messages', {
  id: id().primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: createdAt(),
});
