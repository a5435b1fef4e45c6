import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { events } from '../events/index.js';

export interface EventRef {
  id: string;
  startsAt: Date;
  /** With `userId` (the organiser) and `cancelledFrom`: who may see the event (`canSeeEvent`). */
  status: string;
  userId: string;
  cancelledFrom: string | null;
}

/**
 * The little comments, reviews and forums need to know about an event: that it exists, who may see
 * it and when it starts. Kept here so this module does not depend on the events module's internals.
 */
export function createEventRefsRepository(db: Executor) {
  return {
    async find(eventId: string): Promise<EventRef | undefined> {
      const [row] = await db
        .select({ id: events.id, startsAt: events.startsAt, status: events.status, userId: events.userId, cancelledFrom: events.cancelledFrom })
        .from(events)
        .where(eq(events.id, eventId))
        .limit(1);
      return row;
    },
  };
}

export type EventRefsRepository = ReturnType<typeof createEventRefsRepository>;
