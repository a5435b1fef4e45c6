import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';

/**
 * One reconciliation (docs/decisions/reconciliation.md): M-Pesa's list of the paybill shortcode's payments in a
 * window (Pull Transactions) compared with Tukio's. Kept as the record of what was checked and when.
 */
export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: id().primaryKey(),
    windowFrom: timestamp('window_from', { withTimezone: true }).notNull(),
    windowTo: timestamp('window_to', { withTimezone: true }).notNull(),
    /** running, done, or failed (M-Pesa could not be asked: `error` says why). */
    status: text('status', { enum: ['running', 'done', 'failed'] }).notNull().default('running'),
    pulled: integer('pulled').notNull().default(0),
    error: text('error'),
    /** The administrator who pressed "Reconcile now"; null for the daily job. */
    requestedBy: id('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('reconciliation_runs_created_idx').on(t.createdAt)],
);

/**
 * What a run found: `recovered` (a payment M-Pesa completed that Tukio never heard of, delivered now through the
 * confirmation path and settled), `unmatched` (the same, but its account number is no order's: in
 * unmatched_payments), `amount_differs` (M-Pesa's amount is not ours), `missing_at_mpesa` (a Paybill receipt Tukio
 * has that M-Pesa does not list).
 */
export const reconciliationFindings = pgTable(
  'reconciliation_findings',
  {
    id: id().primaryKey(),
    runId: id('run_id')
      .notNull()
      .references(() => reconciliationRuns.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['recovered', 'unmatched', 'amount_differs', 'missing_at_mpesa'] }).notNull(),
    transId: text('trans_id').notNull(),
    /** M-Pesa's amount (null when M-Pesa does not list it). */
    mpesaAmount: integer('mpesa_amount'),
    /** Tukio's amount (null when Tukio had no record). */
    tukioAmount: integer('tukio_amount'),
    /**
     * An administrator looked into it ("Mark reviewed"): when, who, and what they found. Set once and kept (a finding
     * is the record of what M-Pesa and Tukio disagreed about; the note is how it was settled).
     */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: id('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewNote: text('review_note'),
    createdAt: createdAt(),
  },
  (t) => [index('reconciliation_findings_run_idx').on(t.runId)],
);

export type ReconciliationFindingKind = (typeof reconciliationFindings.kind.enumValues)[number];
