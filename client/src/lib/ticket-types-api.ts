/*
 * An event's ticket types (server/src/modules/ticket-types): shared because the events feature's forms edit
 * them and the tickets feature's box sells them.
 */
import type { TicketTypesView } from '../types/api';
import { api } from './api-client';

/** GET /api/events/:id/ticket-types -> the types in order, each with what is left and its sale state. */
export async function getTicketTypes(eventId: string, signal?: AbortSignal): Promise<TicketTypesView> {
  return (await api.get<TicketTypesView>(`/events/${encodeURIComponent(eventId)}/ticket-types`, { signal })).data;
}

