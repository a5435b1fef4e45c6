/**
 * The /events page and the API search it reads, as the client and the server both need them: the server
 * puts the answer to the page's first search into the page (server/src/modules/events/event-list-page.ts),
 * under the exact API path the client would ask for (client/src/features/events), so the list paints
 * without that request.
 */

/** Events per page of the /events list. */
export const EVENT_LIST_PAGE_SIZE = 12;

export interface EventListFilters {
  q: string;
  location: string;
  free: boolean;
  page: number;
}

/** The /events page's filters from its address (?q=&location=&free=true&page=); missing or odd values are defaults. */
export function readEventListFilters(params: URLSearchParams): EventListFilters {
  const page = Number(params.get('page'));
  return {
    q: params.get('q') ?? '',
    location: params.get('location') ?? '',
    free: params.get('free') === 'true',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/**
 * The query of the /events page's address, and with `limit` of its API search, in one order (the server
 * matches the client's path exactly); empty values are left out.
 */
export function eventListQuery(filters: Partial<EventListFilters> & { limit?: number }): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.q?.trim()) query.set('q', filters.q.trim());
  if (filters.location?.trim()) query.set('location', filters.location.trim());
  if (filters.free) query.set('free', 'true');
  if (filters.page && filters.page > 1) query.set('page', String(filters.page));
  if (filters.limit) query.set('limit', String(filters.limit));
  return query;
}

/** `/events?…`, the API path (under /api) of one page of the public search. */
export function eventSearchPath(filters: Partial<EventListFilters> & { limit?: number }): string {
  const search = eventListQuery(filters).toString();
  return `/events${search ? `?${search}` : ''}`;
}
