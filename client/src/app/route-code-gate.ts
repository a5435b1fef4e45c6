/**
 * The order of a signed-in page's first load: the card painted from the stored session (./route-shell.ts)
 * comes first, then the route's code and its first API reads. Two scripts start the page, the route
 * preloader (src/preload-route.ts) and the app's entry (src/main.tsx), and either may run first (the
 * preloader is small but arrives in parallel with React); both go through here, so whichever asks first
 * starts the card and the other waits for the same paint. On a slow phone the card is painted long before
 * React has arrived, so nothing waits; on a fast one React waits a frame rather than share the network and
 * the main thread with the card's first paint. Free of React: the preloader imports it.
 */
import { ROUTE_SHELL_FILES } from '@tukio/shared/client-routes';
import { matchRoute } from './route-match';

/** Asks for a file the route will need (modulepreload: fetched and compiled, run later), unless the page already names it. */
export function preloadFile(file: string): void {
  const href = `/${file}`;
  // The API server names the route's files in the page it sends (server/src/lib/app-shell.ts); this
  // covers pages served otherwise (the dev server, a static host).
  if (document.head.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = file.endsWith('.css') ? 'preload' : 'modulepreload';
  if (file.endsWith('.css')) link.as = 'style';
  link.crossOrigin = '';
  link.href = href;
  document.head.append(link);
}

/** Each route's files beyond those the entry loads, which the build lists in the page (data, not code). */
export function routeFileLists(): Record<string, string[] | undefined> | undefined {
  const data = document.getElementById('route-files')?.textContent;
  if (!data) return undefined;
  try {
    return JSON.parse(data) as Record<string, string[] | undefined>;
  } catch {
    return undefined;
  }
}

let settled: Promise<void> | undefined;

/**
 * For a page that carries an early card (`<template id="route-shell-…">`): paints it once its stylesheets are
 * in, then asks for the route's other files. Settles once the route's code may be asked for: after the card is
 * painted, or at once for a page without one. The same promise for every caller.
 */
export function earlyCardPainted(): Promise<void> {
  return (settled ??= paintEarlyCard());
}

function paintEarlyCard(): Promise<void> {
  const route = matchRoute(window.location.pathname);
  const lists = routeFileLists();
  if (!route || !lists || !document.getElementById(`route-shell-${route.routeFile}`)) return Promise.resolve();
  const files = lists[route.routeFile] ?? [];
  const stylesheets = files.filter((file) => file.endsWith('.css'));
  // What paints the card comes first; the route's code, which would share a slow phone's bandwidth with it, once it is painted.
  for (const file of [...(lists[ROUTE_SHELL_FILES] ?? []), ...stylesheets]) preloadFile(file);
  return import('./route-shell')
    .then(({ paintRouteShell }) => paintRouteShell(route, stylesheets.map((file) => `/${file}`)))
    .catch(() => undefined)
    .then(() => {
      for (const file of files) preloadFile(file);
    });
}
