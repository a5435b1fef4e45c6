import { useEffect, useRef } from 'react';
import { useFetch } from '../../../hooks/use-fetch';
import { getToken } from '../../../lib/session-store';
import { countEventOpened, getEvent, type EventItem } from '../api/events-api';

/**
 * The event the server embedded in the page for a visitor who opened /events/:id directly
 * (server/src/modules/events/event-page.ts): the same body GET /api/events/:id gives a visitor.
 * Used once, and only without a session (a signed-in user's view can differ: own pending
 * events, registration); later loads always ask the API.
 */
function takeEmbeddedEvent(id: string): EventItem | undefined {
  const element = document.getElementById('event-data');
  if (!element) return undefined;
  element.remove();
  if (getToken()) return undefined;
  try {
    const event = JSON.parse(element.textContent ?? '') as EventItem | null;
    return event && event._id === id ? event : undefined;
  } catch {
    return undefined;
  }
}

/** Loads one event and counts the visit once per page view (and once more per event opened from it). */
export function useEventDetail(id: string) {
  const state = useFetch(`events:detail:${id}`, (signal) => {
    const embedded = takeEmbeddedEvent(id);
    return embedded ? Promise.resolve(embedded) : getEvent(id, signal);
  });

  const counted = useRef<string | null>(null);
  useEffect(() => {
    if (counted.current === id) return;
    counted.current = id;
    countEventOpened(id).catch(() => undefined);
  }, [id]);

  return state;
}
