/*
 * Deleting an event (DELETE /api/events/:id, from /profile and /admin). The server decides what happens: an
 * event nobody has ordered is deleted; one with orders is cancelled instead (every ticket voided, every
 * buyer refunded) and the answer says so with `cancelled: true`. Both pages ask and report the same way.
 */
import type { TukioEvent } from '../types/api';

export interface DeleteEventResult {
  msg?: string;
  cancelled?: boolean;
}

/** The question before deleting; it warns that sold tickets turn the deletion into a cancellation. */
export function deleteEventQuestion(event: Pick<TukioEvent, 'title' | 'registeredUsers' | 'isPaid'>): string {
  return event.isPaid && event.registeredUsers.length > 0
    ? `People hold tickets to “${event.title}”, so it will be cancelled instead of deleted: every ticket is voided and every buyer is refunded in full. Continue?`
    : 'Are you sure you want to delete this event? If anyone has bought a ticket meanwhile, it is cancelled instead and every buyer refunded in full.';
}

/** What to tell the person once the server answered. */
export function deleteEventOutcome(result: DeleteEventResult): { cancelled: boolean; message: string } {
  const cancelled = result.cancelled === true;
  const fallback = cancelled ? 'This event had ticket sales, so it was cancelled instead. Every buyer is being refunded.' : 'Event deleted.';
  return { cancelled, message: result.msg?.trim() || fallback };
}
