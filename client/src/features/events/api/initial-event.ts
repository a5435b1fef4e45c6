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

/** The JSON the server put into the page under `elementId`, removed from the page either way: it serves one read. */
function takeEmbedded(elementId: string): { element: HTMLElement; data: unknown } | undefined {
  const element = document.getElementById(elementId);
  if (!element) return undefined;
  element.remove();
  try {
    return { element, data: JSON.parse(element.textContent ?? '') };
  } catch {
    return undefined;
  }
}

/** The embedded answer of GET /api{path} (an /events search) when it is the one asked for. */
export function takeInitialSearch(path: string): EventPage | undefined {
  const embedded = takeEmbedded(SEARCH_ELEMENT_ID);
  return embedded?.element.dataset.path === path ? toEventPage(embedded.data as Partial<EventPage>) : undefined;
}

/** The embedded event when it is the one asked for. */
export function takeInitialEvent(id: string): EventItem | undefined {
  const event = takeEmbedded(ELEMENT_ID)?.data as EventItem | undefined;
  return event?._id === id ? event : undefined;
}
