import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface FetchState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Run the fetcher again. */
  reload: () => void;
  /** Replace the data locally (e.g. after a successful mutation). */
  setData: (update: (current: T | undefined) => T | undefined) => void;
}

/**
 * Minimal data-loading hook. `key` identifies the request: when it changes the fetcher runs
 * again; `null` skips fetching. The fetcher receives an AbortSignal (pass it to axios as
 * `{ signal }`) and stale answers are ignored. `initial` (read once, on mount) is data the page
 * already has for the first key, e.g. embedded in the HTML: it is shown without fetching.
 */
export function useFetch<T>(key: string | null, fetcher: (signal: AbortSignal) => Promise<T>, initial?: () => T | undefined): FetchState<T> {
  const fetcherRef = useRef(fetcher);
  useLayoutEffect(() => {
    fetcherRef.current = fetcher;
  });

  const [version, setVersion] = useState(0);
  const requestKey = key === null ? null : `${key}#${version}`;
  const [state, setState] = useState<{ key: string | null; data?: T; error?: unknown }>(() => {
    const data = requestKey === null ? undefined : initial?.();
    return data === undefined ? { key: null } : { key: requestKey, data };
  });

  const stateKeyRef = useRef(state.key);
  useLayoutEffect(() => {
    stateKeyRef.current = state.key;
  });

  useEffect(() => {
    if (requestKey === null) return;
    // Already answered (the initial data): nothing to ask. A reload or a new key changes requestKey.
    if (stateKeyRef.current === requestKey) return;
    const controller = new AbortController();
    // Answers render as transitions: React renders a long list (the home page's cards) in small
    // slices that let input through, instead of one long task.
    fetcherRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) startTransition(() => setState({ key: requestKey, data }));
      },
      (error: unknown) => {
        if (!controller.signal.aborted) startTransition(() => setState({ key: requestKey, error }));
      },
    );
    return () => controller.abort();
  }, [requestKey]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const setData = useCallback(
    (update: (current: T | undefined) => T | undefined) =>
      setState((current) => ({ ...current, data: update(current.data) })),
    [],
  );

  const settled = requestKey !== null && state.key === requestKey;
  return {
    data: state.data,
    error: settled ? state.error : undefined,
    loading: requestKey !== null && !settled,
    reload,
    setData,
  };
}
