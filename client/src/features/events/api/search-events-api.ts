/*
 * The /events search, read anonymously like the home rows (./public-events-api) but in a module of its own:
 * a module travels whole in one chunk, and the home page's first load carries ./public-events-api.
 */
import { eventSearchPath } from '@tukio/shared/event-search';
import { api } from '../../../lib/api-client';
import type { EventItem } from './events-api';
import { asArray } from './public-events-api';

export interface EventSearchParams {
  q?: string;
  location?: string;
  free?: boolean;
  page?: number;
  limit?: number;
}

export interface EventPage {
  items: EventItem[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

/** The answer of GET /api/events as the page uses it (missing fields filled in). */
export function toEventPage(data: Partial<EventPage> | undefined): EventPage {
  const items = asArray<EventItem>(data?.items);
  return {
    items,
    total: typeof data?.total === 'number' ? data.total : items.length,
    page: typeof data?.page === 'number' ? data.page : 1,
    limit: typeof data?.limit === 'number' ? data.limit : items.length,
    pages: typeof data?.pages === 'number' ? data.pages : 1,
  };
}

/** GET /api/events?q=&location=&free=&page=&limit= -> one page of approved events dated today or later. */
export async function searchEvents(params: EventSearchParams, signal?: AbortSignal): Promise<EventPage> {
  return toEventPage((await api.get<Partial<EventPage> | undefined>(eventSearchPath(params), { signal, skipAuth: true })).data);
}
