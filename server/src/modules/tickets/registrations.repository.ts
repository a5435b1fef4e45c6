import { and, eq, inArray, isNull, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { tickets } from './tickets.schema.js';

/**
 * A ticket its holder gave up (cancelled it, or transferred it) no longer registers them; one voided
 * because the event was cancelled still does (its holder keeps reading the event, its forum and reviews).
 */
export const heldTicket = or(isNull(tickets.voidReason), eq(tickets.voidReason, 'event_cancelled'));

/**
 * The same registered user ids as a column of a statement that reads events (`eventId`, its event id column):
 * search reads them with the events, in its one statement.
 */
export function registeredUserIdsColumn(eventId: Column | SQL): SQL<string[]> {
  return sql<string[]>`array(select distinct ${tickets.userId} from ${tickets} where ${tickets.eventId} = ${eventId} and ${heldTicket})`;
}

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
        .where(and(eq(tickets.eventId, eventId), eq(tickets.userId, userId), heldTicket))
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
        .where(and(inArray(tickets.eventId, eventIds), heldTicket));
      for (const row of rows) result.get(row.eventId)?.push(row.userId);
      return result;
    },
  };
}
