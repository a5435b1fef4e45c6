/*
 * The public event lists: the home route's two rows and the /events search. They are the same for
 * every visitor, so they are read anonymously with `fetch` (lib/public-get.ts) and neither page
 * downloads axios before its first paint. Import them from here in code that must stay light;
 * ./events-api re-exports them for everyone else.
 */
import { eventSearchPath } from '@tukio/shared/event-search';
import { getPublicJson } from '../../../lib/public-get';
import type { EventItem } from './events-api';

const asArray = <T>(data: unknown): T[] => (Array.isArray(data) ? (data as T[]) : []);

/** GET /api/events/popular -> bare array ("What's Trending Now"). */
export async function getPopularEvents(signal?: AbortSignal): Promise<EventItem[]> {
  return asArray<EventItem>(await getPublicJson<unknown>('/events/popular', signal));
}

/** GET /api/events/upcoming -> bare array, soonest first. */
export async function getUpcomingEvents(signal?: AbortSignal): Promise<EventItem[]> {
  return asArray<EventItem>(await getPublicJson<unknown>('/events/upcoming', signal));
}

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
  return toEventPage(await getPublicJson<Partial<EventPage> | undefined>(eventSearchPath(params), signal));
}
