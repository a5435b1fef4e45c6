/*
 * Second entry script of index.html (added by the build, see vite.config.ts `routePreloader`). It
 * has no React in its imports, so it runs as soon as its few bytes arrive and asks for the code of
 * the route being opened (modulepreload: fetched and compiled, run later by React.lazy), in
 * parallel with React instead of after it. The build lists each route's files, beyond those the
 * entry already loads, in <script type="application/json" id="route-files"> (data, not code).
 * For a signed-in page it also starts the API reads the page will make first (./app/route-early-reads).
 */
import { earlyCardPainted, preloadFile, routeFileLists } from './app/route-code-gate';
import { startRouteEarlyReads } from './app/route-early-reads';
import { matchRoute } from './app/route-match';
import { applyLanguage, initialLanguage } from './lib/i18n/language';

const route = matchRoute(window.location.pathname);
const language = initialLanguage();
// <html lang> and the cookie the server reads for the next page's shell (a first visit's choice comes
// from the browser's languages and is not yet the device's own: not stored).
applyLanguage(language, false);
// A Kiswahili reader's texts for the first load and this route, fetched with the code (src/main.tsx waits for them).
const catalogData = language === 'sw' ? document.getElementById('catalog-files')?.textContent : undefined;
if (catalogData) {
  try {
    const catalogs = JSON.parse(catalogData) as { sw: Record<string, string | undefined>; areas: Record<string, string[] | undefined> };
    const areas = new Set([...(catalogs.areas[''] ?? []), ...((route && catalogs.areas[route.routeFile]) || [])]);
    for (const area of areas) {
      const file = catalogs.sw[area];
      if (file) preloadFile(file);
    }
  } catch {
    // no hints: the app asks for them itself
  }
}
const lists = routeFileLists();
if (route && lists) {
  // A signed-in page's top, from the stored session, as soon as its stylesheets are here (./app/route-shell.ts,
  // loaded only for such a page: the other pages' first load stays as light); its other files once that is painted.
  if (document.getElementById(`route-shell-${route.routeFile}`)) void earlyCardPainted();
  else for (const file of lists[route.routeFile] ?? []) preloadFile(file);
}
// A signed-in page's first API reads (src/lib/early-reads.ts), after the route's files: the browser has a
// few connections to the server, and the route's stylesheets (which its first render waits for) must not
// queue behind five API answers. Where the page has an early card, after it is painted.
if (route) void earlyCardPainted().then(() => startRouteEarlyReads(route));
