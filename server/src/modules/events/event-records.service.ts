import type { Executor } from '../../db/database.js';
import { createEventsRepository, recordActivity, type EventRow, type NewEvent } from './events.repository.js';

/*
 * Events as other modules and the composition code need them, one function per use case: the event a
 * refund, cancellation or dashboard is about, its cancellation's write, the registrations trending counts,
 * the demo events bootstrap seeds. They take an Executor (the database or the caller's transaction) and
 * announce nothing on the change feed: the caller publishes once its transaction commits (refunds'
 * cancellation does). The organiser's and the admin's flows stay in the events service.
 */

/** The event (any status, cancelled included) with its valid tickets counted; undefined when there is none. */
export function findEvent(executor: Executor, eventId: string): Promise<EventRow | undefined> {
  return createEventsRepository(executor).findById(eventId);
}

/**
 * Marks the event cancelled with its reason and time, remembering the status it had (a published one stays
 * public); undefined when there is no such event or it is cancelled already. The caller holds the event row
 * lock (refunds' event cancellation, docs/decisions/refunds.md).
 */
export function markEventCancelled(executor: Executor, eventId: string, reason: string, at: Date): Promise<EventRow | undefined> {
  return createEventsRepository(executor).cancel(eventId, reason, at);
}

/**
 * Counts `quantity` registrations for the event into the UTC `day`'s activity row, which feeds the trending
 * ranking (docs/decisions/trending.md). The tickets module calls it in the transaction that issues them.
 */
export function countRegistrations(executor: Executor, eventId: string, quantity: number, day: string): Promise<void> {
  return recordActivity(executor, eventId, 'registrations', quantity, day);
}

/** An event written as given, for seeding (bootstrap's demo events): no review, geocoding or mail. */
export function seedEvent(executor: Executor, event: NewEvent): Promise<EventRow> {
  return createEventsRepository(executor).insert(event);
}

/** Whether the account organises events (has created one, of any status): who may set where their takings are paid. */
export function organisesEvents(executor: Executor, userId: string): Promise<boolean> {
  return createEventsRepository(executor).hasAnyByUser(userId);
}
