import { and, asc, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { users } from '../auth/index.js';
import { waitlistEntries } from './waitlist.schema.js';

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
export type WaitlistStatus = WaitlistEntryRow['status'];

const OPEN: WaitlistStatus[] = ['waiting', 'offered'];

/** The waitlist of each event (drizzle/0008): places, offers and their ends. */
export function createWaitlistRepository(db: Executor) {
  return {
    async insert(input: { eventId: string; userId: string; quantity: number }): Promise<WaitlistEntryRow> {
      const [row] = await db.insert(waitlistEntries).values({ id: newId(), ...input }).returning();
      return row!;
    },

    /** The person's place that is still open (waiting or offered), if any. */
    async findOpen(eventId: string, userId: string): Promise<WaitlistEntryRow | undefined> {
      const [row] = await db
        .select()
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.userId, userId), inArray(waitlistEntries.status, OPEN)))
        .limit(1);
      return row;
    },

    /** The person's latest place on this event's waitlist, open or ended. */
    async latestFor(eventId: string, userId: string): Promise<WaitlistEntryRow | undefined> {
      const [row] = await db
        .select()
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.userId, userId)))
        .orderBy(desc(waitlistEntries.createdAt), desc(waitlistEntries.id))
        .limit(1);
      return row;
    },

    /** People waiting ahead of this place (first come, first served), plus how many wait in all. */
    async queueOf(eventId: string, entry?: Pick<WaitlistEntryRow, 'createdAt' | 'id'>) {
      const [row] = await db
        .select({
          waiting: sql<number>`count(*)::int`,
          ahead: entry
            ? sql<number>`count(*) filter (where (${waitlistEntries.createdAt}, ${waitlistEntries.id}) < (${entry.createdAt.toISOString()}::timestamptz, ${entry.id}))::int`
            : sql<number>`0`,
        })
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.status, 'waiting')));
      return { waiting: Number(row?.waiting ?? 0), ahead: Number(row?.ahead ?? 0) };
    },

    /** Ends an open place; answers the row as it was when it was still open (undefined when none was). */
    async end(entryId: string, status: Extract<WaitlistStatus, 'left' | 'closed'>, now: Date): Promise<WaitlistEntryRow | undefined> {
      const [row] = await db
        .update(waitlistEntries)
        .set({ status, updatedAt: now })
        .where(and(eq(waitlistEntries.id, entryId), inArray(waitlistEntries.status, OPEN)))
        .returning();
      return row;
    },

    /** Every open place of the event ends (cancelled, started, or no longer selling). */
    async closeAll(eventId: string, now: Date): Promise<number> {
      const rows = await db
        .update(waitlistEntries)
        .set({ status: 'closed', updatedAt: now })
        .where(and(eq(waitlistEntries.eventId, eventId), inArray(waitlistEntries.status, OPEN)))
        .returning({ id: waitlistEntries.id });
      return rows.length;
    },

    /** Offers whose time ran out end `expired`: their seats pass to the next person. */
    async expireOffers(eventId: string, now: Date) {
      return db
        .update(waitlistEntries)
        .set({ status: 'expired', updatedAt: now })
        .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.status, 'offered'), lte(waitlistEntries.offerExpiresAt, now)))
        .returning({ id: waitlistEntries.id, userId: waitlistEntries.userId });
    },

    /** The first `limit` people waiting, in the order they joined, with where to tell them. */
    async nextWaiting(eventId: string, limit: number) {
      return db
        .select({ entry: waitlistEntries, email: users.email, username: users.username, language: users.language })
        .from(waitlistEntries)
        .innerJoin(users, eq(users.id, waitlistEntries.userId))
        .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.status, 'waiting')))
        .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
        .limit(limit);
    },

    async offer(entryId: string, quantity: number, now: Date, expiresAt: Date): Promise<WaitlistEntryRow | undefined> {
      const [row] = await db
        .update(waitlistEntries)
        .set({ status: 'offered', offeredQuantity: quantity, offeredAt: now, offerExpiresAt: expiresAt, updatedAt: now })
        .where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.status, 'waiting')))
        .returning();
      return row;
    },

    /** Events whose waitlist may have work: people waiting, or offers that ran out. */
    async eventsWithWork(now: Date, limit: number): Promise<string[]> {
      const rows = await db
        .selectDistinct({ eventId: waitlistEntries.eventId })
        .from(waitlistEntries)
        .where(or(eq(waitlistEntries.status, 'waiting'), and(eq(waitlistEntries.status, 'offered'), lte(waitlistEntries.offerExpiresAt, now))))
        .limit(limit);
      return rows.map((row) => row.eventId);
    },

    async hasOpen(eventId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: waitlistEntries.id })
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.eventId, eventId), inArray(waitlistEntries.status, OPEN)))
        .limit(1);
      return Boolean(row);
    },

    /** The organiser's view: counts by status and the places, open ones first in queue order, then the latest ended ones. */
    async listForEvent(eventId: string, limit: number) {
      const counts = await db
        .select({ status: waitlistEntries.status, n: sql<number>`count(*)::int` })
        .from(waitlistEntries)
        .where(eq(waitlistEntries.eventId, eventId))
        .groupBy(waitlistEntries.status);
      const rows = await db
        .select({ entry: waitlistEntries, username: users.username })
        .from(waitlistEntries)
        .innerJoin(users, eq(users.id, waitlistEntries.userId))
        .where(eq(waitlistEntries.eventId, eventId))
        .orderBy(
          sql`case when ${waitlistEntries.status} in ('waiting', 'offered') then 0 else 1 end`,
          sql`case when ${waitlistEntries.status} in ('waiting', 'offered') then ${waitlistEntries.createdAt} end asc`,
          desc(waitlistEntries.updatedAt),
          asc(waitlistEntries.id),
        )
        .limit(limit);
      return { counts: Object.fromEntries(counts.map((row) => [row.status, Number(row.n)])) as Partial<Record<WaitlistStatus, number>>, rows };
    },
  };
}
