/*
 * The server puts the event of a deep-linked /events/{id} into the page as JSON
 * (<script type="application/json" id="initial-event">, server/src/modules/events/event-page.ts), the
 * same body GET /api/events/{id} answers. The detail page renders it at once instead of asking the
 * API after its code has loaded: the largest paint comes one request earlier on a slow network.
 * It is read once: a later visit of the page in the same tab asks the API as usual.
 */
import type { EventItem } from './events-api';

const ELEMENT_ID = 'initial-event';

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
