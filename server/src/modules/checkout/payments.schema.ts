import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { eventDates, events, FEE_MODES } from '../events/events.schema.js';
import { promoCodes, ticketTypes } from '../ticket-types/ticket-types.schema.js';

/**
 * The checkout module's order and payment tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
/**
 * Money rows (orders, payments, and tickets bought through an order) are never deleted by deleting anything else:
 * their foreign keys RESTRICT, so deleting an event or user that has them fails instead of erasing receipts.
 */
export const orders = pgTable(
  'orders',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    amount: integer('amount').notNull(),
    status: text('status', {
      enum: ['pending', 'paid', 'failed', 'cancelled', 'expired', 'refund_due', 'reserved', 'lapsed'],
    })
      .notNull()
      .default('pending'),
    phone: text('phone'),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    /** The promo code applied on the server when the seats were held, and what it took off `amount`. */
    promoCodeId: id('promo_code_id').references((): AnyPgColumn => promoCodes.id, { onDelete: 'restrict' }),
    discount: integer('discount').notNull().default(0),
    /**
     * The platform fee of this order, snapshotted when its seats were held (docs/decisions/fees.md): whole shillings,
     * and whether the buyer paid it on top (inside `amount`) or it came out of the ticket prices (also inside `amount`).
     */
    feeAmount: integer('fee_amount').notNull().default(0),
    feeMode: text('fee_mode', { enum: FEE_MODES }).notNull().default('absorbed'),
    /** A guest buyer's optional email, for the ticket mail (their shadow account has none). */
    guestEmail: text('guest_email'),
    /**
     * The short code a buyer types as the account number when paying from the M-Pesa menu (Paybill,
     * docs/decisions/paybill.md): given when the seats are held, never reused.
     */
    orderCode: text('order_code'),
    /**
     * An instalment plan (docs/decisions/instalments.md), snapshotted from the ticket type when the seats were held:
     * the deposit that makes the order `reserved`, the due date (a real instant) by which the rest is paid or the
     * reservation lapses, and the shillings kept then. Null: the order is paid in one go.
     */
    instalmentDeposit: integer('instalment_deposit'),
    instalmentDueAt: timestamp('instalment_due_at', { withTimezone: true }),
    instalmentCancellationFee: integer('instalment_cancellation_fee'),
    /** What the reservation's payments have put towards `amount` so far (overpayments' differences left out). */
    instalmentPaid: integer('instalment_paid').notNull().default(0),
    /** The series date the buyer picked (docs/decisions/event-series.md); null on an event without dates and for an order of all-dates passes. */
    dateId: id('date_id').references((): AnyPgColumn => eventDates.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_event_status_idx').on(t.eventId, t.status),
    index('orders_user_idx').on(t.userId),
    index('orders_promo_idx').on(t.promoCodeId, t.status),
    // A signed-in account claims the guest orders made with its verified email (docs/decisions/guest-checkout.md).
    index('orders_guest_email_idx').on(sql`lower(${t.guestEmail})`).where(sql`${t.guestEmail} is not null`),
    // The waiting room's adaptive rate counts recent holds still without a push every second (few rows: pending only).
    index('orders_pending_created_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
    uniqueIndex('orders_order_code_idx').on(t.orderCode),
    // The instalments sweep's work list: reservations by due date (few rows: reserved only).
    index('orders_reserved_due_idx').on(t.instalmentDueAt).where(sql`${t.status} = 'reserved'`),
    check('orders_instalment_paid_valid', sql`${t.instalmentPaid} >= 0 and ${t.instalmentPaid} <= ${t.amount}`),
  ],
);

/** What an order holds, per ticket type: the unit price then, and the share of the order's discount. Money rows: never deleted. */
export const orderItems = pgTable(
  'order_items',
  {
    id: id().primaryKey(),
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    ticketTypeId: id('ticket_type_id')
      .notNull()
      // NO ACTION rather than RESTRICT: checked at the end of the statement, so deleting a free event
      // (cascading to its types and tickets together) still works, while deleting a sold type alone fails.
      .references(() => ticketTypes.id, { onDelete: 'no action' }),
    position: integer('position').notNull(),
    quantity: integer('quantity').notNull(),
    unitPrice: integer('unit_price').notNull(),
    discount: integer('discount').notNull().default(0),
  },
  (t) => [
    uniqueIndex('order_items_order_idx').on(t.orderId, t.position),
    index('order_items_type_idx').on(t.ticketTypeId),
    check('order_items_quantity_valid', sql`${t.quantity} >= 1`),
    check('order_items_discount_valid', sql`${t.discount} >= 0 and ${t.discount} <= ${t.unitPrice} * ${t.quantity}`),
  ],
);

export const payments = pgTable(
  'payments',
  {
    id: id().primaryKey(),
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    checkoutRequestId: text('checkout_request_id').notNull(),
    merchantRequestId: text('merchant_request_id'),
    phone: text('phone').notNull(),
    amount: integer('amount').notNull(),
    status: text('status', { enum: ['pending', 'success', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    resultCode: integer('result_code'),
    resultDesc: text('result_desc'),
    mpesaReceiptNumber: text('mpesa_receipt_number'),
    transactionDate: text('transaction_date'),
    /**
     * When M-Pesa itself (an STK query) said this payment succeeded. A success recorded from a callback alone
     * (callbacks are unsigned) stays null until the reconciler's query agrees, or is voided when it contradicts.
     */
    providerConfirmedAt: timestamp('provider_confirmed_at', { withTimezone: true }),
    /**
     * The platform fee this payment carries, when it is not its order's whole fee: a payment towards a reservation
     * (docs/decisions/instalments.md) carries the fee not taken yet by the order's earlier payments. Null: the order's fee.
     */
    feeShare: integer('fee_share'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_checkout_request_idx').on(t.checkoutRequestId),
    uniqueIndex('payments_receipt_idx').on(t.mpesaReceiptNumber),
    index('payments_user_idx').on(t.userId),
    index('payments_event_idx').on(t.eventId),
    // An order's payments (0022): found by order when a guest's order is claimed, when cancelled orders are refunded, and
    // when the waiting room counts holds still without a push.
    index('payments_order_idx').on(t.orderId),
    index('payments_status_created_idx').on(t.status, t.createdAt),
    /** A user's transactions, a page at a time, newest first (0017). */
    index('payments_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The reconciler's second look: successes no STK query has confirmed yet (few rows: partial index).
    index('payments_unconfirmed_success_idx').on(t.createdAt).where(sql`${t.status} = 'success' and ${t.providerConfirmedAt} is null`),
  ],
);

/**
 * A success callback that M-Pesa's own answer (an STK query) contradicted: someone who knew the callback
 * URL's secret forged it, or M-Pesa reversed itself. Append-only; the payment keeps its row (its status
 * follows M-Pesa's answer), its tickets are voided ('payment_reversed') and the buyer and admins are told.
 */
export const paymentContradictions = pgTable(
  'payment_contradictions',
  {
    id: id().primaryKey(),
    paymentId: id('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    /** What the callback claimed: its receipt number (the payment row keeps it too) and amount. */
    claimedReceipt: text('claimed_receipt'),
    claimedAmount: integer('claimed_amount'),
    /** M-Pesa's answer to the STK query. */
    providerResultCode: integer('provider_result_code').notNull(),
    providerResultDesc: text('provider_result_desc').notNull(),
    /** Tickets issued on the claim and voided now (0 when the claim was caught before any were issued). */
    ticketsVoided: integer('tickets_voided').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('payment_contradictions_created_idx').on(t.createdAt), uniqueIndex('payment_contradictions_payment_idx').on(t.paymentId)],
);

/**
 * A Paybill payment whose account number is no open order's code (validation was off or timed out and M-Pesa
 * completed it anyway): the money is Tukio's to give back or place, so it waits here for an administrator, who
 * attaches it to an order (it then settles as that order's payment) or has it refunded. Money rows: never deleted;
 * the ledger holds it in `unmatched_receipts` meanwhile (docs/decisions/paybill.md).
 */
export const unmatchedPayments = pgTable(
  'unmatched_payments',
  {
    id: id().primaryKey(),
    /** M-Pesa's receipt (TransID): one row per payment, however often it is confirmed. */
    transId: text('trans_id').notNull(),
    /** What the payer typed as the account number. */
    billRefNumber: text('bill_ref_number').notNull(),
    amount: integer('amount').notNull(),
    /** The payer as M-Pesa names them: masked or hashed on Daraja v2/v1. */
    msisdn: text('msisdn').notNull(),
    shortCode: text('short_code').notNull(),
    transTime: text('trans_time'),
    status: text('status', { enum: ['waiting', 'attached', 'refunding', 'refunded'] })
      .notNull()
      .default('waiting'),
    /** The payment it became: attached to an order, or (refunded) the payment the refund is made from. */
    paymentId: id('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    /** The administrator who attached or refunded it. */
    resolvedBy: id('resolved_by').references(() => users.id, { onDelete: 'restrict' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('unmatched_payments_trans_idx').on(t.transId), index('unmatched_payments_status_idx').on(t.status, t.createdAt)],
);
