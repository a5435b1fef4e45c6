import { and, desc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { events, orders, payments, users } from '../../db/schema.js';

export type OrderRow = typeof orders.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type OrderStatus = OrderRow['status'];
export type PaymentStatus = PaymentRow['status'];

/** Orders (seat holds) and payments (one per STK push). */
export function createPaymentsRepository(db: Executor) {
  return {
    async insertOrder(order: Omit<typeof orders.$inferInsert, 'id'>): Promise<OrderRow> {
      const [row] = await db.insert(orders).values({ id: newId(), ...order }).returning();
      return row!;
    },

    /**
     * Holds seats in one round trip through `tukio_hold_seats` (drizzle/0001): locks the event row,
     * counts issued tickets + live holds and inserts the pending order only if it fits. The lock
     * wait and the critical section happen inside PostgreSQL, so a burst of buyers for one event
     * queues there rather than on the application's event loop.
     */
    async holdSeats(order: { eventId: string; userId: string; quantity: number; phone: string; holdSeconds: number }) {
      const id = newId();
      const result = await db.execute(
        sql`select * from tukio_hold_seats(${id}, ${order.eventId}, ${order.userId}, ${order.quantity}, ${order.phone}, ${order.holdSeconds})`,
      );
      const row = (result as unknown as { rows: Array<Record<string, unknown>> }).rows[0];
      const outcome = String(row?.outcome ?? 'not_found') as 'held' | 'sold_out' | 'not_found';
      return {
        outcome,
        orderId: id,
        amount: row?.amount === null || row?.amount === undefined ? 0 : Number(row.amount),
        holdExpiresAt: row?.hold_expires_at ? new Date(row.hold_expires_at as string | Date) : undefined,
        seatsLeft: row?.seats_left === null || row?.seats_left === undefined ? 0 : Number(row.seats_left),
      };
    },

    async findOrder(orderId: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
      return row;
    },

    async lockOrder(orderId: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).for('update');
      return row;
    },

    async setOrderStatus(orderId: string, status: OrderStatus, onlyIf?: OrderStatus[]): Promise<OrderRow | undefined> {
      const [row] = await db
        .update(orders)
        .set({ status, updatedAt: new Date() })
        .where(and(eq(orders.id, orderId), onlyIf ? inArray(orders.status, onlyIf) : undefined))
        .returning();
      return row;
    },

    /** Pending orders whose hold ran out become `expired`; their seats are already free for counting. */
    async expireHolds(now: Date, eventId?: string): Promise<number> {
      const rows = await db
        .update(orders)
        .set({ status: 'expired', updatedAt: now })
        .where(and(eq(orders.status, 'pending'), lte(orders.holdExpiresAt, now), eventId ? eq(orders.eventId, eventId) : undefined))
        .returning({ id: orders.id });
      return rows.length;
    },

    async insertPayment(payment: Omit<typeof payments.$inferInsert, 'id'>): Promise<PaymentRow> {
      const [row] = await db.insert(payments).values({ id: newId(), ...payment }).returning();
      return row!;
    },

    /** Records a push for an order in one statement (copying user, event, phone and amount from it). */
    async insertPaymentForOrder(input: { orderId: string; checkoutRequestId: string; merchantRequestId?: string | undefined }) {
      const id = newId();
      const result = await db.execute(sql`
        insert into ${payments} (id, order_id, user_id, event_id, checkout_request_id, merchant_request_id, phone, amount, status)
        select ${id}, ${orders.id}, ${orders.userId}, ${orders.eventId}, ${input.checkoutRequestId}, ${input.merchantRequestId ?? null},
               coalesce(${orders.phone}, ''), ${orders.amount}, 'pending'
        from ${orders} where ${orders.id} = ${input.orderId}
        on conflict do nothing
        returning id`);
      return (result as unknown as { rows: Array<{ id: string }> }).rows[0];
    },

    async findPayment(checkoutRequestId: string): Promise<PaymentRow | undefined> {
      const [row] = await db.select().from(payments).where(eq(payments.checkoutRequestId, checkoutRequestId)).limit(1);
      return row;
    },

    async lockPayment(checkoutRequestId: string): Promise<PaymentRow | undefined> {
      const [row] = await db.select().from(payments).where(eq(payments.checkoutRequestId, checkoutRequestId)).for('update');
      return row;
    },

    async updatePayment(id: string, changes: Partial<Omit<PaymentRow, 'id' | 'createdAt'>>): Promise<PaymentRow | undefined> {
      const [row] = await db
        .update(payments)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(payments.id, id))
        .returning();
      return row;
    },

    /** Pushes still waiting for a result that were sent before `before`: the reconciler's work list. */
    async pendingBefore(before: Date, limit: number) {
      return db
        .select({
          checkoutRequestId: payments.checkoutRequestId,
          createdAt: payments.createdAt,
        })
        .from(payments)
        .where(and(eq(payments.status, 'pending'), lt(payments.createdAt, before)))
        .orderBy(payments.createdAt)
        .limit(limit);
    },

    /** A user's payment attempts with the event title, newest first. */
    async listForUser(userId: string) {
      return db
        .select({ payment: payments, title: events.title, orderStatus: orders.status, quantity: orders.quantity })
        .from(payments)
        .innerJoin(events, eq(events.id, payments.eventId))
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(eq(payments.userId, userId))
        .orderBy(desc(payments.createdAt), desc(payments.id));
    },

    async withOrder(checkoutRequestId: string) {
      const [row] = await db
        .select({ payment: payments, order: orders, title: events.title })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .innerJoin(events, eq(events.id, payments.eventId))
        .where(eq(payments.checkoutRequestId, checkoutRequestId))
        .limit(1);
      return row;
    },

    /** A paid order of this user for this event: its tickets were issued with the payment. */
    async paidOrderFor(eventId: string, userId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.eventId, eventId), eq(orders.userId, userId), eq(orders.status, 'paid')))
        .limit(1);
      return row;
    },

    async refundsDue() {
      return db
        .select({
          order: orders,
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
        })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .innerJoin(users, eq(users.id, orders.userId))
        .innerJoin(payments, and(eq(payments.orderId, orders.id), eq(payments.status, 'success')))
        .where(eq(orders.status, 'refund_due'))
        .orderBy(desc(orders.updatedAt));
    },

    async userContact(userId: string) {
      const [row] = await db.select({ username: users.username, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
      return row;
    },

    countPending: async () => {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(payments).where(eq(payments.status, 'pending'));
      return Number(row?.n ?? 0);
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
