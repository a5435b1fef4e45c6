import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useFetch } from './use-fetch';

/** One page of a list as the server answers it (server/src/lib/keyset-page.ts). */
export interface ListPage<T> {
  items: T[];
  /** How many the whole list holds. */
  total: number;
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface PagedList<T, P extends ListPage<T> = ListPage<T>> {
  /** Every item loaded so far, pages in order. */
  items: T[];
  total: number;
  /** The first page is loading (no items to show yet). */
  loading: boolean;
  /** The first page failed. */
  error: unknown;
  hasMore: boolean;
  /** A further page is loading. */
  loadingMore: boolean;
  /** The last `loadMore` failed (the items loaded so far stay). */
  loadMoreError: unknown;
  loadMore: () => void;
  /** Starts again from the first page. */
  reload: () => void;
  /** Changes the loaded items locally after a mutation; `totalDelta` adjusts the count (e.g. -1 after a delete). */
  update: (change: (items: T[]) => T[], totalDelta?: number) => void;
  /** The first page as answered, with what a list's answer adds beside its items (a thread's head, say). */
  firstPage: P | undefined;
  /** The newest page answered (what every page carries about the whole list, e.g. a count, is freshest here). */
  lastPage: P | undefined;
}

/**
 * A list read page by page (keyset cursors): the first page through useFetch (so it shares its
 * first-render and abort rules), further pages appended on `loadMore`. `key` identifies the list
 * (filters included): a new key starts from its first page; `null` loads nothing.
 */
export function usePagedList<T, Extra extends object = object>(
  key: string | null,
  fetchPage: (cursor: string | null, signal?: AbortSignal) => Promise<ListPage<T> & Extra>,
): PagedList<T, ListPage<T> & Extra> {
  type P = ListPage<T> & Extra;
  const fetchRef = useRef(fetchPage);
  useLayoutEffect(() => {
    fetchRef.current = fetchPage;
  });
  const first = useFetch(key, (signal) => fetchRef.current(null, signal));
  // useFetch keeps the last answer while the next loads: right for a reload (the list stays on screen),
  // wrong for a new key (another filter's items would show under this one until its first page came).
  const [answeredKey, setAnsweredKey] = useState<string | null>(null);
  useEffect(() => {
    if (!first.loading && first.data !== undefined) setAnsweredKey(key);
  }, [first.loading, first.data, key]);
  const otherList = first.loading && answeredKey !== key;
  // Pages after the first, for the first page they follow (a reload or a new key leaves them behind).
  const [more, setMore] = useState<{ after: P | undefined; pages: P[]; loading: boolean; error: unknown }>({ after: undefined, pages: [], loading: false, error: undefined });
  const current = more.after === first.data ? more : { after: first.data, pages: [], loading: false, error: undefined };
  const lastPage = current.pages.at(-1) ?? first.data;
  const inFlight = useRef<object | null>(null);

  const loadMore = useCallback(() => {
    const cursor = lastPage?.nextCursor;
    if (!cursor || inFlight.current === lastPage) return;
    const after = first.data;
    inFlight.current = lastPage;
    setMore((state) => ({ ...(state.after === after ? state : { after, pages: [] }), loading: true, error: undefined }));
    fetchRef.current(cursor).then(
      (page) => setMore((state) => (state.after === after ? { after, pages: [...state.pages, page], loading: false, error: undefined } : state)),
      (error: unknown) => setMore((state) => (state.after === after ? { ...state, loading: false, error } : state)),
    ).finally(() => {
      if (inFlight.current === lastPage) inFlight.current = null;
    });
  }, [first.data, lastPage]);

  const { setData, reload } = first;
  const loadedPages = useRef(current.pages);
  useLayoutEffect(() => {
    loadedPages.current = current.pages;
  });
  const update = useCallback(
    (change: (items: T[]) => T[], totalDelta = 0) => {
      // Later pages fold into the first one, so one change sees every loaded item.
      const pages = loadedPages.current;
      setData((page) => {
        if (!page) return page;
        const last = pages.at(-1) ?? page;
        // What the pages add beside their items stays (the first page's, the freshest where every page carries it).
        return { ...page, ...last, items: change([...page.items, ...pages.flatMap((p) => p.items)]), total: Math.max(0, last.total + totalDelta), nextCursor: last.nextCursor };
      });
      setMore({ after: undefined, pages: [], loading: false, error: undefined });
    },
    [setData],
  );

  const items = first.data && !otherList ? [...first.data.items, ...current.pages.flatMap((page) => page.items)] : [];
  return {
    items,
    total: otherList ? 0 : (lastPage?.total ?? 0),
    loading: first.loading && (!first.data || otherList),
    error: first.error,
    hasMore: !otherList && Boolean(lastPage?.nextCursor),
    loadingMore: current.loading,
    loadMoreError: current.error,
    loadMore,
    reload,
    update,
    firstPage: otherList ? undefined : first.data,
    lastPage: otherList ? undefined : lastPage,
  };
}
