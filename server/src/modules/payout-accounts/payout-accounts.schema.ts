import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';

/**
 * The payout-accounts module's table: only its repository writes it (docs/decisions/server-boundaries.md, "Tables").
 */
export const PAYOUT_ACCOUNT_STATUSES = ['pending', 'confirmed', 'replaced', 'locked'] as const;

/**
 * Where an organiser is paid (docs/decisions/payout-accounts.md), one row per destination they asked for.
 * A row starts `pending` with a hashed 6-digit code sent by SMS; it becomes `confirmed` when the code is
 * entered in time, `replaced` when a newer request takes its place before that, `locked` when the code was
 * wrong too often. A confirmed row is never changed again: a change is a new row, and the organiser's active
 * destination is their latest confirmed one. `held_until` (a change's 24 h hold on payouts) is set once, with
 * the confirmation.
 */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    id: id().primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text('method', { enum: ['mpesa', 'paybill', 'till'] }).notNull(),
    /** The M-Pesa number paid (B2C), 254XXXXXXXXX; null for Paybill and Till. */
    phone: text('phone'),
    /** The Paybill or Till number (B2B); null for M-Pesa. */
    shortcode: text('shortcode'),
    /** The account number at the Paybill; null otherwise. */
    accountReference: text('account_reference'),
    /** Where the confirmation code went (the M-Pesa number itself, or the phone the organiser named). */
    codePhone: text('code_phone').notNull(),
    /** HMAC-SHA256 of the code: a database leak does not reveal a working code. */
    codeHash: text('code_hash').notNull(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }).notNull(),
    wrongAttempts: integer('wrong_attempts').notNull().default(0),
    status: text('status', { enum: PAYOUT_ACCOUNT_STATUSES }).notNull().default('pending'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** Payouts wait until then after a change of destination; null for the first destination. */
    heldUntil: timestamp('held_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('payout_accounts_status_valid', sql`${t.status} in ('pending', 'confirmed', 'replaced', 'locked')`),
    check(
      'payout_accounts_destination_valid',
      sql`(${t.method} = 'mpesa' and ${t.phone} is not null and ${t.shortcode} is null and ${t.accountReference} is null)
        or (${t.method} = 'paybill' and ${t.phone} is null and ${t.shortcode} is not null and ${t.accountReference} is not null)
        or (${t.method} = 'till' and ${t.phone} is null and ${t.shortcode} is not null and ${t.accountReference} is null)`,
    ),
    check('payout_accounts_confirmed_together', sql`(${t.status} = 'confirmed') = (${t.confirmedAt} is not null)`),
    // One code waiting per organiser: a new request replaces the one before.
    uniqueIndex('payout_accounts_one_pending_idx').on(t.userId).where(sql`${t.status} = 'pending'`),
    index('payout_accounts_user_idx').on(t.userId, t.createdAt),
    index('payout_accounts_confirmed_idx').on(t.userId, t.confirmedAt).where(sql`${t.status} = 'confirmed'`),
  ],
);
