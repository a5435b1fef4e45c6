import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { payments } from '../checkout/payments.schema.js';
import { refunds } from '../checkout/refunds.schema.js';
import { events } from '../events/events.schema.js';
import { payouts } from '../payouts/payouts.schema.js';

/**
 * The ledger module's tables (docs/decisions/ledger.md): every movement of money as a balanced double-entry
 * transaction. Append-only: triggers refuse UPDATE and DELETE on both tables, and a deferred constraint trigger
 * refuses, at commit, a transaction whose entries do not sum to zero. Balances are sums of entries, never stored.
 */

/** What a transaction records (docs/decisions/ledger.md; the payout kinds in docs/decisions/payouts.md). */
export const LEDGER_TRANSACTION_KINDS = ['payment', 'contradiction', 'refund', 'refund_paid', 'refund_failed', 'adjustment', 'payout', 'payout_paid', 'payout_failed', 'unmatched_payment', 'unmatched_placed'] as const;

/**
 * The accounts. `mpesa_clearing` is the shortcode's money; `organiser_payable` is what an event's organiser is
 * owed (one sub-account per event); `refunds_payable` what buyers are owed back; `payouts_in_flight` what is owed
 * to organisers and on its way to them (a payout made and not yet paid); `platform_fees` Tukio's fees and
 * `mpesa_charges` what M-Pesa charged Tukio (a payout's charge); `unmatched_receipts` Paybill payments no order
 * claims yet (docs/decisions/paybill.md), until an administrator places them.
 */
export const LEDGER_ACCOUNTS = ['mpesa_clearing', 'organiser_payable', 'platform_fees', 'mpesa_charges', 'refunds_payable', 'payouts_in_flight', 'unmatched_receipts'] as const;

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: id().primaryKey(),
    kind: text('kind', { enum: LEDGER_TRANSACTION_KINDS }).notNull(),
    /** The payment a `payment` or `contradiction` transaction records. */
    paymentId: id('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    /** The refund a `refund`, `refund_paid` or `refund_failed` transaction records. */
    refundId: id('refund_id').references(() => refunds.id, { onDelete: 'restrict' }),
    /** The payout a `payout`, `payout_paid` or `payout_failed` transaction records. */
    payoutId: id('payout_id').references(() => payouts.id, { onDelete: 'restrict' }),
    /** Why: an adjustment's reason (required), or a note from the code that posted it. */
    memo: text('memo'),
    /** The administrator who made an adjustment. */
    createdBy: id('created_by').references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    // One transaction of a kind per payment or refund: a retried post finds it and adds nothing.
    // (NULLs are distinct, so the other kinds' empty reference never collides.)
    uniqueIndex('ledger_transactions_kind_payment_idx').on(t.kind, t.paymentId),
    uniqueIndex('ledger_transactions_kind_refund_idx').on(t.kind, t.refundId),
    uniqueIndex('ledger_transactions_kind_payout_idx').on(t.kind, t.payoutId),
    index('ledger_transactions_created_idx').on(t.createdAt),
    check('ledger_transactions_kind_valid', sql`${t.kind} in ('payment', 'contradiction', 'refund', 'refund_paid', 'refund_failed', 'adjustment', 'payout', 'payout_paid', 'payout_failed', 'unmatched_payment', 'unmatched_placed')`),
    check('ledger_transactions_payment_reference', sql`(${t.kind} in ('payment', 'contradiction')) = (${t.paymentId} is not null)`),
    check('ledger_transactions_refund_reference', sql`(${t.kind} in ('refund', 'refund_paid', 'refund_failed')) = (${t.refundId} is not null)`),
    check('ledger_transactions_payout_reference', sql`(${t.kind} in ('payout', 'payout_paid', 'payout_failed')) = (${t.payoutId} is not null)`),
    check('ledger_transactions_adjustment_reason', sql`${t.kind} <> 'adjustment' or (${t.createdBy} is not null and length(${t.memo}) > 0)`),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id().primaryKey(),
    transactionId: id('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id, { onDelete: 'restrict' }),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    /**
     * The event: the organiser payable's sub-account (required there), and on the other accounts the event the
     * money came with, so an event's statement reads its entries alone.
     */
    eventId: id('event_id').references(() => events.id, { onDelete: 'restrict' }),
    /** The event's organiser when it was posted (organiser payable only), for an organiser's totals across events. */
    organiserId: id('organiser_id').references(() => users.id, { onDelete: 'restrict' }),
    /** Whole shillings, signed: a debit is positive, a credit negative; a transaction's entries sum to zero. */
    amount: integer('amount').notNull(),
  },
  (t) => [
    index('ledger_entries_transaction_idx').on(t.transactionId),
    index('ledger_entries_account_event_idx').on(t.account, t.eventId),
    index('ledger_entries_event_idx').on(t.eventId),
    check('ledger_entries_account_valid', sql`${t.account} in ('mpesa_clearing', 'organiser_payable', 'platform_fees', 'mpesa_charges', 'refunds_payable', 'payouts_in_flight', 'unmatched_receipts')`),
    check('ledger_entries_amount_nonzero', sql`${t.amount} <> 0`),
    check('ledger_entries_payable_has_event', sql`${t.account} <> 'organiser_payable' or ${t.eventId} is not null`),
  ],
);
