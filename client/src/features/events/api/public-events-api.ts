/*
 * The public event lists the home route shows on its first paint. They are the same for every
 * visitor, so they are read anonymously with `fetch` (lib/public-get.ts) and the home route does
 * not download axios. Import them from here in code that must stay light; ./events-api re-exports
 * them for everyone else.
 */
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
