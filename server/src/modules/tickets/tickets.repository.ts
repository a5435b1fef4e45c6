import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import { users } from '../auth/index.js';
import { events } from '../events/index.js';
import { checkinScans, ticketDateCheckins, tickets } from './tickets.schema.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import { heldTicket } from './registrations.repository.js';

export type EventRow = typeof events.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type NewTicket = typeof tickets.$inferInsert;

const attendeeColumns = {
  id: tickets.id,
  userId: tickets.userId,
  username: users.username,
  email: users.email,
  orderId: tickets.orderId,
  checkedInAt: tickets.checkedInAt,
  createdAt: tickets.createdAt,
  /** A guest buyer's phone (their account is a placeholder) and the email they gave at checkout, if any. */
  guestPhone: users.guestPhone,
  guestEmail: sql<string | null>`(select guest_email from tukio_ticket_order(${tickets.orderId}))`,
};

/*
 * Orders and ticket types belong to modules above tickets (checkout, ticket types), so this file reads them
 * through the database functions those modules define (checkout/sql/hold-order.sql,
 * ticket-types/sql/ticket-type-rules.sql), never their tables (docs/decisions/server-boundaries.md, "Tables").
 */
const ticketOrder = (column: 'amount' | 'quantity' | 'user_id') => sql`(select ${sql.raw(column)} from tukio_ticket_order(${tickets.orderId}))`;

/** Tickets, seat counting and the event row lock that makes stock changes safe. */
export function createTicketsRepository(db: Executor) {
  /** Tickets with what My Tickets shows of their event, order and type (plus `extra` columns). */
  function mineQuery<Extra extends Record<string, SQL.Aliased | SQL>>(extra?: Extra) {
    return db
      .select({
        id: tickets.id,
        code: tickets.code,
        checkedInAt: tickets.checkedInAt,
        createdAt: tickets.createdAt,
        orderId: tickets.orderId,
        voidedAt: tickets.voidedAt,
        voidReason: tickets.voidReason,
        transferredFrom: tickets.transferredFrom,
        pricePaid: tickets.pricePaid,
        ticketTypeId: tickets.ticketTypeId,
        ticketTypeName: sql<string | null>`tukio_ticket_type_name(${tickets.ticketTypeId})`,
        /** On a series: the date this ticket admits on (null for an all-dates pass or a one-date event). */
        dateId: tickets.dateId,
        dateStartsAt: sql<string | null>`(select d.starts_at from "event_dates" d where d.id = ${tickets.dateId})`,
        /** On a series: whether the event has dates at all (a ticket without one is then a pass for every date). */
        eventHasDates: sql<boolean>`exists (select 1 from "event_dates" d where d.event_id = ${tickets.eventId})`.mapWith(Boolean),
        /** What the order paid for its tickets (null for a free registration): a self-cancel refunds from it. */
        orderAmount: sql<number | null>`${ticketOrder('amount')}`.mapWith(Number),
        orderQuantity: sql<number | null>`${ticketOrder('quantity')}`.mapWith(Number),
        /** Whether the holder is the buyer: a ticket received by transfer was paid by someone else (any refund goes to them). */
        boughtByHolder: sql<boolean>`coalesce(${ticketOrder('user_id')} = ${tickets.userId}, false)`.mapWith(Boolean),
        event: {
          id: events.id,
          title: events.title,
          startsAt: events.startsAt,
          location: events.location,
          image: events.image,
          isPaid: events.isPaid,
          ticketPrice: events.ticketPrice,
          status: events.status,
          refundPolicy: events.refundPolicy,
          refundPercent: events.refundPercent,
          refundUntilHours: events.refundUntilHours,
        },
        ...(extra ?? ({} as Extra)),
      })
      .from(tickets)
      .innerJoin(events, eq(events.id, tickets.eventId))
      .$dynamic();
  }

  /**
   * Seats in use in their three parts: valid tickets issued, seats held by pending orders whose hold has
   * not run out, and seats offered to people on the waitlist (drizzle/0008 `tukio_offered_seats`, the rule
   * the hold function uses too). `except` leaves out one order (the one being settled) and one person's
   * own offer (a seat offered to them is theirs to take).
   * One statement, so one snapshot (the functions are STABLE): counted in two, a settlement committing in between
   * was seen as neither its hold nor its ticket, and the waitlist sweep offered a seat that did not exist.
   */
  async function seatCounts(eventId: string, now: Date, except: { orderId?: string; userId?: string } = {}): Promise<{ issued: number; held: number; offered: number }> {
    const at = now.toISOString();
    // A void ticket (cancelled, transferred: its replacement counts instead) holds no seat.
    const result = await db.execute(
      sql`select (select count(*)::int from ${tickets} where ${tickets.eventId} = ${eventId} and ${tickets.voidedAt} is null) as issued,
                 tukio_seats_held(${eventId}, ${at}, ${except.orderId ?? null}) as held, tukio_offered_seats(${eventId}, ${except.userId ?? null}, ${at}) as offered`,
    );
    const [counts] = (result as unknown as { rows: Array<{ issued: number; held: number; offered: number }> }).rows;
    return { issued: Number(counts?.issued ?? 0), held: Number(counts?.held ?? 0), offered: Number(counts?.offered ?? 0) };
  }

  return {
    async findEvent(eventId: string): Promise<EventRow | undefined> {
      const [row] = await db.select().from(events).where(eq(events.id, eventId)).limit(1);
      return row;
    },

    /**
     * Locks the event row until the transaction ends. Every change to an event's stock (holds,
     * free registrations, late payments, cancellation) takes this lock first, so concurrent buyers
     * queue here. NO KEY UPDATE, not UPDATE: the lockers still exclude each other, but the foreign-key
     * checks of rows inserted for the event (a settling payment's tickets, its activity count) take
     * KEY SHARE on it and must not wait for this lock while holding what its holder waits for (the
     * daily activity row): that was a deadlock between a late settlement and a quick one.
     */
    async lockEvent(eventId: string): Promise<EventRow | undefined> {
      const [row] = await db.select().from(events).where(eq(events.id, eventId)).for('no key update');
      return row;
    },

    /** Seats in use: tickets issued, seats held by live pending orders, and seats offered to the waitlist (see `seatCounts`). */
    async seatsTaken(eventId: string, now: Date, except: { orderId?: string; userId?: string } = {}): Promise<number> {
      const { issued, held, offered } = await seatCounts(eventId, now, except);
      return issued + held + offered;
    },

    seatCounts,

    async insert(rows: NewTicket[]): Promise<TicketRow[]> {
      if (rows.length === 0) return [];
      return db.insert(tickets).values(rows).returning();
    },

    /** What each seat of an order becomes (drizzle/0012 `tukio_order_slots`): its ticket type and share of the payment, in order. */
    async orderSlots(orderId: string): Promise<Array<{ ticketTypeId: string; pricePaid: number; dateId: string | null }>> {
      const result = await db.execute(sql`select ticket_type_id, price_paid, date_id from tukio_order_dated_slots(${orderId}) order by n`);
      return (result as unknown as { rows: Array<{ ticket_type_id: string; price_paid: number; date_id: string | null }> }).rows.map((row) => ({
        ticketTypeId: row.ticket_type_id,
        pricePaid: Number(row.price_paid),
        dateId: row.date_id,
      }));
    },

    /** The type a purchase naming none buys: the cheapest, first listed among equals. */
    async defaultTypeId(eventId: string): Promise<string | undefined> {
      const result = await db.execute(sql`select tukio_default_ticket_type(${eventId}) as id`);
      return (result as unknown as { rows: Array<{ id: string | null }> }).rows[0]?.id ?? undefined;
    },

    /**
     * A free series' dates and what the free type admits on (docs/decisions/event-series.md): the type's own date,
     * null for a pass, or the picked date; each date's seats taken counted by the hold's one rule (tukio_date_seats_taken).
     */
    async seriesDates(eventId: string, now: Date): Promise<Array<{ id: string; startsAt: Date; status: string; capacity: number | null; taken: number }>> {
      const result = await db.execute(sql`select d.id, d.starts_at, d.status, d.capacity, tukio_date_seats_taken(d.id, ${now.toISOString()}::timestamptz, null) as taken
        from "event_dates" d where d.event_id = ${eventId} order by d.starts_at, d.id`);
      const rows = (result as unknown as { rows: Array<{ id: string; starts_at: string | Date; status: string; capacity: number | null; taken: number | string }> }).rows;
      return rows.map((row) => ({ id: row.id, startsAt: new Date(row.starts_at), status: row.status, capacity: row.capacity === null ? null : Number(row.capacity), taken: Number(row.taken) }));
    },

    /** The date a seat of this type is for on a series: its own date, null for a pass, else the picked one (tukio_seat_date). */
    async seatDate(typeId: string, picked: string | null): Promise<string | null> {
      const result = await db.execute(sql`select tukio_seat_date(${typeId}, ${picked}) as id`);
      return (result as unknown as { rows: Array<{ id: string | null }> }).rows[0]?.id ?? null;
    },

    /** Valid tickets of this user for one date of a series (a pass counts for every date). */
    async userTicketsForDate(eventId: string, userId: string, dateId: string | null): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(tickets)
        .where(and(eq(tickets.eventId, eventId), eq(tickets.userId, userId), isNull(tickets.voidedAt), dateId === null ? undefined : or(isNull(tickets.dateId), eq(tickets.dateId, dateId))));
      return Number(row?.n ?? 0);
    },

    /** Valid tickets of this user for this event (one who released theirs may register again). */
    async countFor(eventId: string, userId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(tickets)
        .where(and(eq(tickets.eventId, eventId), eq(tickets.userId, userId), isNull(tickets.voidedAt)));
      return Number(row?.n ?? 0);
    },

    async findById(ticketId: string): Promise<TicketRow | undefined> {
      const [row] = await db.select().from(tickets).where(eq(tickets.id, ticketId)).limit(1);
      return row;
    },

    /**
     * Admits a valid ticket on one date of a series, once per date (docs/decisions/event-series.md); the ticket's
     * own check-in time keeps its first admission. Undefined when it was already admitted on that date.
     */
    async checkInOnDate(ticketId: string, dateId: string, by: string, device: string | null) {
      const now = new Date();
      const [admitted] = await db.insert(ticketDateCheckins).values({ ticketId, dateId, checkedInAt: now, checkedInBy: by }).onConflictDoNothing().returning();
      if (!admitted) return undefined;
      await db
        .update(tickets)
        .set({ checkedInAt: now, checkedInBy: by, checkedInDevice: device })
        .where(and(eq(tickets.id, ticketId), isNull(tickets.checkedInAt)));
      return admitted;
    },

    /** When a ticket was admitted on one date of a series (undefined: not yet). */
    async dateCheckin(ticketId: string, dateId: string) {
      const [row] = await db.select().from(ticketDateCheckins).where(and(eq(ticketDateCheckins.ticketId, ticketId), eq(ticketDateCheckins.dateId, dateId)));
      return row;
    },

    /** First scan wins: only a ticket not yet checked in (and not void) is updated. */
    async checkIn(ticketId: string, eventId: string, by: string, device: string | null = null): Promise<TicketRow | undefined> {
      const [row] = await db
        .update(tickets)
        .set({ checkedInAt: new Date(), checkedInBy: by, checkedInDevice: device })
        .where(and(eq(tickets.id, ticketId), eq(tickets.eventId, eventId), isNull(tickets.checkedInAt), isNull(tickets.voidedAt)))
        .returning();
      return row;
    },

    async findByIds(ticketIds: string[]): Promise<TicketRow[]> {
      if (ticketIds.length === 0) return [];
      return db.select().from(tickets).where(inArray(tickets.id, ticketIds));
    },

    /** These tickets, locked until the transaction ends (in id order, so two lockers never deadlock). */
    async lockTickets(ticketIds: string[]): Promise<TicketRow[]> {
      if (ticketIds.length === 0) return [];
      return db.select().from(tickets).where(inArray(tickets.id, ticketIds)).orderBy(asc(tickets.id)).for('update');
    },

    /**
     * A holder gives these tickets up (cancelled, or transferred: then a replacement is issued). Only
     * tickets still valid and not checked in change; the caller compares the count with what it asked for.
     */
    async voidTickets(ticketIds: string[], reason: 'self_cancel' | 'transferred', at: Date) {
      if (ticketIds.length === 0) return [];
      return db
        .update(tickets)
        .set({ voidedAt: at, voidReason: reason })
        .where(and(inArray(tickets.id, ticketIds), isNull(tickets.voidedAt), isNull(tickets.checkedInAt)))
        .returning({ id: tickets.id, orderId: tickets.orderId });
    },

    /** Voids an order's valid tickets (M-Pesa contradicted the payment they were issued on); returns those voided. */
    async voidForOrder(orderId: string, reason: 'payment_reversed', at: Date) {
      return db
        .update(tickets)
        .set({ voidedAt: at, voidReason: reason })
        .where(and(eq(tickets.orderId, orderId), isNull(tickets.voidedAt)))
        .returning({ id: tickets.id, userId: tickets.userId, eventId: tickets.eventId });
    },

    /** Voids every ticket of the event still valid; the rows stay (their holders and the audit still see them). */
    async voidForEvent(eventId: string, reason: NonNullable<TicketRow['voidReason']>, at: Date) {
      return db
        .update(tickets)
        .set({ voidedAt: at, voidReason: reason })
        .where(and(eq(tickets.eventId, eventId), isNull(tickets.voidedAt)))
        .returning({ id: tickets.id, userId: tickets.userId, orderId: tickets.orderId });
    },

    /** Voids every valid ticket for one date of a series (the date was cancelled); passes for every date stay valid. */
    async voidForDate(dateId: string, reason: NonNullable<TicketRow['voidReason']>, at: Date) {
      return db
        .update(tickets)
        .set({ voidedAt: at, voidReason: reason })
        .where(and(eq(tickets.dateId, dateId), isNull(tickets.voidedAt)))
        .returning({ id: tickets.id, userId: tickets.userId, orderId: tickets.orderId });
    },

    /** An event becoming a series: its tickets so far are for its first date (`dateId`). */
    async assignDate(eventId: string, dateId: string) {
      await db.update(tickets).set({ dateId }).where(and(eq(tickets.eventId, eventId), isNull(tickets.dateId)));
      // Its door scans so far were for that date too: "already checked in" is per ticket and date on a series.
      await db.update(checkinScans).set({ dateId }).where(and(eq(checkinScans.eventId, eventId), isNull(checkinScans.dateId)));
    },

    /** Valid tickets for one date of a series (not counting passes for every date). */
    async countForDate(dateId: string): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(tickets).where(and(eq(tickets.dateId, dateId), isNull(tickets.voidedAt)));
      return Number(row?.n ?? 0);
    },

    async listForUser(userId: string) {
      return mineQuery().where(eq(tickets.userId, userId)).orderBy(events.startsAt, tickets.id);
    },

    /**
     * One page of the user's tickets in the order of listForUser (event start, then ticket id), after
     * `after`: `limit + 1` rows, each with the event start in microseconds for the next cursor and the
     * ticket's place among the user's tickets for the same event (on every page, whatever it holds).
     */
    async pageForUser(userId: string, after: CursorKey | undefined, limit: number) {
      // Written out in full: the outer ticket's columns must be qualified inside the subqueries.
      const sameEvent = sql`"mine"."user_id" = "tickets"."user_id" and "mine"."event_id" = "tickets"."event_id"`;
      return mineQuery({
        startsAtMicros: epochMicros(events.startsAt),
        indexForEvent: sql<number>`(select count(*)::int from "tickets" "mine" where ${sameEvent} and "mine"."id" <= "tickets"."id")`.mapWith(Number),
        countForEvent: sql<number>`(select count(*)::int from "tickets" "mine" where ${sameEvent})`.mapWith(Number),
      })
        .where(and(eq(tickets.userId, userId), afterTimeKey('asc', events.startsAt, tickets.id, after)))
        .orderBy(asc(events.startsAt), asc(tickets.id))
        .limit(limit + 1);
    },

    async countForUser(userId: string): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int`.mapWith(Number) }).from(tickets).where(eq(tickets.userId, userId));
      return row?.n ?? 0;
    },

    async listForEvent(eventId: string) {
      return db
        .select(attendeeColumns)
        .from(tickets)
        .innerJoin(users, eq(users.id, tickets.userId))
        // A ticket its holder cancelled or transferred is nobody's seat (the replacement is listed instead).
        .where(and(eq(tickets.eventId, eventId), heldTicket))
        .orderBy(users.username, tickets.id);
    },

    /** Attendees in username order: `limit` held tickets after the cursor (a username and a ticket id). */
    async attendeePage(eventId: string, page: { limit: number; after: CursorKey | undefined }) {
      return db
        .select(attendeeColumns)
        .from(tickets)
        .innerJoin(users, eq(users.id, tickets.userId))
        .where(and(eq(tickets.eventId, eventId), heldTicket, page.after ? sql`(${users.username}, ${tickets.id}) > (${page.after[0]}, ${page.after[1]})` : undefined))
        .orderBy(users.username, tickets.id)
        .limit(page.limit);
    },

    /** How many tickets the event's attendees hold, and how many of them are checked in. */
    async countAttendees(eventId: string): Promise<{ total: number; checkedIn: number }> {
      const [row] = await db
        .select({ total: sql<number>`count(*)::int`, checkedIn: sql<number>`(count(*) filter (where ${tickets.checkedInAt} is not null))::int` })
        .from(tickets)
        .where(and(eq(tickets.eventId, eventId), heldTicket));
      return row ?? { total: 0, checkedIn: 0 };
    },

    /** Every holder of a valid ticket to the event, once each, with where and in which language to write to them. */
    async validHolderContacts(eventId: string) {
      return db
        .selectDistinct({ email: users.email, username: users.username, language: users.language })
        .from(tickets)
        .innerJoin(users, eq(users.id, tickets.userId))
        .where(and(eq(tickets.eventId, eventId), isNull(tickets.voidedAt)));
    },

    /** Gives the order's tickets `fromUserId` still holds to `toUserId`; a ticket of the order given to someone else stays theirs. */
    async moveOrderTickets(orderId: string, fromUserId: string, toUserId: string): Promise<void> {
      await db.update(tickets).set({ userId: toUserId }).where(and(eq(tickets.orderId, orderId), eq(tickets.userId, fromUserId)));
    },

    /** Where a user's ticket email goes. */
    async userContact(userId: string) {
      const [row] = await db.select({ username: users.username, email: users.email, language: users.language }).from(users).where(eq(users.id, userId)).limit(1);
      return row;
    },
  };
}
