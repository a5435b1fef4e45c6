import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { events } from '../events/events.schema.js';

/**
 * The payouts module's tables (docs/decisions/payouts.md): only its repository writes them. Money rows are
 * never deleted (triggers refuse it, foreign keys RESTRICT); a payout's money moves in the ledger
 * (`payout`, `payout_paid`, `payout_failed`), these rows say where it went and how sending it went.
 */

/** sending: an attempt is waiting to be sent or for its result; retrying: the last attempt failed, another follows; paid; failed (an administrator decides). */
export const PAYOUT_STATUSES = ['sending', 'retrying', 'paid', 'failed'] as const;
const ATTEMPT_STATUSES = ['pending', 'sent', 'paid', 'failed'] as const;

/** One payment to an organiser, covering what several of their events owed (and netting what they owe back). */
export const payouts = pgTable(
  'payouts',
  {
    id: id().primaryKey(),
    organiserId: id('organiser_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** Whole shillings sent: the sum of its ledger legs on the organiser payables. */
    amount: integer('amount').notNull(),
    /** Where it goes (@tukio/shared/internal-payouts' PayoutDestination), as the organiser's confirmed destination was when the payout was made (retries go there too). */
    destination: jsonb('destination').$type<Record<string, string>>().notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('sending'),
    /** Attempts made so far (the current one is number `attempts`). */
    attempts: integer('attempts').notNull().default(1),
    /** When a `retrying` payout's next attempt is made. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** M-Pesa's TransactionID once paid, and what it charged. */
    receipt: text('receipt'),
    charge: integer('charge'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The last failure's words, for the administrators' list. */
    failure: text('failure'),
    /**
     * Why a person must look at it: a result this server refused for good (a success for another amount, or a
     * TransactionID of another payout), which the payment service parks instead of redelivering.
     */
    attention: text('attention'),
    /** A failed payout's money is payable again once an administrator retried it (until then no new payout is made). */
    retriedAt: timestamp('retried_at', { withTimezone: true }),
    retriedBy: id('retried_by').references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('payouts_amount_positive', sql`${t.amount} > 0`),
    check('payouts_status_valid', sql`${t.status} in ('sending', 'retrying', 'paid', 'failed')`),
    // At most one payout of an organiser on its way: two job runners can never both send one.
    uniqueIndex('payouts_one_open_per_organiser_idx').on(t.organiserId).where(sql`${t.status} in ('sending', 'retrying')`),
    uniqueIndex('payouts_receipt_idx').on(t.receipt),
    index('payouts_organiser_idx').on(t.organiserId, t.createdAt),
    index('payouts_status_idx').on(t.status, t.nextAttemptAt),
  ],
);

/** One request to M-Pesa for a payout: `tukio-payout-<payoutId>-<n>` (payoutAttemptId), refused twice by Daraja. */
export const payoutAttempts = pgTable(
  'payout_attempts',
  {
    id: id().primaryKey(),
    payoutId: id('payout_id')
      .notNull()
      .references(() => payouts.id, { onDelete: 'restrict' }),
    number: integer('number').notNull(),
    originatorConversationId: text('originator_conversation_id').notNull(),
    /** pending: not sent yet (or the payment service was not reached); sent: waiting for the result. */
    status: text('status', { enum: ATTEMPT_STATUSES }).notNull().default('pending'),
    conversationId: text('conversation_id'),
    resultCode: text('result_code'),
    resultDesc: text('result_desc'),
    transactionId: text('transaction_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When its status was last asked of M-Pesa (no result came in time). */
    statusAskedAt: timestamp('status_asked_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payout_attempts_originator_idx').on(t.originatorConversationId),
    uniqueIndex('payout_attempts_payout_number_idx').on(t.payoutId, t.number),
    uniqueIndex('payout_attempts_transaction_idx').on(t.transactionId),
    index('payout_attempts_status_idx').on(t.status, t.sentAt),
  ],
);

/** An administrator's hold on an event's payouts, with the reason; released by setting `released_at` (kept as history). */
export const payoutHolds = pgTable(
  'payout_holds',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    heldBy: id('held_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: id('released_by').references(() => users.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('payout_holds_active_idx').on(t.eventId).where(sql`${t.releasedAt} is null`)],
);

/**
 * One row per organiser the payouts job has looked at: the row it locks while it decides (the claim that
 * makes a payout once across instances), and whether an administrator trusts them with early payouts.
 */
export const payoutOrganisers = pgTable('payout_organisers', {
  organiserId: id('organiser_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'restrict' }),
  earlyPayouts: boolean('early_payouts').notNull().default(false),
  earlyPayoutsSetBy: id('early_payouts_set_by').references(() => users.id, { onDelete: 'restrict' }),
  updatedAt: updatedAt(),
});
