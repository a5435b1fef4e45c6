import { api } from '../../../lib/api-client';

/**
 * POST /api/admin/events/:id/shred (admin) {reason}: the event's buyers' phones, guest emails and gate device
 * names erased now. 409 when it has not ended, has refunds to pay, or was erased already (the message says which).
 */
export async function shredEvent(eventId: string, reason: string): Promise<{ rowsErased: number }> {
  const { data } = await api.post<{ rowsErased: number }>(`/admin/events/${encodeURIComponent(eventId)}/shred`, { reason });
  return data;
}
