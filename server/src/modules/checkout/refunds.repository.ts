import { and, asc, desc, eq, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.js';
import { users } from '../auth/index.js';
import { events } from '../events/index.js';
import { ledgerEntries, ledgerTransactions } from '../ledger/index.js';
import { orders, payments, unmatchedPayments } from './payments.schema.js';
import { tickets } from '../tickets/index.js';
import { refundAttempts, refunds, refundTransitions } from './refunds.schema.js';
import { chunk } from '../../db/chunk.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import type { CursorKey } from '../../lib/keyset-page.js';

export type RefundRow = typeof refunds.$inferSelect;
export type NewRefund = typeof refunds.$inferInsert;
export type RefundAttemptRow = typeof refundAttempts.$inferSelect;
export type NewRefundAttempt = typeof refundAttempts.$inferInsert;
export type RefundStatus = RefundRow['status'];

export interface Transition {
  refundId: string;
  from: RefundStatus | null;
  to: RefundStatus;
  detail: string;
  at: Date;
}

/** Rows of `db.execute` (node-postgres and PGlite both answer `{rows}`). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Long id lists are read in slices (PostgreSQL caps bind parameters per statement). */
async function inSlices<T>(ids: string[], read: (slice: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const slice of chunk(ids)) out.push(...(await read(slice)));
  return out;
}

/** The refund ledger: refunds, the attempts sent to M-Pesa for them, and their history. */
export function createRefundsRepository(db: Executor) {
  /** Refunds with their order, payment, event and buyer (the admin list), after `after` in newest-first order. */
  function withContext<Extra extends Record<string, SQL>>(status: RefundStatus | undefined, after: CursorKey | undefined, extra?: Extra) {
    return db
      .select({
        refund: refunds,
        order: { id: orders.id, eventId: orders.eventId, userId: orders.userId, quantity: orders.quantity },
        eventTitle: events.title,
        username: users.username,
        email: users.email,
        payment: {
          checkoutRequestId: payments.checkoutRequestId,
          mpesaReceiptNumber: payments.mpesaReceiptNumber,
          phone: payments.phone,
          amount: payments.amount,
          updatedAt: payments.updatedAt,
        },
        ...(extra ?? ({} as Extra)),
      })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .innerJoin(events, eq(events.id, refunds.eventId))
      .innerJoin(users, eq(users.id, refunds.userId))
      .where(and(status ? eq(refunds.status, status) : undefined, afterTimeKey('desc', refunds.createdAt, refunds.id, after)))
      .$dynamic();
  }

  async function takenFromEach(paymentIds: string[]): Promise<Map<string, number>> {
    const rows = await inSlices(paymentIds, (slice) =>
      db
        .select({ paymentId: refunds.paymentId, n: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
        .from(refunds)
        .where(inArray(refunds.paymentId, slice))
        .groupBy(refunds.paymentId),
    );
    // Every row names a payment: it was selected by one.
    return new Map(rows.map((row) => [row.paymentId!, Number(row.n)]));
  }

  /**
   * What a reversal reverses: the payment's M-Pesa receipt, or an unmatched Paybill payment's TransID; and the event
   * title the remarks name (none for an unmatched payment).
   */
  const sourceReceipt = sql<string | null>`coalesce(${payments.mpesaReceiptNumber}, ${unmatchedPayments.transId})`;
  const sourceTitle = sql<string>`coalesce(${events.title}, '')`;

  async function insertRefunds(rows: NewRefund[]): Promise<RefundRow[]> {
    const out: RefundRow[] = [];
    for (const slice of chunk(rows, 1000)) out.push(...(await db.insert(refunds).values(slice).returning()));
    return out;
  }

  return {
    /** The payment a refund is taken from, locked: refunds of one payment are created one at a time. */
    async lockPayment(paymentId: string) {
      const [row] = await db.select().from(payments).where(eq(payments.id, paymentId)).for('update');
      return row;
    },

    /** Shillings the refunds of a payment already take, whatever their status (a failed one may be retried). */
    async takenFrom(paymentId: string): Promise<number> {
      return (await takenFromEach([paymentId])).get(paymentId) ?? 0;
    },

    /** `takenFrom` for many payments at once: payment id -> shillings taken (absent: nothing). */
    takenFromEach,

    /** Each payment's platform fee (its order's) and the part of it earlier refunds already gave back (docs/decisions/fees.md). */
    async feesOfEach(paymentIds: string[]): Promise<Map<string, { fee: number; refunded: number }>> {
      const rows = await inSlices(paymentIds, (slice) =>
        db
          .select({
            paymentId: payments.id,
            // A payment towards a reservation carries its own share of the fee (docs/decisions/instalments.md).
            fee: sql<number>`coalesce(${payments.feeShare}, ${orders.feeAmount})`,
            refunded: sql<number>`(select coalesce(sum(r.fee_amount), 0) from ${refunds} r where r.payment_id = ${payments.id})::int`,
          })
          .from(payments)
          .innerJoin(orders, eq(orders.id, payments.orderId))
          .where(inArray(payments.id, slice)),
      );
      return new Map(rows.map((row) => [row.paymentId, { fee: Number(row.fee), refunded: Number(row.refunded) }]));
    },

    /** These payments, locked (refunds of one payment are created one at a time). */
    async lockPayments(paymentIds: string[]) {
      return inSlices(paymentIds, (slice) => db.select().from(payments).where(inArray(payments.id, slice)).orderBy(payments.id).for('update'));
    },

    async insertRefund(row: NewRefund): Promise<RefundRow> {
      const [inserted] = await insertRefunds([row]);
      return inserted!;
    },

    /** Many refunds in a few multi-row statements (an event cancellation refunds every order at once). */
    insertRefunds,

    async recordTransitions(rows: Transition[]) {
      for (const slice of chunk(rows, 1000)) {
        await db
          .insert(refundTransitions)
          .values(slice.map((row) => ({ id: newId(), refundId: row.refundId, fromStatus: row.from, toStatus: row.to, at: row.at, detail: row.detail.slice(0, 1000) })));
      }
    },

    /**
     * Due refunds whose time has come, oldest first, locked until the claim commits; rows another claim
     * holds are skipped (SKIP LOCKED), so two claims never get the same refund. With the STK receipt a
     * reversal needs and the event title for the remarks.
     */
    async lockDue(now: Date, limit: number) {
      return db
        .select({ refund: refunds, stkReceipt: sourceReceipt, eventTitle: sourceTitle })
        .from(refunds)
        .leftJoin(payments, eq(payments.id, refunds.paymentId))
        .leftJoin(events, eq(events.id, refunds.eventId))
        .leftJoin(unmatchedPayments, eq(unmatchedPayments.id, refunds.unmatchedPaymentId))
        .where(and(eq(refunds.status, 'due'), lte(refunds.nextAttemptAt, now)))
        .orderBy(asc(refunds.nextAttemptAt), asc(refunds.id))
        .limit(limit)
        .for('update', { of: refunds, skipLocked: true });
    },

    async insertAttempts(rows: NewRefundAttempt[]) {
      if (rows.length === 0) return;
      await db.insert(refundAttempts).values(rows);
    },

    /** The claimed refunds are out with M-Pesa: `sent`, one attempt more. */
    async markSent(refundIds: string[], now: Date) {
      if (refundIds.length === 0) return;
      await db
        .update(refunds)
        .set({ status: 'sent', attempts: sql`${refunds.attempts} + 1`, updatedAt: now })
        .where(inArray(refunds.id, refundIds));
    },

    async lockAttempt(originatorConversationId: string): Promise<RefundAttemptRow | undefined> {
      const [row] = await db.select().from(refundAttempts).where(eq(refundAttempts.originatorConversationId, originatorConversationId)).for('update');
      return row;
    },

    async lockRefund(refundId: string): Promise<RefundRow | undefined> {
      const [row] = await db.select().from(refunds).where(eq(refunds.id, refundId)).for('update');
      return row;
    },

    async updateAttempt(id: string, changes: Partial<Omit<RefundAttemptRow, 'id' | 'refundId'>>) {
      await db.update(refundAttempts).set(changes).where(eq(refundAttempts.id, id));
    },

    async updateRefund(id: string, changes: Partial<Omit<RefundRow, 'id' | 'createdAt'>>) {
      await db.update(refunds).set(changes).where(eq(refunds.id, id));
    },

    /** Attempts still waiting for a result, sent before `before`: the reconciler's Transaction Status work list. */
    /**
     * Attempts still sent without a result since `before` (sent, or last asked about, then), claimed (SKIP LOCKED) for
     * the refunds job to ask about now, with what sending them again takes.
     */
    async claimAwaitingResult(before: Date, now: Date, limit: number) {
      const rows = await db
        .select({ attempt: refundAttempts, amount: refunds.amount, phone: refunds.phone, stkReceipt: sourceReceipt, eventTitle: sourceTitle })
        .from(refundAttempts)
        .innerJoin(refunds, eq(refunds.id, refundAttempts.refundId))
        .leftJoin(payments, eq(payments.id, refunds.paymentId))
        .leftJoin(events, eq(events.id, refunds.eventId))
        .leftJoin(unmatchedPayments, eq(unmatchedPayments.id, refunds.unmatchedPaymentId))
        .where(and(eq(refundAttempts.status, 'sent'), lte(sql`coalesce(${refundAttempts.statusAskedAt}, ${refundAttempts.sentAt})`, before)))
        .orderBy(asc(refundAttempts.sentAt), asc(refundAttempts.id))
        .limit(limit)
        .for('update', { of: refundAttempts, skipLocked: true });
      if (rows.length > 0) await db.update(refundAttempts).set({ statusAskedAt: now }).where(inArray(refundAttempts.id, rows.map((row) => row.attempt.id)));
      return rows;
    },

    /** Refunds with their order, payment, event and payer, newest first (optionally of one status). */
    async listWithContext(status?: RefundStatus) {
      return withContext(status, undefined).orderBy(desc(refunds.createdAt), desc(refunds.id));
    },

    /** One page of listWithContext (newest first) after `after`: `limit + 1` rows, each with its creation time in microseconds. */
    async pageWithContext(status: RefundStatus | undefined, after: CursorKey | undefined, limit: number) {
      return withContext(status, after, { createdAtMicros: epochMicros(refunds.createdAt) })
        .orderBy(desc(refunds.createdAt), desc(refunds.id))
        .limit(limit + 1);
    },

    async count(status: RefundStatus | undefined): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
        .from(refunds)
        // As the list: orders' refunds (an unmatched Paybill payment's shows in the unmatched list).
        .where(and(status ? eq(refunds.status, status) : undefined, isNotNull(refunds.orderId)));
      return row?.n ?? 0;
    },

    /**
     * One event's refunds for its organiser, newest first: the buyer's username only (no phone or email),
     * in one query whatever their number.
     */
    async listForEvent(eventId: string) {
      return db
        .select({
          id: refunds.id,
          username: users.username,
          guestPhone: users.guestPhone,
          amount: refunds.amount,
          reason: refunds.reason,
          status: refunds.status,
          receipt: refunds.receipt,
          createdAt: refunds.createdAt,
          updatedAt: refunds.updatedAt,
        })
        .from(refunds)
        .innerJoin(users, eq(users.id, refunds.userId))
        .where(eq(refunds.eventId, eventId))
        .orderBy(desc(refunds.createdAt), desc(refunds.id));
    },

    /** One event's void tickets by why they are void (holder cancelled, event cancelled, transferred). */
    async voidTicketCounts(eventId: string) {
      return db
        .select({ reason: tickets.voidReason, n: sql<number>`count(*)::int`.mapWith(Number) })
        .from(tickets)
        .where(and(eq(tickets.eventId, eventId), isNotNull(tickets.voidReason)))
        .groupBy(tickets.voidReason);
    },

    // ---- what the audit compares with the provider's records ----

    /** Payments by their M-Pesa receipt or, for a success confirmed only by a status query (no receipt), by CheckoutRequestID. */
    async paymentsMatching(receipts: string[], checkoutRequestIds: string[]) {
      const columns = {
        id: payments.id,
        orderId: payments.orderId,
        status: payments.status,
        amount: payments.amount,
        receipt: payments.mpesaReceiptNumber,
        checkoutRequestId: payments.checkoutRequestId,
      };
      const byReceipt = await inSlices(receipts, (slice) => db.select(columns).from(payments).where(inArray(payments.mpesaReceiptNumber, slice)));
      const byCheckout = await inSlices(checkoutRequestIds, (slice) => db.select(columns).from(payments).where(inArray(payments.checkoutRequestId, slice)));
      return { byReceipt, byCheckout };
    },

    /**
     * Orders with their tickets still valid, cancelled by their holder, and voided otherwise (the event was
     * cancelled). A transferred ticket counts for nothing: its replacement, on the same order, is valid.
     */
    async ordersWithTickets(orderIds: string[]) {
      return inSlices(orderIds, (slice) =>
        db
          .select({
            id: orders.id,
            status: orders.status,
            quantity: orders.quantity,
            instalmentPaid: orders.instalmentPaid,
            instalmentCancellationFee: orders.instalmentCancellationFee,
            // Written out in full: inside a one-table select Drizzle leaves column names unqualified.
            valid: sql<number>`(select count(*)::int from "tickets" t where t.order_id = "orders"."id" and t.voided_at is null)`.mapWith(Number),
            selfCancelled: sql<number>`(select count(*)::int from "tickets" t where t.order_id = "orders"."id" and t.void_reason = 'self_cancel')`.mapWith(Number),
            voided: sql<number>`(select count(*)::int from "tickets" t where t.order_id = "orders"."id" and t.void_reason = 'event_cancelled')`.mapWith(Number),
          })
          .from(orders)
          .where(inArray(orders.id, slice)),
      );
    },

    /** Per payment: what its live refunds (due, sent or succeeded) cover. */
    async coverage(paymentIds: string[]) {
      return inSlices(paymentIds, (slice) =>
        db
          .select({ paymentId: refunds.paymentId, covered: sql<number>`coalesce(sum(${refunds.amount}), 0)::int`.mapWith(Number) })
          .from(refunds)
          .where(and(inArray(refunds.paymentId, slice), inArray(refunds.status, ['due', 'sent', 'succeeded'])))
          .groupBy(refunds.paymentId),
      );
    },

    /** Every succeeded refund with the attempt that succeeded for it. */
    async succeeded() {
      return db
        .select({ id: refunds.id, amount: refunds.amount, receipt: refunds.receipt, method: refundAttempts.method, originatorConversationId: refundAttempts.originatorConversationId })
        .from(refunds)
        .leftJoin(refundAttempts, and(eq(refundAttempts.refundId, refunds.id), eq(refundAttempts.transactionId, refunds.receipt)))
        .where(eq(refunds.status, 'succeeded'));
    },

    /** Which of these M-Pesa TransactionIDs some attempt recorded as its success. */
    async recordedTransactionIds(transactionIds: string[]): Promise<Set<string>> {
      const rows = await inSlices(transactionIds, (slice) =>
        db.select({ transactionId: refundAttempts.transactionId }).from(refundAttempts).where(inArray(refundAttempts.transactionId, slice)),
      );
      return new Set(rows.map((row) => row.transactionId!));
    },

    /** Successful attempts that are not their refund's receipt: money that went out twice for one refund. */
    async extraSuccesses() {
      return db
        .select({ refundId: refunds.id, originatorConversationId: refundAttempts.originatorConversationId, transactionId: refundAttempts.transactionId, receipt: refunds.receipt })
        .from(refundAttempts)
        .innerJoin(refunds, eq(refunds.id, refundAttempts.refundId))
        .where(and(eq(refundAttempts.status, 'succeeded'), sql`${refundAttempts.transactionId} is distinct from ${refunds.receipt}`));
    },

    /** Payments whose refunds add up to more than was paid, or that were refunded without being successful. */
    async overRefunded() {
      return db
        .select({ paymentId: payments.id, status: payments.status, amount: payments.amount, refunded: sql<number>`sum(${refunds.amount})::int`.mapWith(Number) })
        .from(refunds)
        .innerJoin(payments, eq(payments.id, refunds.paymentId))
        .groupBy(payments.id, payments.status, payments.amount)
        .having(sql`sum(${refunds.amount}) > ${payments.amount} or ${payments.status} <> 'success'`);
    },

    /**
     * The ledger's side of each payment, against the payment row (docs/decisions/ledger.md, "Audit"): what its
     * transactions put into the clearing account must be its amount when it succeeded, and nothing otherwise
     * (never posted, or posted and reversed after M-Pesa contradicted it). Answers the payments that differ.
     */
    async paymentsOffLedger(limit: number) {
      const result = await db.execute(sql`
        select p.id, p.checkout_request_id, p.mpesa_receipt_number as receipt, p.status, p.amount,
               coalesce(sum(e.amount) filter (where e.account = 'mpesa_clearing'), 0)::bigint as posted
          from ${payments} p
          left join ${ledgerTransactions} t on t.payment_id = p.id
          left join ${ledgerEntries} e on e.transaction_id = t.id
         where p.status = 'success' or t.id is not null
         group by p.id
        having coalesce(sum(e.amount) filter (where e.account = 'mpesa_clearing'), 0) <> case when p.status = 'success' then p.amount else 0 end
         limit ${limit}`);
      return rowsOf<{ id: string; checkout_request_id: string; receipt: string | null; status: string; amount: number; posted: string }>(result).map((row) => ({
        paymentId: row.id,
        name: row.receipt ?? row.checkout_request_id,
        status: row.status,
        amount: Number(row.amount),
        posted: Number(row.posted),
      }));
    },

    /**
     * Payments whose `payment` posting credited the fee account with anything but their order's platform fee
     * (the fee leg is the posting's only credit there; M-Pesa's charge is a debit).
     */
    async feesOffLedger(limit: number) {
      const result = await db.execute(sql`
        select p.id, p.checkout_request_id, p.mpesa_receipt_number as receipt, coalesce(p.fee_share, o.fee_amount) as fee_amount,
               coalesce(-sum(e.amount) filter (where e.account = 'platform_fees' and e.amount < 0), 0)::bigint as posted
          from ${payments} p
          join ${orders} o on o.id = p.order_id
          join ${ledgerTransactions} t on t.payment_id = p.id and t.kind = 'payment'
          left join ${ledgerEntries} e on e.transaction_id = t.id
         group by p.id, p.fee_share, o.fee_amount
        having coalesce(-sum(e.amount) filter (where e.account = 'platform_fees' and e.amount < 0), 0) <> coalesce(p.fee_share, o.fee_amount)
         limit ${limit}`);
      return rowsOf<{ id: string; checkout_request_id: string; receipt: string | null; fee_amount: number; posted: string }>(result).map((row) => ({
        name: row.receipt ?? row.checkout_request_id,
        fee: Number(row.fee_amount),
        posted: Number(row.posted),
      }));
    },

    /**
     * The ledger's side of each refund: its transactions charge the organiser's payable its amount, and leave it
     * in refunds payable until it succeeded. Answers the refunds that differ.
     */
    async refundsOffLedger(limit: number) {
      const result = await db.execute(sql`
        select r.id, r.status, r.amount, r.fee_amount,
               coalesce(sum(e.amount) filter (where e.account = 'organiser_payable'), 0)::bigint as charged,
               coalesce(sum(e.amount) filter (where e.account = 'platform_fees'), 0)::bigint as fee_returned,
               coalesce(sum(e.amount) filter (where e.account = 'refunds_payable'), 0)::bigint as owed,
               coalesce(sum(e.amount) filter (where e.account = 'unmatched_receipts'), 0)::bigint as unmatched
          from ${refunds} r
          left join ${ledgerTransactions} t on t.refund_id = r.id
          left join ${ledgerEntries} e on e.transaction_id = t.id
         group by r.id
        -- A refund of an unmatched Paybill payment is owed out of the unmatched receipts, not by an organiser.
        having coalesce(sum(e.amount) filter (where e.account = 'organiser_payable'), 0) <> case when r.unmatched_payment_id is null then r.amount - r.fee_amount else 0 end
            or coalesce(sum(e.amount) filter (where e.account = 'unmatched_receipts'), 0) <> case when r.unmatched_payment_id is null then 0 else r.amount end
            or coalesce(sum(e.amount) filter (where e.account = 'platform_fees'), 0) <> r.fee_amount
            or coalesce(sum(e.amount) filter (where e.account = 'refunds_payable'), 0) <> case when r.status = 'succeeded' then 0 else -r.amount end
         limit ${limit}`);
      return rowsOf<{ id: string; status: string; amount: number; fee_amount: number; charged: string; fee_returned: string; owed: string; unmatched: string }>(result).map((row) => ({
        refundId: row.id,
        status: row.status,
        amount: Number(row.amount),
        feeAmount: Number(row.fee_amount),
        charged: Number(row.charged),
        feeReturned: Number(row.fee_returned),
        stillOwed: -Number(row.owed),
        fromUnmatched: Number(row.unmatched),
      }));
    },

    /** Money in (successful payments) and refunds paid (succeeded refunds), from the payment and refund rows themselves. */
    async moneyTotals() {
      const result = await db.execute(sql`
        select (select coalesce(sum(amount), 0) from ${payments} where status = 'success')::bigint as money_in,
               (select coalesce(sum(amount), 0) from ${refunds} where status = 'succeeded')::bigint as refunds_paid`);
      const [row] = rowsOf<{ money_in: string; refunds_paid: string }>(result);
      return { moneyIn: Number(row?.money_in ?? 0), refundsPaid: Number(row?.refunds_paid ?? 0) };
    },

    /** Ticket types with more valid tickets than their capacity, as ticket types' database function counts them (checkout sits below that module). */
    async typesOverCapacity() {
      const result = await db.execute(sql`
        select id, name, event_id, capacity, valid from tukio_types_over_capacity()`);
      return rowsOf<{ id: string; name: string; event_id: string; capacity: number; valid: number }>(result).map((row) => ({
        typeId: row.id,
        name: row.name,
        eventId: row.event_id,
        capacity: Number(row.capacity),
        valid: Number(row.valid),
      }));
    },

    /**
     * Orders whose live self-cancel refunds (due, sent or succeeded) add up to more than the tickets their
     * holders cancelled were paid: each ticket's own price (its order's average for one from before types).
     */
    async refundsBeyondTickets() {
      const result = await db.execute(sql`
        with refunded as (
          -- An on-top order's refund also gives back the fee its buyer paid beside the price (docs/decisions/fees.md):
          -- only the rest is the tickets' price.
          select r.order_id, sum(r.amount - case when o.fee_mode = 'on_top' then r.fee_amount else 0 end) as amount
            from ${refunds} r join ${orders} o on o.id = r.order_id
           where r.reason = 'self_cancel' and r.status in ('due', 'sent', 'succeeded') group by r.order_id
        ), cancelled as (
          select k.order_id, sum(coalesce(k.price_paid, o.amount / nullif(o.quantity, 0), 0)) as amount
            from ${tickets} k join ${orders} o on o.id = k.order_id
           where k.void_reason = 'self_cancel' and k.order_id in (select order_id from refunded) group by k.order_id
        )
        select refunded.order_id, refunded.amount::int as refunded, coalesce(cancelled.amount, 0)::int as cancelled
          from refunded left join cancelled using (order_id)
         where refunded.amount > coalesce(cancelled.amount, 0)`);
      return rowsOf<{ order_id: string; refunded: number; cancelled: number }>(result).map((row) => ({ orderId: row.order_id, refunded: Number(row.refunded), cancelled: Number(row.cancelled) }));
    },

    /** Transferred tickets whose replacement is not on the same order, of the same type and price. */
    async transfersChanged() {
      const replacement = alias(tickets, 'replacement');
      return db
        .select({ id: replacement.id, replaced: tickets.id })
        .from(replacement)
        .innerJoin(tickets, eq(tickets.id, replacement.transferredFrom))
        .where(
          sql`(${replacement.orderId}, ${replacement.ticketTypeId}, ${replacement.pricePaid}) is distinct from (${tickets.orderId}, ${tickets.ticketTypeId}, ${tickets.pricePaid})`,
        );
    },
  };
}

export type RefundsRepository = ReturnType<typeof createRefundsRepository>;
