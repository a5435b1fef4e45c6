import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { orderItems, orders, payments } from '../checkout/index.js';
import { refunds } from '../checkout/index.js';
import { promoCodes, ticketTypes } from '../ticket-types/index.js';
import { tickets } from '../tickets/index.js';

/**
 * A stored instant (created_at, checked_in_at are real instants) as Nairobi wall-clock time, so a sale at
 * 01:00 EAT falls on the organiser's day and not on the UTC day before. Kenya keeps UTC+3 all year
 * (lib/event-clock.ts); a fixed offset also works on the embedded PGlite, which may lack zone data.
 */
const nairobi = (column: SQLWrapper) => sql`(${column} at time zone 'UTC' + interval '3 hours')`;

/** Rows of `db.execute` (node-postgres and PGlite both answer `{rows}`). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Read-only aggregates of one event for its organiser's dashboard: each method is one statement. */
export function createDashboardRepository(db: Executor) {
  return {
    /**
     * Valid and checked-in tickets, successful payments, and refunds (paid out, and still on their way),
     * counted and summed in one statement.
     */
    async totals(eventId: string) {
      const result = await db.execute(sql`
        with t as (
          select count(*) filter (where voided_at is null) as valid, count(*) filter (where checked_in_at is not null) as checked_in
          from ${tickets} where event_id = ${eventId}
        ), p as (
          select count(*) as paid_count, coalesce(sum(amount), 0) as paid_amount
          from ${payments} where event_id = ${eventId} and status = 'success'
        ), r as (
          select count(*) filter (where status = 'succeeded') as refunded_count,
                 coalesce(sum(amount) filter (where status = 'succeeded'), 0) as refunded_amount,
                 count(*) filter (where status in ('due', 'sent')) as pending_count,
                 coalesce(sum(amount) filter (where status in ('due', 'sent')), 0) as pending_amount
          from ${refunds} where event_id = ${eventId}
        )
        select valid, checked_in, paid_count, paid_amount, refunded_count, refunded_amount, pending_count, pending_amount from t, p, r`);
      const [row] = rowsOf<Record<string, string | number>>(result);
      // count and sum come back as bigint (text from node-postgres): whole numbers far below 2^53.
      const n = (key: string) => Number(row?.[key] ?? 0);
      return {
        validTickets: n('valid'),
        checkedIn: n('checked_in'),
        payments: { count: n('paid_count'), amount: n('paid_amount') },
        refunded: { count: n('refunded_count'), amount: n('refunded_amount') },
        refundsPending: { count: n('pending_count'), amount: n('pending_amount') },
      };
    },

    /**
     * Per Nairobi day, newest first and at most `limit` days that had any: tickets issued (a transfer's
     * replacement is not a sale) and shillings received in successful payments.
     */
    async salesByDay(eventId: string, limit: number) {
      const result = await db.execute(sql`
        with sold as (
          select to_char(${nairobi(tickets.createdAt)}, 'YYYY-MM-DD') as day, count(*) as tickets
          from ${tickets} where event_id = ${eventId} and transferred_from is null group by 1
        ), paid as (
          select to_char(${nairobi(payments.createdAt)}, 'YYYY-MM-DD') as day, sum(amount) as revenue
          from ${payments} where event_id = ${eventId} and status = 'success' group by 1
        )
        select day, coalesce(sold.tickets, 0) as tickets, coalesce(paid.revenue, 0) as revenue
        from sold full join paid using (day)
        order by day desc limit ${limit}`);
      return rowsOf<{ day: string; tickets: string | number; revenue: string | number }>(result).map((row) => ({
        day: row.day,
        tickets: Number(row.tickets),
        revenue: Number(row.revenue),
      }));
    },

    /**
     * Per ticket type, in the order buyers see them: its price and capacity, valid tickets, and what those
     * tickets were paid (each ticket's own share of its payment, after promo codes; a ticket from before
     * types has its order's average). Cancelled and voided tickets count in neither.
     */
    async typeFigures(eventId: string) {
      const result = await db.execute(sql`
        select t.name, t.price, t.capacity,
               count(k.id) as sold,
               -- Reservations (docs/decisions/instalments.md): seats held by a deposit, no tickets yet, and what they paid so far.
               (select coalesce(sum(i.quantity), 0) from ${orderItems} i join ${orders} r on r.id = i.order_id
                 where i.ticket_type_id = t.id and r.status = 'reserved') as reserved,
               (select coalesce(sum(r.instalment_paid), 0) from ${orders} r
                 where r.status = 'reserved' and exists (select 1 from ${orderItems} i where i.order_id = r.id and i.ticket_type_id = t.id)) as reserved_paid,
               coalesce(sum(coalesce(k.price_paid, o.amount / nullif(o.quantity, 0), 0)), 0) as revenue
          from ${ticketTypes} t
          left join ${tickets} k on k.ticket_type_id = t.id and k.voided_at is null
          left join ${orders} o on o.id = k.order_id
         where t.event_id = ${eventId}
         group by t.id, t.name, t.price, t.capacity, t.position
         order by t.position, t.id`);
      return rowsOf<{ name: string; price: number; capacity: number | null; sold: string | number; reserved: string | number; reserved_paid: string | number; revenue: string | number }>(result).map((row) => ({
        name: row.name,
        price: Number(row.price),
        sold: Number(row.sold),
        reserved: Number(row.reserved),
        reservedPaid: Number(row.reserved_paid),
        capacity: row.capacity === null ? null : Number(row.capacity),
        revenue: Number(row.revenue),
      }));
    },

    /** Per promo code, oldest first: the paid orders that used it and the shillings it took off them. */
    async promoCodeFigures(eventId: string) {
      const result = await db.execute(sql`
        select c.code, count(o.id) as uses, coalesce(sum(o.discount), 0) as discount
          from ${promoCodes} c
          left join ${orders} o on o.promo_code_id = c.id and o.status = 'paid'
         where c.event_id = ${eventId}
         group by c.id, c.code, c.created_at
         order by c.created_at, c.code`);
      return rowsOf<{ code: string; uses: string | number; discount: string | number }>(result).map((row) => ({ code: row.code, uses: Number(row.uses), discount: Number(row.discount) }));
    },

    /** Check-ins per Nairobi hour (`YYYY-MM-DDTHH:00`), newest first, at most `limit` hours that had any. */
    async checkInsByHour(eventId: string, limit: number) {
      const result = await db.execute(sql`
        select to_char(date_trunc('hour', ${nairobi(tickets.checkedInAt)}), 'YYYY-MM-DD"T"HH24:00') as hour, count(*) as checked_in
        from ${tickets} where event_id = ${eventId} and checked_in_at is not null
        group by 1 order by 1 desc limit ${limit}`);
      return rowsOf<{ hour: string; checked_in: string | number }>(result).map((row) => ({ hour: row.hour, checkedIn: Number(row.checked_in) }));
    },
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
