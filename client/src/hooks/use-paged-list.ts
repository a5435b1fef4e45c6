import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';

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
  /** Reads the first page again (the list stays on screen meanwhile). */
  reload: () => void;
  /** Changes the loaded items locally after a mutation; `totalDelta` adjusts the count (e.g. -1 after a delete). */
  update: (change: (items: T[]) => T[], totalDelta?: number) => void;
  /** The first page as answered, with what a list's answer adds beside its items (a thread's head, say). */
  firstPage: P | undefined;
  /** The newest page answered (what every page carries about the whole list, e.g. a count, is freshest here). */
  lastPage: P | undefined;
}

/**
 * A list read page by page with keyset cursors ("Load more"), on TanStack Query's useInfiniteQuery. `key`
 * identifies the list (filters included): a new key starts from its first page; `null` loads nothing.
 */
export function usePagedList<T, Extra extends object = object>(
  key: string | null,
  fetchPage: (cursor: string | null, signal?: AbortSignal) => Promise<ListPage<T> & Extra>,
): PagedList<T, ListPage<T> & Extra> {
  type P = ListPage<T> & Extra;
  const queryClient = useQueryClient();
  const queryKey = ['paged-list', key];
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: P) => last.nextCursor ?? undefined,
    enabled: key !== null,
  });
  const pages = query.data?.pages ?? [];
  const firstPage = pages[0];
  const lastPage = pages.at(-1);
  const { fetchNextPage, refetch, hasNextPage, isFetchingNextPage } = query;

  const setPages = useCallback(
    (change: (data: InfiniteData<P, string | null>) => InfiniteData<P, string | null>) =>
      queryClient.setQueryData<InfiniteData<P, string | null>>(['paged-list', key], (data) => (data ? change(data) : data)),
    [queryClient, key],
  );

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);

  const reload = useCallback(() => {
    // From the first page again: the pages after it would each be asked for too.
    setPages((data) => ({ pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) }));
    void refetch();
  }, [setPages, refetch]);

  const update = useCallback(
    (change: (items: T[]) => T[], totalDelta = 0) =>
      // The pages fold into one, so one change sees every loaded item; what the pages add beside their items
      // stays (the first page's, the freshest where every page carries it).
      setPages(({ pages: loaded }) => {
        const last = loaded.at(-1)!;
        const items = change(loaded.flatMap((page) => page.items));
        return { pages: [{ ...loaded[0]!, ...last, items, total: Math.max(0, last.total + totalDelta), nextCursor: last.nextCursor }], pageParams: [null] };
      }),
    [setPages],
  );

  const moreFailed = query.isFetchNextPageError;
  return {
    items: pages.flatMap((page) => page.items),
    total: lastPage?.total ?? 0,
    loading: query.isLoading,
    error: moreFailed ? null : query.error,
    hasMore: hasNextPage,
    loadingMore: isFetchingNextPage,
    loadMoreError: moreFailed ? query.error : null,
    loadMore,
    reload,
    update,
    firstPage,
    lastPage,
  };
}
