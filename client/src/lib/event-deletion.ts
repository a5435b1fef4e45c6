/*
 * Deleting an event (DELETE /api/events/:id, from /profile and /admin). The server decides what happens: an
 * event nobody has ordered is deleted; one with orders is cancelled instead (every ticket voided, every
 * buyer refunded) and the answer says so with `cancelled: true`. Both pages ask and report the same way.
 */
import type { TukioEvent } from '../types/api';
import { t } from './i18n';

export interface DeleteEventResult {
  msg?: string;
  cancelled?: boolean;
}

/**
 * The question before deleting; it warns that sold tickets turn the deletion into a cancellation. Events
 * of the paged lists carry `ticketsSold` instead of `registeredUsers`.
 */
export function deleteEventQuestion(event: Pick<TukioEvent, 'title' | 'isPaid' | 'ticketsSold'> & { registeredUsers?: readonly string[] }): string {
  return event.isPaid && ((event.ticketsSold ?? 0) > 0 || (event.registeredUsers?.length ?? 0) > 0)
    ? t('ui.deleteWithTickets', { title: event.title })
    : t('ui.deleteQuestion');
}

/** What to tell the person once the server answered. */
export function deleteEventOutcome(result: DeleteEventResult): { cancelled: boolean; message: string } {
  const cancelled = result.cancelled === true;
  const fallback = cancelled ? t('ui.deletedAsCancelled') : t('ui.eventDeleted');
  return { cancelled, message: result.msg?.trim() || fallback };
}
