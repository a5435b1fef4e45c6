import { EVENT_LIST_PAGE_SIZE, eventSearchPath, readEventListFilters } from '@tukio/shared/event-search';
import type { RouteData } from '../../lib/app-shell.js';
import { escapeHtml } from '../../lib/html.js';
import { jsonForScript } from './event-page.js';
import { searchQuery } from './events.schemas.js';
import type { EventsService } from './events.service.js';

/** The element the client reads the embedded search from (client: features/events/api/initial-event.ts). */
export const INITIAL_SEARCH_ELEMENT_ID = 'initial-events';

/**
 * The /events page (the client route) carries the answer to its first search: the same body
 * `GET /api/events` answers for the path our client would ask (same filters from the address, same page
 * size, same order of parameters), named in `data-path` so the client only uses it for that request. The
 * list then paints when the page's code has loaded, one request earlier on a slow network. The search is
 * public (the same for every visitor). An address whose filters the API would refuse gets no data: the
 * page asks, and shows the API's message.
 */
export function eventListPageData(events: EventsService): RouteData {
  return async (req) => {
    const filters = readEventListFilters(new URL(req.originalUrl, 'http://page').searchParams);
    const path = eventSearchPath({ ...filters, limit: EVENT_LIST_PAGE_SIZE });
    const query = searchQuery.safeParse(Object.fromEntries(new URL(path, 'http://api').searchParams));
    if (!query.success) return undefined;
    const answer = await events.search(query.data);
    return {
      head: `<script type="application/json" id="${INITIAL_SEARCH_ELEMENT_ID}" data-path="${escapeHtml(path)}">${jsonForScript(answer)}</script>`,
    };
  };
}
