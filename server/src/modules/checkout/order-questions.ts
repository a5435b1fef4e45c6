import type { Executor } from '../../db/database.js';
import { createPaymentsRepository } from './payments.repository.js';

/**
 * What modules below or beside checkout may ask about orders and payments, and nothing more: each answers in
 * the caller's executor (its transaction, when it holds one). app.ts hands these to the ports events and tickets
 * declare; the waitlist and operations call them directly.
 */
export function orderQuestions(executor: Executor) {
  const repo = createPaymentsRepository(executor);
  return {
    /** Orders per status for an event (an event with orders is cancelled, never deleted). */
    orderCountsForEvent: (eventId: string) => repo.orderCountsForEvent(eventId),
    /** A paid order of this user for this event: its tickets came with the payment. */
    paidOrderFor: (eventId: string, userId: string) => repo.paidOrderFor(eventId, userId),
    /** The phone a user last paid from with M-Pesa (where an SMS reaches them), if any. */
    latestPhoneOf: (userId: string) => repo.latestPhoneOf(userId),
    /** Holds taken between `from` and `to` whose push was never recorded (an operator's alert). */
    countHoldsWithoutPush: (from: Date, to: Date) => repo.countHoldsWithoutPush(from, to),
  };
}
