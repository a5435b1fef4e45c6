import { startTransition, use, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { earlyReadsGeneration, earlyReadsTaken, hasEarlyReads } from '../lib/early-reads';

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
 * On the page the tab opened with, an answer fetched early waits for the first render (see
 * `useFirstAnswer`).
 */
export function useFetch<T>(key: string | null, fetcher: (signal: AbortSignal) => Promise<T>, initial?: () => T | undefined): FetchState<T> {
  const fetcherRef = useRef(fetcher);
  useLayoutEffect(() => {
    fetcherRef.current = fetcher;
  });

  const [version, setVersion] = useState(0);
  const requestKey = key === null ? null : `${key}#${version}`;
  const [mountKey] = useState(requestKey);
  const first = useFirstAnswer(requestKey === mountKey ? requestKey : null, fetcher) as Answer<T> | null;
  const [state, setState] = useState<{ key: string | null; data?: T; error?: unknown }>(() => {
    if (first) return { key: requestKey, ...first };
    const data = requestKey === null ? undefined : initial?.();
    return data === undefined ? { key: null } : { key: requestKey, data };
  });

  const stateKeyRef = useRef(state.key);
  useLayoutEffect(() => {
    stateKeyRef.current = state.key;
  });

  useEffect(() => {
    if (requestKey === null) return;
    const started = claimFirstAnswer(requestKey);
    // Already answered (the initial data): nothing to ask. A reload or a new key changes requestKey.
    if (stateKeyRef.current === requestKey) return;
    const controller = new AbortController();
    // Answers render as transitions: React renders a long list (the home page's cards) in small
    // slices that let input through, instead of one long task.
    void (started ?? toAnswer(fetcherRef.current(controller.signal))).then((answer) => {
      if (!controller.signal.aborted) startTransition(() => setState({ key: requestKey, ...(answer as Answer<T>) }));
    });
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

type Answer<T> = { data: T } | { error: unknown };

const toAnswer = <T>(request: Promise<T>): Promise<Answer<T>> => request.then((data) => ({ data }), (error: unknown) => ({ error }));

/** How long a first render waits for an answer fetched early before it shows its loading state instead. */
const FIRST_ANSWER_WAIT_MS = 1500;

/** Requests started by a first render, by request key, for the effect to take over (never asked twice). */
const firstAnswers = new Map<string, { generation: number; answer: Promise<Answer<unknown>>; waited: Promise<Answer<unknown> | null> | null; claimed: boolean }>();

/**
 * The page the tab opened with renders once, with its data: while answers fetched early for it are
 * waiting (src/lib/early-reads.ts), a component's first render runs its fetcher at once and, when
 * the request was one of them, suspends until the answer is there (at most FIRST_ANSWER_WAIT_MS;
 * the route's Suspense fallback stays meanwhile). Rendering loading states first and the data a
 * moment later would move everything below them (layout shift). `key` null: nothing to do.
 */
function useFirstAnswer(key: string | null, fetcher: (signal: AbortSignal) => Promise<unknown>): Answer<unknown> | null {
  if (key === null) return null;
  let entry = firstAnswers.get(key);
  if (entry && entry.generation !== earlyReadsGeneration()) {
    firstAnswers.delete(key);
    entry = undefined;
  }
  if (!entry) {
    if (!hasEarlyReads()) return null;
    const takenBefore = earlyReadsTaken();
    const answer = toAnswer(fetcher(new AbortController().signal));
    const early = earlyReadsTaken() !== takenBefore;
    const waited = early ? Promise.race([answer, new Promise<null>((resolve) => setTimeout(resolve, FIRST_ANSWER_WAIT_MS, null))]) : null;
    entry = { generation: earlyReadsGeneration(), answer, waited, claimed: false };
    firstAnswers.set(key, entry);
  }
  return entry.waited && !entry.claimed ? use(entry.waited) : null;
}

/** The request a first render started for `key`, handed to the mounted component's effect once. */
function claimFirstAnswer(key: string): Promise<Answer<unknown>> | null {
  const entry = firstAnswers.get(key);
  if (!entry || entry.claimed || entry.generation !== earlyReadsGeneration()) return null;
  entry.claimed = true;
  return entry.answer;
}
