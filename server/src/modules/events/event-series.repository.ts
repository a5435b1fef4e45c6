import { and, asc, eq, max, min, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { eventDates, events } from './events.schema.js';

export type EventDateRow = typeof eventDates.$inferSelect;

/** The dates of event series (docs/decisions/event-series.md): the only code writing event_dates. */
export function createEventSeriesRepository(db: Executor) {
  return {
    /** Every date of the event, cancelled ones included, earliest first. */
    listDates(eventId: string): Promise<EventDateRow[]> {
      return db.select().from(eventDates).where(eq(eventDates.eventId, eventId)).orderBy(asc(eventDates.startsAt), asc(eventDates.id));
    },

    async findDate(eventId: string, dateId: string): Promise<EventDateRow | undefined> {
      const [row] = await db.select().from(eventDates).where(and(eq(eventDates.eventId, eventId), eq(eventDates.id, dateId)));
      return row;
    },

    async insertDate(eventId: string, input: { startsAt: Date; endsAt: Date | null; capacity: number | null }): Promise<EventDateRow> {
      const [row] = await db.insert(eventDates).values({ id: newId(), eventId, ...input }).returning();
      return row!;
    },

    async updateDate(dateId: string, changes: Partial<Pick<EventDateRow, 'startsAt' | 'endsAt' | 'capacity'>>): Promise<EventDateRow | undefined> {
      const [row] = await db.update(eventDates).set({ ...changes, updatedAt: new Date() }).where(eq(eventDates.id, dateId)).returning();
      return row;
    },

    async cancelDate(dateId: string, at: Date): Promise<EventDateRow | undefined> {
      const [row] = await db
        .update(eventDates)
        .set({ status: 'cancelled', cancelledAt: at, updatedAt: at })
        .where(and(eq(eventDates.id, dateId), eq(eventDates.status, 'active')))
        .returning();
      return row;
    },

    async deleteDate(dateId: string): Promise<void> {
      await db.delete(eventDates).where(eq(eventDates.id, dateId));
    },

    /**
     * A series' event row starts at its earliest active date, so ordering and every rule that reads the event's
     * start (refund windows, reminders) see the series' first date; `last_date_at` holds its latest active date,
     * so lists and search keep a series while a later date remains. No active date: left as they are.
     */
    async followEarliestDate(eventId: string): Promise<void> {
      const active = and(eq(eventDates.eventId, eventId), eq(eventDates.status, 'active'));
      const earliest = db.select({ at: min(eventDates.startsAt) }).from(eventDates).where(active);
      const latest = db.select({ at: max(eventDates.startsAt) }).from(eventDates).where(active);
      await db
        .update(events)
        .set({ startsAt: sql`coalesce((${earliest}), ${events.startsAt})`, lastDateAt: sql`coalesce((${latest}), ${events.lastDateAt})`, updatedAt: new Date() })
        .where(eq(events.id, eventId));
    },
  };
}
