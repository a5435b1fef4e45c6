import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { eventPendingChanges } from './events.schema.js';

export type PendingChangeRow = typeof eventPendingChanges.$inferSelect;

/** An organiser's proposed edit of a published event, waiting for review (docs/decisions/events.md). */
export function createEventChangesRepository(db: Executor) {
  return {
    async find(eventId: string): Promise<PendingChangeRow | undefined> {
      const [row] = await db.select().from(eventPendingChanges).where(eq(eventPendingChanges.eventId, eventId)).limit(1);
      return row;
    },

    /** The set still waiting, locked until the caller's transaction ends (approving and rejecting take it). */
    async lockPending(eventId: string): Promise<PendingChangeRow | undefined> {
      const [row] = await db
        .select()
        .from(eventPendingChanges)
        .where(and(eq(eventPendingChanges.eventId, eventId), eq(eventPendingChanges.status, 'pending')))
        .for('update');
      return row;
    },

    /** Replaces the event's set (a rejected one too) with this proposal. */
    async propose(eventId: string, proposal: { changes: Record<string, unknown>; pausesSales: boolean; proposedBy: string }, at: Date): Promise<PendingChangeRow> {
      const values = { ...proposal, status: 'pending' as const, proposedAt: at, decidedAt: null, rejectReason: null };
      const [row] = await db
        .insert(eventPendingChanges)
        .values({ eventId, ...values })
        .onConflictDoUpdate({ target: eventPendingChanges.eventId, set: values })
        .returning();
      return row!;
    },

    async reject(eventId: string, reason: string | null, at: Date): Promise<PendingChangeRow | undefined> {
      const [row] = await db
        .update(eventPendingChanges)
        .set({ status: 'rejected', pausesSales: false, decidedAt: at, rejectReason: reason })
        .where(and(eq(eventPendingChanges.eventId, eventId), eq(eventPendingChanges.status, 'pending')))
        .returning();
      return row;
    },

    /** Drops the event's set (applied, withdrawn or dismissed); true when there was one. */
    async remove(eventId: string): Promise<boolean> {
      const rows = await db.delete(eventPendingChanges).where(eq(eventPendingChanges.eventId, eventId)).returning({ eventId: eventPendingChanges.eventId });
      return rows.length > 0;
    },

    /** Sets waiting for review, oldest first (at most `limit`). */
    async listPending(limit: number): Promise<PendingChangeRow[]> {
      return db.select().from(eventPendingChanges).where(eq(eventPendingChanges.status, 'pending')).orderBy(asc(eventPendingChanges.proposedAt)).limit(limit);
    },

    /** Whether the event's sales are paused by a set waiting for review (the purchase and registration paths ask). */
    async salesPaused(eventId: string): Promise<boolean> {
      const [row] = await db
        .select({ paused: eventPendingChanges.pausesSales })
        .from(eventPendingChanges)
        .where(and(eq(eventPendingChanges.eventId, eventId), eq(eventPendingChanges.status, 'pending'), eq(eventPendingChanges.pausesSales, true)))
        .limit(1);
      return Boolean(row?.paused);
    },
  };
}
