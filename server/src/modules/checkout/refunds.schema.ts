import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { events } from '../events/events.schema.js';
import { orders, payments, unmatchedPayments } from './payments.schema.js';

/**
 * The refunds module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
/** As @tukio/shared/internal-refunds says them (refunds.responses.ts checks that they agree). */
const REFUND_REASONS = ['sold_out', 'event_cancelled', 'late_payment', 'self_cancel', 'admin', 'duplicate_payment', 'overpayment', 'underpayment', 'reservation_lapsed'] as const;
const REFUND_METHODS = ['reversal', 'b2c'] as const;
const REFUND_STATUSES = ['due', 'sent', 'succeeded', 'failed'] as const;

/**
 * The refund ledger (docs/decisions/refunds.md): money going back to a payer. Append-only like the other
 * money rows: nothing deletes a refund, an attempt or a transition (foreign keys RESTRICT, and triggers
 * refuse deletes), and a refund never takes more than what is left of its payment.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: id().primaryKey(),
    orderId: id('order_id')
      .references(() => orders.id, { onDelete: 'restrict' }),
    paymentId: id('payment_id')
      .references(() => payments.id, { onDelete: 'restrict' }),
    userId: id('user_id')
      .references(() => users.id, { onDelete: 'restrict' }),
    eventId: id('event_id')
      .references(() => events.id, { onDelete: 'restrict' }),
    /**
     * Instead of an order's payment: a Paybill payment no order claims, refunded by an administrator
     * (docs/decisions/paybill.md). Its source is then that alone: order, payment, payer and event stay null.
     */
    unmatchedPaymentId: id('unmatched_payment_id').references(() => unmatchedPayments.id, { onDelete: 'restrict' }),
    /** Whole shillings. */
    amount: integer('amount').notNull(),
    /** The platform fee's share of `amount` (docs/decisions/fees.md): given back out of the fee account, the rest charged to the organiser. */
    feeAmount: integer('fee_amount').notNull().default(0),
    /** The payer's MSISDN (2547XXXXXXXX), copied from the payment. */
    phone: text('phone').notNull(),
    reason: text('reason', { enum: REFUND_REASONS }).notNull(),
    method: text('method', { enum: REFUND_METHODS }).notNull(),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('due'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** The M-Pesa TransactionID of the refund once it succeeded. */
    receipt: text('receipt'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('refunds_amount_positive', sql`${t.amount} > 0`),
    check(
      'refunds_one_source',
      sql`(${t.unmatchedPaymentId} is null and ${t.orderId} is not null and ${t.paymentId} is not null and ${t.userId} is not null and ${t.eventId} is not null) or (${t.unmatchedPaymentId} is not null and ${t.orderId} is null and ${t.paymentId} is null and ${t.userId} is null and ${t.eventId} is null)`,
    ),
    /** An unmatched payment is refunded once, whole (a failed refund is retried, never made again). */
    uniqueIndex('refunds_unmatched_idx').on(t.unmatchedPaymentId),
    check('refunds_fee_within_amount', sql`${t.feeAmount} >= 0 and ${t.feeAmount} <= ${t.amount}`),
    uniqueIndex('refunds_receipt_idx').on(t.receipt),
    index('refunds_status_next_idx').on(t.status, t.nextAttemptAt),
    index('refunds_payment_idx').on(t.paymentId),
    index('refunds_order_idx').on(t.orderId),
    index('refunds_event_idx').on(t.eventId),
    /** The admin refunds list, a page at a time, newest first, all or one status (0017). */
    index('refunds_created_idx').on(t.createdAt, t.id),
    index('refunds_status_created_idx').on(t.status, t.createdAt, t.id),
  ],
);

/** One row per request sent to M-Pesa for a refund; Daraja's answers are keyed by its unique ids. */
export const refundAttempts = pgTable(
  'refund_attempts',
  {
    id: id().primaryKey(),
    refundId: id('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'restrict' }),
    /** Ours: `tukio-<refundId>-<n>`; Daraja refuses a repeated one, so a request is never paid twice. */
    originatorConversationId: text('originator_conversation_id').notNull(),
    /** Daraja's, once it accepted the request. */
    conversationId: text('conversation_id'),
    method: text('method', { enum: REFUND_METHODS }).notNull(),
    status: text('status', { enum: ['sent', 'succeeded', 'failed'] }).notNull().default('sent'),
    resultCode: text('result_code'),
    resultDesc: text('result_desc'),
    transactionId: text('transaction_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When the refunds job last asked what became of it (sent again, or a Transaction Status query), still without a result. */
    statusAskedAt: timestamp('status_asked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refund_attempts_originator_idx').on(t.originatorConversationId),
    uniqueIndex('refund_attempts_conversation_idx').on(t.conversationId),
    uniqueIndex('refund_attempts_transaction_idx').on(t.transactionId),
    index('refund_attempts_refund_idx').on(t.refundId),
    index('refund_attempts_status_sent_idx').on(t.status, t.sentAt),
  ],
);

/** A refund's history: one row per change of its status (from null at creation). */
export const refundTransitions = pgTable(
  'refund_transitions',
  {
    id: id().primaryKey(),
    refundId: id('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'restrict' }),
    fromStatus: text('from_status', { enum: REFUND_STATUSES }),
    toStatus: text('to_status', { enum: REFUND_STATUSES }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    detail: text('detail'),
  },
  (t) => [index('refund_transitions_refund_idx').on(t.refundId, t.at)],
);
