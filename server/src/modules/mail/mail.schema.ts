import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';

/**
 * The mail module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;

/**
 * The mail outbox (docs/decisions/scale-out.md, "Mail"): ticket and account emails written with the action
 * that causes them and sent by a job on whichever instance claims them. `kind` names how `body` becomes a
 * message at send time ('mail': it already is one; 'tickets': the ticket mail, whose QR images are drawn
 * then). The body, which may hold a one-time link, is dropped once the mail is sent; the row is pruned later.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id().primaryKey(),
    purpose: text('purpose').notNull(),
    recipient: text('recipient').notNull(),
    kind: text('kind').notNull().default('mail'),
    /**
     * A mail that must go once however often its cause is handled (a notice per holder of a cancelled or
     * moved series date): a second row with the same key is not written. Null for most mail.
     */
    dedupeKey: text('dedupe_key'),
    body: jsonb('body'),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('mail_status_valid', sql`${t.status} in ('queued', 'sending', 'sent', 'failed')`),
    index('mail_outbox_status_next_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_updated_idx').on(t.updatedAt),
    uniqueIndex('mail_outbox_dedupe_key_idx').on(t.dedupeKey),
  ],
);
