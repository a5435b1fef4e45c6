import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { nowAsWallClock } from '../../lib/event-clock.js';
import { newId } from '../../db/ids.js';
import type { RefundPolicy } from '@tukio/shared/refund-policy';
import { accountDeletions } from './data-rights.schema.js';

export type AccountDeletionRow = typeof accountDeletions.$inferSelect;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A ticket to an event still to come, as the deletion request lists it. */
export interface FutureTicketRow {
  ticketId: string;
  eventId: string;
  title: string;
  startsAt: Date;
  ticketType: string | null;
  pricePaid: number;
  policy: RefundPolicy;
}

/**
 * The account-deletion requests (data-rights' own table), and the reads a request checks first: the user's
 * tickets to events still to come and the events they organise that are still to come. Those go by table names,
 * like the export's reads (the personal-data map is the contract), never through another module's schema.
 */
export function createAccountDeletionsRepository(db: Executor) {
  return {
    /** The user's open request (requested or scheduled), locked (call inside a transaction). */
    async lockOpen(userId: string): Promise<AccountDeletionRow | undefined> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`account-deletion:${userId}`}))`);
      const [row] = await db
        .select()
        .from(accountDeletions)
        .where(and(eq(accountDeletions.userId, userId), inArray(accountDeletions.status, ['requested', 'scheduled'])))
        .for('update');
      return row;
    },

    async insert(values: Omit<typeof accountDeletions.$inferInsert, 'id'>): Promise<AccountDeletionRow> {
      const [row] = await db.insert(accountDeletions).values({ id: newId(), ...values }).returning();
      return row!;
    },

    async update(id: string, changes: Partial<Omit<AccountDeletionRow, 'id' | 'userId' | 'createdAt'>>): Promise<void> {
      await db.update(accountDeletions).set(changes).where(eq(accountDeletions.id, id));
    },

    /** Schedules a request still `requested` (two tabs confirming at once: the second finds it done); answers whether it did. */
    async markScheduled(id: string, changes: { confirmedAt: Date; eraseAt: Date; undoTokenHash: string }): Promise<boolean> {
      const updated = await db
        .update(accountDeletions)
        .set({ ...changes, status: 'scheduled', confirmTokenHash: null })
        .where(and(eq(accountDeletions.id, id), eq(accountDeletions.status, 'requested')))
        .returning({ id: accountDeletions.id });
      return updated.length > 0;
    },

    async lockByConfirmToken(tokenHash: string): Promise<AccountDeletionRow | undefined> {
      const [row] = await db.select().from(accountDeletions).where(eq(accountDeletions.confirmTokenHash, tokenHash)).for('update');
      return row;
    },

    async lockByUndoToken(tokenHash: string): Promise<AccountDeletionRow | undefined> {
      const [row] = await db.select().from(accountDeletions).where(eq(accountDeletions.undoTokenHash, tokenHash)).for('update');
      return row;
    },

    async lock(id: string): Promise<AccountDeletionRow | undefined> {
      const [row] = await db.select().from(accountDeletions).where(eq(accountDeletions.id, id)).for('update');
      return row;
    },

    async latest(userId: string): Promise<AccountDeletionRow | undefined> {
      const [row] = await db.select().from(accountDeletions).where(eq(accountDeletions.userId, userId)).orderBy(desc(accountDeletions.createdAt)).limit(1);
      return row;
    },

    /** Scheduled deletions whose grace period ended by `now` (the sweep erases them; their job may have been lost). */
    async due(now: Date): Promise<string[]> {
      const rows = await db
        .select({ id: accountDeletions.id })
        .from(accountDeletions)
        .where(and(eq(accountDeletions.status, 'scheduled'), lte(accountDeletions.eraseAt, now)));
      return rows.map((row) => row.id);
    },

    /** Confirmation links nobody followed in time: the request lapses (the account was never deactivated). */
    async lapse(now: Date): Promise<void> {
      await db
        .update(accountDeletions)
        .set({ status: 'cancelled', cancelledAt: now, confirmTokenHash: null })
        .where(and(eq(accountDeletions.status, 'requested'), lte(accountDeletions.confirmExpiresAt, now)));
    },

    /**
     * Accounts an administrator may delete on a written request: a username starting with `q`, or the exact email
     * (a letter usually gives it). Unlike the chat search, nobody is hidden for lacking an avatar or having blocked
     * the admin; guest shadow accounts and erased ones are no one to delete.
     */
    async findAccounts(q: string, limit: number) {
      return rowsOf<{ id: string; username: string; email: string }>(
        await db.execute(sql`
          select id, username, email from users
           where (starts_with(lower(username), lower(${q})) or lower(email) = lower(${q}))
             and guest_phone is null and username not like 'deleted-%'
           order by username limit ${limit}`),
      );
    },

    /** The admin log: every deletion an administrator made or undid, newest first. */
    async adminLog(limit: number) {
      // The username names the account in the admin list (after erasure it is the `deleted-<id>` placeholder).
      return rowsOf<{ id: string; user_id: string; username: string | null; status: string; requested_by: string | null; reason: string | null; erase_at: Date | null; cancelled_by: string | null; created_at: Date }>(
        await db.execute(sql`
          select d.id, d.user_id, u.username, d.status, d.requested_by, d.reason, d.erase_at, d.cancelled_by, d.created_at
            from account_deletions d left join users u on u.id = d.user_id
           where d.requested_by is not null or d.cancelled_by is not null
           order by d.created_at desc limit ${limit}`),
      );
    },

    /** (Event times are Nairobi wall clock stored as UTC: compared through lib/event-clock.) The user's valid tickets to events still to come (not cancelled), with what each cost and its event's refund policy. */
    async futureTickets(userId: string, now: Date): Promise<FutureTicketRow[]> {
      const rows = rowsOf<{ ticket_id: string; event_id: string; title: string; starts_at: Date | string; ticket_type: string | null; price_paid: number | null; refund_policy: RefundPolicy['kind']; refund_percent: number | null; refund_until_hours: number }>(
        await db.execute(sql`
          select t.id as ticket_id, e.id as event_id, e.title, e.starts_at, tt.name as ticket_type, coalesce(t.price_paid, o.amount / nullif(o.quantity, 0), 0) as price_paid,
                 e.refund_policy, e.refund_percent, e.refund_until_hours
            from tickets t
            join events e on e.id = t.event_id
            left join ticket_types tt on tt.id = t.ticket_type_id
            left join orders o on o.id = t.order_id
           where t.user_id = ${userId} and t.voided_at is null and t.checked_in_at is null
             and e.starts_at > ${nowAsWallClock(now)} and e.status <> 'cancelled'
           order by e.starts_at, t.id`),
      );
      return rows.map((row) => ({
        ticketId: row.ticket_id,
        eventId: row.event_id,
        title: row.title,
        startsAt: new Date(row.starts_at),
        ticketType: row.ticket_type,
        pricePaid: Number(row.price_paid),
        policy: { kind: row.refund_policy, percent: row.refund_percent, untilHours: row.refund_until_hours },
      }));
    },

    /** Events the user organises that are still to come and not cancelled. */
    async futureEvents(userId: string, now: Date): Promise<Array<{ eventId: string; title: string; startsAt: Date }>> {
      const rows = rowsOf<{ id: string; title: string; starts_at: Date | string }>(
        await db.execute(sql`
          select id, title, starts_at from events
           where user_id = ${userId} and status <> 'cancelled' and starts_at > ${nowAsWallClock(now)}
           order by starts_at`),
      );
      return rows.map((row) => ({ eventId: row.id, title: row.title, startsAt: new Date(row.starts_at) }));
    },

    /** Refunds to the user still on their way (M-Pesa needs their phone until they are paid). */
    async refundsInFlight(userId: string): Promise<number> {
      return rowsOf<unknown>(await db.execute(sql`select 1 from refunds where user_id = ${userId} and status in ('due', 'sent')`)).length;
    },

    /** Voids the user's tickets to events still to come, without refund (they chose to keep them void rather than cancel). */
    async voidFutureTickets(userId: string, now: Date): Promise<number> {
      return rowsOf<unknown>(
        await db.execute(sql`
          update tickets t set voided_at = ${now}, void_reason = 'self_cancel'
            from events e
           where e.id = t.event_id and t.user_id = ${userId} and t.voided_at is null and t.checked_in_at is null and e.starts_at > ${nowAsWallClock(now)}
          returning 1`),
      ).length;
    },
  };
}
