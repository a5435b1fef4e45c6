import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useFetch } from '../../../hooks/use-fetch';
import { searchEvents } from '../api/public-events-api';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';

export const PAGE_SIZE = 12;
const TYPING_DELAY_MS = 350;

export interface SearchFilters {
  q: string;
  location: string;
  free: boolean;
}

function readFilters(params: URLSearchParams): SearchFilters & { page: number } {
  const page = Number(params.get('page'));
  return {
    q: params.get('q') ?? '',
    location: params.get('location') ?? '',
    free: params.get('free') === 'true',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** Builds the query string of the /events page (empty values left out). */
export function eventsSearch(filters: Partial<SearchFilters> & { page?: number }): URLSearchParams {
  const next = new URLSearchParams();
  if (filters.q?.trim()) next.set('q', filters.q.trim());
  if (filters.location?.trim()) next.set('location', filters.location.trim());
  if (filters.free) next.set('free', 'true');
  if (filters.page && filters.page > 1) next.set('page', String(filters.page));
  return next;
}

/**
 * State of the /events page. The URL (?q=&location=&free=&page=) is the source of truth; the text
 * boxes are written to it after a short pause in typing, and each URL loads exactly one page from
 * the server-side search.
 */
export function useEventSearch() {
  const [params, setParams] = useSearchParams();
  const applied = readFilters(params);

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

  const key = `events:search:${applied.q}|${applied.location}|${applied.free}|${applied.page}`;
  const result = useFetch(key, (signal) =>
    searchEvents({ q: applied.q, location: applied.location, free: applied.free, page: applied.page, limit: PAGE_SIZE }, signal),
  );

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
