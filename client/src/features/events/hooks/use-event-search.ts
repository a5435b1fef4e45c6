import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { EVENT_LIST_PAGE_SIZE, eventListQuery, eventSearchPath, readEventListFilters, type EventListFilters } from '@tukio/shared/event-search';
import { takeInitialSearch } from '../api/initial-event';
import { searchEvents } from '../api/search-events-api';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';

export const PAGE_SIZE = EVENT_LIST_PAGE_SIZE;
const TYPING_DELAY_MS = 350;

export type SearchFilters = Omit<EventListFilters, 'page'>;

/** Builds the query string of the /events page (empty values left out). */
export const eventsSearch = (filters: Partial<SearchFilters> & { page?: number }): URLSearchParams => eventListQuery(filters);

/**
 * State of the /events page. The URL (?q=&location=&free=&page=) is the source of truth; the text
 * boxes are written to it after a short pause in typing, and each URL loads exactly one page from
 * the server-side search.
 */
export function useEventSearch() {
  const [params, setParams] = useSearchParams();
  const applied = readEventListFilters(params);

  // What is typed, ahead of the URL while the user is typing.
  const [draft, setDraft] = useState({ q: applied.q, location: applied.location });
  const debounced = useDebouncedValue(draft, TYPING_DELAY_MS);

  // The URL changed from outside (back button, a link): show its values in the boxes.
  const lastUrl = useRef({ q: applied.q, location: applied.location });
  useEffect(() => {
    if (lastUrl.current.q !== applied.q || lastUrl.current.location !== applied.location) {
      lastUrl.current = { q: applied.q, location: applied.location };
      setDraft({ q: applied.q, location: applied.location });
    }
  }, [applied.q, applied.location]);

  const commit = useCallback(
    (filters: SearchFilters, page = 1) => {
      lastUrl.current = { q: filters.q.trim(), location: filters.location.trim() };
      setParams(eventsSearch({ ...filters, page }), { replace: true, preventScrollReset: true });
    },
    [setParams],
  );

  // Typing settled: a new search starts at page 1.
  useEffect(() => {
    if (debounced.q.trim() === lastUrl.current.q && debounced.location.trim() === lastUrl.current.location) return;
    commit({ q: debounced.q, location: debounced.location, free: applied.free });
  }, [debounced, applied.free, commit]);

  const search = { q: applied.q, location: applied.location, free: applied.free, page: applied.page, limit: PAGE_SIZE };
  // The first page the server put into the page, when it is this one: no request before the list paints.
  // Served once: the same search later in the tab is asked for.
  const [embedded] = useState(() => ({ path: eventSearchPath(search), page: takeInitialSearch(eventSearchPath(search)) }));
  const initial = embedded.path === eventSearchPath(search) ? embedded.page : undefined;
  const query = useQuery({
    queryKey: ['events', 'search', search],
    queryFn: ({ signal }) => searchEvents(search, signal),
    initialData: initial,
    refetchOnMount: initial === undefined,
  });
  const result = { data: query.data, error: query.error, loading: query.isLoading, reload: () => void query.refetch() };

  return {
    applied,
    draft,
    setQuery: (q: string) => setDraft((current) => ({ ...current, q })),
    setLocation: (location: string) => setDraft((current) => ({ ...current, location })),
    setFree: (free: boolean) => commit({ q: draft.q, location: draft.location, free }),
    /** Enter in a box searches at once. */
    submit: () => commit({ q: draft.q, location: draft.location, free: applied.free }),
    clear: () => {
      setDraft({ q: '', location: '' });
      commit({ q: '', location: '', free: false });
    },
    result,
  };
}
