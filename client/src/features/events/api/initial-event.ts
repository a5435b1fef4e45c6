/*
 * The server puts the event of a deep-linked /events/{id} into the page as JSON
 * (<script type="application/json" id="initial-event">, server/src/modules/events/event-page.ts), the
 * same body GET /api/events/{id} answers; likewise the first page of an /events search
 * (id="initial-events", server/src/modules/events/event-list-page.ts). The page renders it at once
 * instead of asking the API after its code has loaded: the largest paint comes one request earlier on
 * a slow network. Each is read once: a later visit of the page in the same tab asks the API as usual.
 */
import type { EventItem } from './events-api';
import { toEventPage, type EventPage } from './search-events-api';

const ELEMENT_ID = 'initial-event';
const SEARCH_ELEMENT_ID = 'initial-events';

/** The embedded answer of GET /api{path} (an /events search) when it is the one asked for; removes it either way. */
export function takeInitialSearch(path: string): EventPage | undefined {
  const element = document.getElementById(SEARCH_ELEMENT_ID);
  if (!element) return undefined;
  element.remove();
  if (element.dataset.path !== path) return undefined;
  try {
    return toEventPage(JSON.parse(element.textContent ?? '') as Partial<EventPage>);
  } catch {
    return undefined;
  }
}

/** The embedded event when it is the one asked for; removes it either way. */
export function takeInitialEvent(id: string): EventItem | undefined {
  const element = document.getElementById(ELEMENT_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const event = JSON.parse(element.textContent ?? '') as EventItem;
    return event._id === id ? event : undefined;
  } catch {
    return undefined;
  }
}
