import { randomInt } from 'node:crypto';
import { ORDER_CODE_ALPHABET, ORDER_CODE_LENGTH } from '@tukio/shared/internal-c2b';
import { and, desc, eq, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import { users } from '../auth/index.js';
import { events } from '../events/index.js';
import { refunds } from './refunds.schema.js';
import { tickets } from '../tickets/index.js';
import { orders, paymentContradictions, payments } from './payments.schema.js';
import { chunk } from '../../db/chunk.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import type { PricedOrder, PricingFacts } from './price-order.js';

export type OrderRow = typeof orders.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type OrderStatus = OrderRow['status'];
export type PaymentStatus = PaymentRow['status'];
/** Why seats would not fit (`tukio_stock_refusal`); `detail` names the ticket type of a type_sold_out. */
export interface StockRefusal {
  outcome: 'type_sold_out' | 'sold_out' | 'promo_used_up' | 'date_sold_out' | 'date_unavailable';
  seatsLeft: number;
  detail: string | null;
}

/** A jsonb timestamp (an ISO string) or null, as a Date. */
const dateOrNull = (value: unknown) => (typeof value === 'string' ? new Date(value) : null);

function toPricingFacts(raw: {
  event: { status: string; startsAt: string; isPaid: boolean; title: string };
  salesPaused: boolean;
  types: Array<{ id: string; name: string; price: number; salesStart: string | null; salesEnd: string | null; maxPerOrder: number; dateId: string | null; allDates: boolean; instalments?: PricingFacts['types'][number]['instalments'] }>;
  dates: Array<{ id: string; startsAt: string }> | null;
  promo: { id: string; code: string; kind: 'percent' | 'fixed'; value: number; validFrom: string | null; validUntil: string | null; ticketTypeIds: string[] | null } | null;
  fee: PricingFacts['fee'];
}): PricingFacts {
  return {
    fee: raw.fee,
    salesPaused: raw.salesPaused,
    event: { ...raw.event, startsAt: new Date(raw.event.startsAt) },
    types: raw.types.map((type) => ({ ...type, salesStart: dateOrNull(type.salesStart), salesEnd: dateOrNull(type.salesEnd) })),
    dates: (raw.dates ?? []).map((date) => ({ id: date.id, startsAt: new Date(date.startsAt) })),
    promo: raw.promo && { ...raw.promo, validFrom: dateOrNull(raw.promo.validFrom), validUntil: dateOrNull(raw.promo.validUntil) },
  };
}

/** A fresh order code: 31^7 (about 27 billion) codes, so a collision is rare and simply drawn again. */
const drawOrderCode = () => Array.from({ length: ORDER_CODE_LENGTH }, () => ORDER_CODE_ALPHABET[randomInt(ORDER_CODE_ALPHABET.length)]).join('');
const ORDER_CODE_TRIES = 5;

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;

function toStockRefusal(row: { outcome: string; seats_left: number | null; detail: string | null } | undefined): StockRefusal | undefined {
  if (!row) return undefined;
  return { outcome: row.outcome as StockRefusal['outcome'], seatsLeft: Number(row.seats_left ?? 0), detail: row.detail };
}

/** Orders (seat holds) and payments (one per STK push). */
export function createPaymentsRepository(db: Executor) {
  /** A user's payment attempts with their event's title and their order, after `after` in newest-first order. */
  function transactionsOf<Extra extends Record<string, SQL>>(userId: string, after: CursorKey | undefined, extra?: Extra) {
    return db
      .select({ payment: payments, title: events.title, orderStatus: orders.status, quantity: orders.quantity, feeAmount: orders.feeAmount, feeMode: orders.feeMode, ...(extra ?? ({} as Extra)) })
      .from(payments)
      .innerJoin(events, eq(events.id, payments.eventId))
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(payments.userId, userId), afterTimeKey('desc', payments.createdAt, payments.id, after)))
      .$dynamic();
  }

  return {
    /** What pricing an order reads (`tukio_pricing_facts`) and its version (md5) for the hold; undefined: no such event. */
    async pricingFacts(eventId: string, promoCode: string | undefined): Promise<{ facts: PricingFacts; version: string } | undefined> {
      const result = await db.execute(sql`select f as facts, md5(f::text) as version from tukio_pricing_facts(${eventId}, ${promoCode ?? null}) f`);
      const row = rowsOf<{ facts: Parameters<typeof toPricingFacts>[0] | null; version: string }>(result)[0];
      return row?.facts ? { facts: toPricingFacts(row.facts), version: row.version } : undefined;
    },

    /** Why these lines would not fit now (`tukio_stock_refusal`), read without a lock: the quote's answer. */
    async stockRefusal(input: { eventId: string; userId: string; lines: Array<{ typeId: string; quantity: number }>; promoId: string | null; now: Date; dateId?: string | null }) {
      const lines = JSON.stringify(input.lines.map(({ typeId, quantity }) => ({ typeId, quantity, dateId: input.dateId ?? null })));
      const result = await db.execute(
        sql`select * from tukio_stock_refusal(${input.eventId}, ${input.userId}, ${lines}::jsonb, ${input.promoId}, ${input.now.toISOString()}, null)`,
      );
      return toStockRefusal(rowsOf<{ outcome: string; seats_left: number | null; detail: string | null }>(result)[0]);
    },

    /**
     * Whether a pending order whose hold ran out still fits (its own hold not counted): the late settlement's
     * recount, by the same stock rule as the hold, the promo code aside (the order already paid with it).
     */
    async lateOrderFits(order: Pick<OrderRow, 'id' | 'eventId' | 'userId'>, now: Date): Promise<boolean> {
      const result = await db.execute(sql`
        select * from tukio_stock_refusal(${order.eventId}, ${order.userId},
          (select coalesce(jsonb_agg(jsonb_build_object('typeId', i.ticket_type_id, 'quantity', i.quantity, 'dateId', o.date_id) order by i.position), '[]'::jsonb)
             from order_items i join orders o on o.id = i.order_id where i.order_id = ${order.id}),
          null, ${now.toISOString()}, ${order.id})`);
      return rowsOf(result).length === 0;
    },

    /**
     * Holds an order priced by `priceOrder` (`tukio_hold_priced_order`): under the event's row lock, 'stale' when the
     * facts it was priced from changed, a stock refusal, or 'held' with the order and its lines inserted.
     */
    async holdPricedOrder(input: {
      eventId: string;
      userId: string;
      factsVersion: string;
      promoCode: string | undefined;
      priced: PricedOrder;
      phone: string;
      guestEmail?: string | undefined;
      holdSeconds: number;
    }): Promise<{ outcome: 'held'; orderId: string; orderCode: string; holdExpiresAt: Date } | { outcome: 'stale' } | { outcome: 'refused'; refusal: StockRefusal }> {
      const orderId = newId();
      const { lines, quantity, amount, discount, fee, feeMode, promoId, dateId } = input.priced;
      // Each line carries the order's date: the stock rule counts a line's seats on the date it is for.
      const order = JSON.stringify({ lines: lines.map((line) => ({ ...line, dateId })), quantity, amount, discount, fee, feeMode, promoId, dateId });
      const hold = (orderCode: string) =>
        db.execute(
          sql`select * from tukio_hold_priced_order(${orderId}, ${orderCode}, ${input.eventId}, ${input.userId}, ${input.factsVersion}, ${input.promoCode ?? null},
                ${order}::jsonb, ${input.phone}, ${input.guestEmail ?? null}, ${input.holdSeconds})`,
        );
      // The order code (the account number for paying from the M-Pesa menu, docs/decisions/paybill.md) is written
      // with the order; one already taken (1 in billions) fails the statement, which holds nothing, so a fresh one is drawn.
      for (let attempt = 1; ; attempt += 1) {
        const orderCode = drawOrderCode();
        let result;
        try {
          result = await hold(orderCode);
        } catch (error) {
          if (isUniqueViolation(error) && attempt < ORDER_CODE_TRIES) continue;
          throw error;
        }
        const row = rowsOf<{ outcome: string; hold_expires_at: string | Date | null; seats_left: number | null; detail: string | null }>(result)[0];
        if (row?.outcome === 'held') return { outcome: 'held', orderId, orderCode, holdExpiresAt: new Date(row.hold_expires_at!) };
        if (row?.outcome === 'stale' || !row) return { outcome: 'stale' };
        return { outcome: 'refused', refusal: toStockRefusal(row)! };
      }
    },

    /** How many orders an event has, by status (statuses without orders are left out). */
    async orderCountsForEvent(eventId: string): Promise<Partial<Record<OrderStatus, number>>> {
      const rows = await db
        .select({ status: orders.status, n: sql<number>`count(*)::int` })
        .from(orders)
        .where(eq(orders.eventId, eventId))
        .groupBy(orders.status);
      return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
    },

    /** Puts an instalment plan on an order just held (docs/decisions/instalments.md). */
    async setInstalmentPlan(orderId: string, plan: { deposit: number; dueAt: Date; cancellationFee: number }): Promise<void> {
      await db
        .update(orders)
        .set({ instalmentDeposit: plan.deposit, instalmentDueAt: plan.dueAt, instalmentCancellationFee: plan.cancellationFee, updatedAt: new Date() })
        .where(eq(orders.id, orderId));
    },

    /** What a reservation's payments have put towards its price now (set in the settlement's transaction, with the order locked). */
    async setInstalmentPaid(orderId: string, paid: number): Promise<void> {
      await db.update(orders).set({ instalmentPaid: paid, updatedAt: new Date() }).where(eq(orders.id, orderId));
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

    /** `setOrderStatus` for many orders in a few statements. */
    async setOrdersStatus(orderIds: string[], status: OrderStatus, onlyIf: OrderStatus[]): Promise<number> {
      let changed = 0;
      for (const slice of chunk(orderIds)) {
        const rows = await db
          .update(orders)
          .set({ status, updatedAt: new Date() })
          .where(and(inArray(orders.id, slice), inArray(orders.status, onlyIf)))
          .returning({ id: orders.id });
        changed += rows.length;
      }
      return changed;
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

    /** Seat holds made between `from` and `to` still pending with no push recorded: pushes under way, or stuck. */
    async countHoldsWithoutPush(from: Date, to: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(
          and(
            eq(orders.status, 'pending'),
            gte(orders.createdAt, from),
            lte(orders.createdAt, to),
            sql`not exists (select 1 from ${payments} where ${payments.orderId} = ${orders.id})`,
          ),
        );
      return row?.n ?? 0;
    },

    /**
     * Records a push for an order in one statement (copying user, event, phone and amount from it): a held order on an
     * instalment plan is asked its deposit; a push towards a reservation names its own `amount` and phone.
     */
    async insertPaymentForOrder(input: { orderId: string; checkoutRequestId: string; merchantRequestId?: string | undefined; amount?: number | undefined; phone?: string | undefined }) {
      const id = newId();
      const result = await db.execute(sql`
        insert into ${payments} (id, order_id, user_id, event_id, checkout_request_id, merchant_request_id, phone, amount, status)
        select ${id}, ${orders.id}, ${orders.userId}, ${orders.eventId}, ${input.checkoutRequestId}, ${input.merchantRequestId ?? null},
               coalesce(${input.phone ?? null}, ${orders.phone}, ''),
               coalesce(${input.amount ?? null}::integer, case when ${orders.status} = 'pending' and ${orders.instalmentDeposit} is not null then ${orders.instalmentDeposit} else ${orders.amount} end), 'pending'
        from ${orders} where ${orders.id} = ${input.orderId}
        on conflict do nothing
        returning id`);
      return (result as unknown as { rows: Array<{ id: string }> }).rows[0];
    },

    /**
     * `insertPaymentForOrder` for several pushes in one statement. Answers, per push, the payment
     * id it inserted, or undefined when nothing was inserted (a repeated push, or an unknown order).
     */
    async insertPaymentsForOrders(inputs: Array<{ orderId: string; checkoutRequestId: string; merchantRequestId?: string | undefined }>) {
      const array = (values: Array<string | null>, type: string) => sql`${sql.raw('ARRAY[')}${sql.join(values.map((value) => sql`${value}`), sql`, `)}${sql.raw(`]::${type}[]`)}`;
      const result = await db.execute(sql`
        insert into ${payments} (id, order_id, user_id, event_id, checkout_request_id, merchant_request_id, phone, amount, status)
        select v.id, o.id, o.user_id, o.event_id, v.checkout_request_id, v.merchant_request_id, coalesce(o.phone, ''),
               case when o.status = 'pending' and o.instalment_deposit is not null then o.instalment_deposit else o.amount end, 'pending'
        from unnest(${array(inputs.map(() => newId()), 'varchar')}, ${array(inputs.map((input) => input.orderId), 'varchar')},
                    ${array(inputs.map((input) => input.checkoutRequestId), 'varchar')}, ${array(inputs.map((input) => input.merchantRequestId ?? null), 'varchar')})
             with ordinality as v(id, order_id, checkout_request_id, merchant_request_id, position)
        join ${orders} o on o.id = v.order_id
        order by v.position
        on conflict do nothing
        returning id, order_id, checkout_request_id`);
      const rows = (result as unknown as { rows: Array<{ id: string; order_id: string; checkout_request_id: string }> }).rows;
      const inserted = new Map(rows.map((row) => [row.checkout_request_id, row]));
      return inputs.map((input) => {
        const row = inserted.get(input.checkoutRequestId);
        return row && row.order_id === input.orderId ? { id: row.id } : undefined;
      });
    },

    async findPayment(checkoutRequestId: string): Promise<PaymentRow | undefined> {
      const [row] = await db.select().from(payments).where(eq(payments.checkoutRequestId, checkoutRequestId)).limit(1);
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

    /**
     * Successes no STK query has confirmed (recorded from a callback alone), created after `createdAfter` and
     * last changed before `updatedBefore`: the reconciler asks M-Pesa about each, oldest first.
     */
    async unconfirmedSuccesses(createdAfter: Date, updatedBefore: Date, limit: number) {
      return db
        .select({ checkoutRequestId: payments.checkoutRequestId, createdAt: payments.createdAt })
        .from(payments)
        .where(and(eq(payments.status, 'success'), isNull(payments.providerConfirmedAt), gte(payments.createdAt, createdAfter), lt(payments.updatedAt, updatedBefore)))
        .orderBy(payments.createdAt)
        .limit(limit);
    },

    /** The success callback M-Pesa contradicted, kept for the admins and the audit (one per payment). */
    async recordContradiction(input: { paymentId: string; claimedReceipt: string | null; claimedAmount: number | null; providerResultCode: number; providerResultDesc: string; ticketsVoided: number }) {
      const [row] = await db
        .insert(paymentContradictions)
        .values({ id: newId(), ...input })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    /** Every contradicted success claim with its payment, oldest first (the audit lists each). */
    async contradictions() {
      return db
        .select({
          contradiction: paymentContradictions,
          checkoutRequestId: payments.checkoutRequestId,
          paymentStatus: payments.status,
          amount: payments.amount,
          phone: payments.phone,
        })
        .from(paymentContradictions)
        .innerJoin(payments, eq(payments.id, paymentContradictions.paymentId))
        .orderBy(paymentContradictions.createdAt);
    },

    /** Successes recorded from a callback alone that no STK query has confirmed (the audit checks them against M-Pesa's books). */
    async allUnconfirmedSuccesses() {
      return db
        .select({ id: payments.id, checkoutRequestId: payments.checkoutRequestId, receipt: payments.mpesaReceiptNumber, amount: payments.amount, phone: payments.phone })
        .from(payments)
        .where(and(eq(payments.status, 'success'), isNull(payments.providerConfirmedAt)))
        .orderBy(payments.createdAt);
    },

    /** The administrators' addresses: they are told when M-Pesa contradicts a recorded success. */
    async adminContacts() {
      return db.select({ email: users.email, username: users.username, language: users.language }).from(users).where(eq(users.role, 'admin'));
    },

    /** A user's payment attempts with the event title, newest first. */
    async listForUser(userId: string) {
      return transactionsOf(userId, undefined).orderBy(desc(payments.createdAt), desc(payments.id));
    },

    /** One page of listForUser (newest first) after `after`: `limit + 1` rows, each with its creation time in microseconds. */
    async pageForUser(userId: string, after: CursorKey | undefined, limit: number) {
      return transactionsOf(userId, after, { createdAtMicros: epochMicros(payments.createdAt) })
        .orderBy(desc(payments.createdAt), desc(payments.id))
        .limit(limit + 1);
    },

    async countForUser(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(eq(payments.userId, userId));
      return row?.n ?? 0;
    },

    async withOrder(checkoutRequestId: string) {
      const [row] = await db
        .select({ payment: payments, order: orders, title: events.title, buyerGuestPhone: users.guestPhone })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .innerJoin(events, eq(events.id, payments.eventId))
        .innerJoin(users, eq(users.id, payments.userId))
        .where(eq(payments.checkoutRequestId, checkoutRequestId))
        .limit(1);
      return row;
    },

    /**
     * The payment row locked for settling (`FOR UPDATE` of the payment alone: the order is locked next, as every
     * path locks payment → order → event), with what the settlement tells the buyer: the event and the buyer.
     */
    async lockPaymentForSettlement(checkoutRequestId: string) {
      const [row] = await db
        .select({
          payment: payments,
          event: { id: events.id, title: events.title, startsAt: events.startsAt, location: events.location, organiserId: events.userId },
          contact: { email: users.email, username: users.username, guestPhone: users.guestPhone, language: users.language },
        })
        .from(payments)
        .innerJoin(events, eq(events.id, payments.eventId))
        .innerJoin(users, eq(users.id, payments.userId))
        .where(eq(payments.checkoutRequestId, checkoutRequestId))
        .for('update', { of: payments });
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

    /**
     * The latest refund of each payment (the refunds module writes them; a transaction list shows them),
     * by payment id.
     */
    async latestRefunds(paymentIds: string[]) {
      const rows =
        paymentIds.length === 0
          ? []
          : await db
              .selectDistinctOn([refunds.paymentId], { paymentId: refunds.paymentId, status: refunds.status, amount: refunds.amount, receipt: refunds.receipt })
              .from(refunds)
              .where(inArray(refunds.paymentId, paymentIds))
              .orderBy(refunds.paymentId, desc(refunds.createdAt), desc(refunds.id));
      return new Map(rows.map((row) => [row.paymentId, row]));
    },

    /**
     * Every payment of an event, then every order of it, locked in that order (payment → order, as
     * settlement locks them) before the caller takes the event lock: cancelling an event waits for the
     * settlements in flight instead of deadlocking with them.
     */
    async lockForEvent(eventId: string) {
      const locked = await db.select({ id: payments.id, status: payments.status }).from(payments).where(eq(payments.eventId, eventId)).orderBy(payments.id).for('update');
      const lockedOrders = await db.select({ id: orders.id, status: orders.status }).from(orders).where(eq(orders.eventId, eventId)).orderBy(orders.id).for('no key update');
      return { payments: locked, orders: lockedOrders };
    },

    /**
     * These orders' payments, then the orders, locked in settlement's order (payment → order) before the
     * caller takes the event lock: a holder cancelling tickets of them queues behind a cancellation of the
     * event instead of deadlocking with it. Each order with its successful payment (null when free or unpaid).
     * The orders are locked NO KEY UPDATE, not UPDATE (here and in `lockForEvent`): the lockers still exclude
     * each other, but a transfer inserting its replacement ticket under the event lock takes KEY SHARE on
     * the order (the foreign-key check) and must not wait here while this holder waits for its event lock:
     * that was a deadlock between a transfer and a cancel of the same ticket.
     */
    async lockOrdersWithPayments(orderIds: string[]) {
      if (orderIds.length === 0) return [];
      const paid = await db
        .select({ id: payments.id, orderId: payments.orderId, status: payments.status })
        .from(payments)
        .where(inArray(payments.orderId, orderIds))
        .orderBy(payments.id)
        .for('update');
      const locked = await db.select().from(orders).where(inArray(orders.id, orderIds)).orderBy(orders.id).for('no key update');
      return locked.map((order) => ({ order, paymentId: paid.find((payment) => payment.orderId === order.id && payment.status === 'success')?.id ?? null }));
    },

    /**
     * Releases the seats of every pending order and reservation of an event (its holds end now); the orders become
     * `cancelled` (a reservation's payments are refunded whole with the event's other payments).
     */
    async cancelPendingOrders(eventId: string, now: Date) {
      return db
        .update(orders)
        .set({ status: 'cancelled', updatedAt: now })
        .where(and(eq(orders.eventId, eventId), inArray(orders.status, ['pending', 'reserved'])))
        .returning({ id: orders.id });
    },

    /** Pending orders for one date of a series release their seats (the date was cancelled). */
    async cancelPendingOrdersForDate(dateId: string, now: Date) {
      return db
        .update(orders)
        .set({ status: 'cancelled', updatedAt: now })
        .where(and(eq(orders.dateId, dateId), eq(orders.status, 'pending')))
        .returning({ id: orders.id });
    },

    /** The successful payments of orders for one date of a series: what cancelling that date refunds. */
    async successfulPaymentsForDate(dateId: string) {
      return db
        .select({ paymentId: payments.id, orderId: orders.id, orderStatus: orders.status, userId: payments.userId, amount: payments.amount, phone: payments.phone })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(and(eq(orders.dateId, dateId), eq(payments.status, 'success')))
        .orderBy(payments.id);
    },

    /** An event becoming a series: its orders so far are for its first date. */
    async assignDate(eventId: string, dateId: string) {
      await db.update(orders).set({ dateId }).where(and(eq(orders.eventId, eventId), isNull(orders.dateId)));
    },

    /** Seats taken on one date (`tukio_date_seats_taken`: its tickets and passes, and live holds of them). */
    async dateSeatsTaken(dateId: string, now: Date): Promise<number> {
      const result = await db.execute(sql`select tukio_date_seats_taken(${dateId}, ${now.toISOString()}, null) as taken`);
      return Number(rowsOf<{ taken: number }>(result)[0]?.taken ?? 0);
    },

    /** Whether any order (of any status) was for this date: such a date is cancelled, never deleted. */
    async dateHasOrders(dateId: string): Promise<boolean> {
      const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.dateId, dateId)).limit(1);
      return Boolean(row);
    },

    /** The successful payments of an event with their orders' status: what a cancellation refunds. */
    async successfulPaymentsForEvent(eventId: string) {
      return db
        .select({ paymentId: payments.id, orderId: orders.id, orderStatus: orders.status, userId: payments.userId, amount: payments.amount, phone: payments.phone })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(and(eq(payments.eventId, eventId), eq(payments.status, 'success')))
        .orderBy(payments.id);
    },
      /**
     * Whom to remind of an event starting between `fromWall` and `toWall` (the events' wall clock): each
     * person holding a valid ticket of an approved event bought with M-Pesa, once, at the phone of their
     * latest paid order (paid before `paidBefore`: someone who just bought has their ticket email).
     */
    async reminderRecipients(fromWall: Date, toWall: Date, paidBefore: Date, limit: number) {
      const result = await db.execute(sql`
        select distinct on (o.event_id, o.user_id) o.event_id, o.user_id, o.phone, e.title, e.starts_at, e.location, u.language
          from ${orders} o
          join ${events} e on e.id = o.event_id
          join ${users} u on u.id = o.user_id
         where o.status = 'paid' and o.phone is not null and o.updated_at < ${paidBefore.toISOString()}
           and e.status = 'approved' and e.starts_at > ${fromWall.toISOString()} and e.starts_at <= ${toWall.toISOString()}
           and exists (select 1 from ${tickets} t where t.event_id = o.event_id and t.user_id = o.user_id and t.voided_at is null)
         order by o.event_id, o.user_id, o.updated_at desc, o.created_at desc
         limit ${limit}`);
      return (result as unknown as { rows: Array<{ event_id: string; user_id: string; phone: string; title: string; starts_at: string | Date; location: string; language: string }> }).rows.map((row) => ({
        eventId: row.event_id,
        userId: row.user_id,
        phone: row.phone,
        title: row.title,
        startsAt: new Date(row.starts_at),
        location: row.location,
        language: row.language === 'sw' ? ('sw' as const) : ('en' as const),
      }));
    },

    /** The phone a person last paid with (a paid order's), for SMS to someone who bought before; undefined when none. */
    async latestPhoneOf(userId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ phone: orders.phone })
        .from(orders)
        .where(and(eq(orders.userId, userId), eq(orders.status, 'paid')))
        .orderBy(desc(orders.updatedAt))
        .limit(1);
      return row?.phone ?? undefined;
    },
  };
}
