/*
 * An event's ticket types (server/src/modules/ticket-types): shared because the events feature's forms edit
 * them and the tickets feature's box sells them. Read with `fetch` (./public-get) like the event itself, so
 * the event page downloads no axios for it.
 */
import type { TicketTypesView } from '../types/api';
import { fetchJson } from './public-get';

/** GET /api/events/:id/ticket-types -> the types in order, each with what is left and its sale state. */
export function getTicketTypes(eventId: string, signal?: AbortSignal): Promise<TicketTypesView> {
  return fetchJson<TicketTypesView>(`/events/${encodeURIComponent(eventId)}/ticket-types`, { signal, auth: true });
}

