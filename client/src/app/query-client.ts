import { QueryClient } from '@tanstack/react-query';

/**
 * The app's one cache of server answers (TanStack Query). A failed read shows its error at once (no
 * silent retries: the pages have their own "Try again"), and a page is read again when it is opened,
 * not when the tab regains focus or the network comes back. Offline, reads still go out (networkMode
 * 'always'): the service worker may answer them from its cache, and a page says it is unreachable
 * instead of waiting.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, networkMode: 'always' },
  },
});
