import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;

/**
 * True while React renders on the server (the app shell sent in the HTML, src/prerender.tsx),
 * where nothing about the visitor (their stored session) is known.
 */
export function useIsServerRender(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => false,
    () => true,
  );
}
