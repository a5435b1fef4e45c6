import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { tickets } from '../../db/schema.js';

/**
 * "Registered for an event" means holding at least one ticket for it. Events (registeredUsers),
 * reviews and forums all ask through here so the rule lives in one place.
 */
export function createRegistrationsRepository(db: Executor) {
  return {
    async isRegistered(eventId: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(tickets)
        .where(and(eq(tickets.eventId, eventId), eq(tickets.userId, userId)))
        .limit(1);
      return Boolean(row);
    },

    /** Distinct registered user ids per event, for the contract's `registeredUsers` arrays. */
    async registeredUserIds(eventIds: string[]): Promise<Map<string, string[]>> {
      const result = new Map<string, string[]>(eventIds.map((id) => [id, []]));
      if (eventIds.length === 0) return result;
      const rows = await db
        .selectDistinct({ eventId: tickets.eventId, userId: tickets.userId })
        .from(tickets)
        .where(inArray(tickets.eventId, eventIds));
      for (const row of rows) result.get(row.eventId)?.push(row.userId);
      return result;
    },
  };
}
