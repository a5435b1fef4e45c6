import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { orders, payments, unmatchedPayments } from './payments.schema.js';

export type UnmatchedPaymentRow = typeof unmatchedPayments.$inferSelect;

/** The checkout's Paybill rows (docs/decisions/paybill.md): order codes, Paybill payments and the unmatched ones. */
export function createPaybillRepository(db: Executor) {
  return {
    async findOrderByCode(code: string) {
      const [row] = await db.select().from(orders).where(eq(orders.orderCode, code)).limit(1);
      return row;
    },

    /**
     * A Paybill payment as a payment of its order, pending until the settle path records it in the same
     * transaction. Its CheckoutRequestID is `c2b_<TransID>`, so a second confirmation inserts nothing.
     */
    async insertPaybillPayment(input: { orderId: string; checkoutRequestId: string; phone: string | null; amount: number }) {
      const id = newId();
      const result = await db.execute(sql`
        insert into ${payments} (id, order_id, user_id, event_id, checkout_request_id, phone, amount, status)
        select ${id}, ${orders.id}, ${orders.userId}, ${orders.eventId}, ${input.checkoutRequestId},
               coalesce(${input.phone}, ${orders.phone}, ''), ${input.amount}, 'pending'
        from ${orders} where ${orders.id} = ${input.orderId}
        on conflict do nothing
        returning id`);
      return (result as unknown as { rows: Array<{ id: string }> }).rows[0];
    },

    /** Keeps a Paybill payment no order claims; undefined when its TransID is kept already (a repeated confirmation). */
    async insertUnmatched(input: { transId: string; billRefNumber: string; amount: number; msisdn: string; shortCode: string; transTime?: string | undefined }) {
      const [row] = await db
        .insert(unmatchedPayments)
        .values({ id: newId(), transId: input.transId, billRefNumber: input.billRefNumber, amount: input.amount, msisdn: input.msisdn, shortCode: input.shortCode, transTime: input.transTime ?? null })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    async lockUnmatched(id: string) {
      const [row] = await db.select().from(unmatchedPayments).where(eq(unmatchedPayments.id, id)).for('update');
      return row;
    },

    async findUnmatched(id: string) {
      const [row] = await db.select().from(unmatchedPayments).where(eq(unmatchedPayments.id, id)).limit(1);
      return row;
    },

    async resolveUnmatched(id: string, changes: { status: 'attached'; paymentId: string; resolvedBy: string }) {
      const now = new Date();
      const [row] = await db
        .update(unmatchedPayments)
        .set({ ...changes, resolvedAt: now, updatedAt: now })
        .where(and(eq(unmatchedPayments.id, id), eq(unmatchedPayments.status, 'waiting')))
        .returning();
      return row;
    },

    /** The admin queue: newest first, the waiting ones or all. */
    async listUnmatched(status: UnmatchedPaymentRow['status'] | undefined, limit = 200) {
      return db
        .select()
        .from(unmatchedPayments)
        .where(status ? eq(unmatchedPayments.status, status) : undefined)
        .orderBy(desc(unmatchedPayments.createdAt))
        .limit(limit);
    },

    /**
     * Which of these M-Pesa receipts are unmatched payments not placed on an order: waiting, or refunded whole by an
     * administrator (their refund is checked with the other refunds). The audit's provider side.
     */
    async unplacedTransIds(transIds: string[]): Promise<string[]> {
      if (transIds.length === 0) return [];
      const rows = await db
        .select({ transId: unmatchedPayments.transId })
        .from(unmatchedPayments)
        .where(and(inArray(unmatchedPayments.transId, transIds), inArray(unmatchedPayments.status, ['waiting', 'refunding', 'refunded'])));
      return rows.map((row) => row.transId);
    },

    /** Money still waiting to be placed: the audit counts it as received. */
    async waitingTotal(): Promise<number> {
      const [row] = await db.select({ total: sql<number>`coalesce(sum(${unmatchedPayments.amount}), 0)::int` }).from(unmatchedPayments).where(eq(unmatchedPayments.status, 'waiting'));
      return Number(row?.total ?? 0);
    },

    /** Money an administrator refunded instead of placing (in flight or paid back): received too, for the audit. */
    async refundedTotal(): Promise<number> {
      const [row] = await db
        .select({ total: sql<number>`coalesce(sum(${unmatchedPayments.amount}), 0)::int` })
        .from(unmatchedPayments)
        .where(inArray(unmatchedPayments.status, ['refunding', 'refunded']));
      return Number(row?.total ?? 0);
    },

    /** An administrator refunds it instead of placing it: `refunding` until M-Pesa reverses it. */
    async markRefunding(id: string, resolvedBy: string) {
      const now = new Date();
      const [row] = await db
        .update(unmatchedPayments)
        .set({ status: 'refunding', resolvedBy, resolvedAt: now, updatedAt: now })
        .where(and(eq(unmatchedPayments.id, id), eq(unmatchedPayments.status, 'waiting')))
        .returning();
      return row;
    },

    /** Its reversal succeeded. */
    async markRefunded(id: string) {
      await db.update(unmatchedPayments).set({ status: 'refunded', updatedAt: new Date() }).where(and(eq(unmatchedPayments.id, id), eq(unmatchedPayments.status, 'refunding')));
    },
  };
}
