import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';

/**
 * The sms module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
const SMS_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'] as const;

/**
 * The SMS outbox (docs/decisions/sms.md): one row per message to one phone, sent by whichever instance
 * claims it. `dedupe_key` makes "once" hold across instances and reruns (a reminder per ticket holder and
 * event, say): a second insert with the same key changes nothing. Africa's Talking's messageId is unique
 * and keys the delivery reports.
 */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: id().primaryKey(),
    dedupeKey: text('dedupe_key'),
    purpose: text('purpose').notNull(),
    /** The recipient as Africa's Talking takes it: +2547XXXXXXXX. */
    phone: text('phone').notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: SMS_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    providerMessageId: text('provider_message_id'),
    /** Africa's Talking's words: the send statusCode/status, then the delivery report's status and failure reason. */
    providerStatus: text('provider_status'),
    cost: text('cost'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('sms_status_valid', sql`${t.status} in ('queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed')`),
    uniqueIndex('sms_dedupe_idx').on(t.dedupeKey),
    uniqueIndex('sms_provider_message_idx').on(t.providerMessageId),
    index('sms_status_next_idx').on(t.status, t.nextAttemptAt),
    index('sms_phone_idx').on(t.phone, t.createdAt),
  ],
);

/**
 * Numbers that replied STOP to Tukio's sender ID (Africa's Talking's bulk SMS opt-out notification,
 * docs/decisions/sms.md "Consent"): no promotional SMS goes to them again; transactional ones (tickets, codes,
 * reminders of an event they bought for) still do. One row per number (`2547…`, as the outbox keeps it).
 */
export const smsOptOuts = pgTable('sms_opt_outs', {
  phone: text('phone').primaryKey(),
  /** The sender ID they opted out of, as Africa's Talking said it. */
  sender: text('sender'),
  optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull().defaultNow(),
});
