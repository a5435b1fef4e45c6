/*
 * The public event lists of the home route's two rows (the /events search is in ./search-events-api, out
 * of the home page's first load). They are the same for every visitor, so they are read anonymously.
 * Import them from here in code that must stay light; ./events-api re-exports them for everyone else.
 */
import { api } from '../../../lib/api-client';
import type { EventItem } from './events-api';

/** A list answer as an array (anything else: empty). */
export const asArray = <T>(data: unknown): T[] => (Array.isArray(data) ? (data as T[]) : []);

/** GET /api/events/popular -> bare array ("What's Trending Now"). */
export async function getPopularEvents(signal?: AbortSignal): Promise<EventItem[]> {
  return asArray<EventItem>((await api.get('/events/popular', { signal, skipAuth: true })).data);
}

/** GET /api/events/upcoming -> bare array, soonest first. */
export async function getUpcomingEvents(signal?: AbortSignal): Promise<EventItem[]> {
  return asArray<EventItem>((await api.get('/events/upcoming', { signal, skipAuth: true })).data);
}
