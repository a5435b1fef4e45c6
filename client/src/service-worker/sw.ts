/*
 * The service worker (docs/decisions/offline.md), built by vite-plugin-pwa (injectManifest) into
 * dist/sw.js. What it keeps:
 * - precache: the app shell (index.html), the entry and every route chunk with their CSS, the icons and
 *   the manifest, so the installed app opens with no network and a page left open keeps the code of
 *   its version until it reloads. The three heavy page-specific libraries (emoji picker, map, QR
 *   decoder) are left out to spare mobile data; they are kept once a page has used them.
 * - pages: navigations go to the network first (the server renders event pages with their data) and
 *   fall back to the last copy of that page, then to the shell.
 * - public event data and images, as they are read.
 * Tickets and gate lists are not kept here: the app saves them per signed-in user (the cache is
 * keyed by URL, not by who asked).
 * A new version installs in the background and waits: the page offers to reload into it, and sends
 * SKIP_WAITING when the user agrees (or every tab closes).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install takes the open page at once (its later chunks and reads are then kept). An update
// activates only after SKIP_WAITING, and the page reloads into it then.
clientsClaim();

const SHELL = '/index.html';
const NOT_PAGES = [/^\/api\//, /^\/uploads\//, /^\/pay\//, /^\/simulator\//, /^\/socket\.io\//, /^\/healthz/, /^\/readyz/, /^\/metrics/];

/** Only answers worth keeping: a complete 200 (no opaque or partial responses). */
const okOnly = { cacheWillUpdate: async ({ response }: { response: Response }) => (response.status === 200 ? response : null) };

const PAGES = 'tukio-pages';

// A slow connection (lie-fi at a venue) gives up after a few seconds and shows the saved copy.
const pages = new NetworkFirst({
  cacheName: PAGES,
  networkTimeoutSeconds: 4,
  plugins: [okOnly, new ExpirationPlugin({ maxEntries: 40, maxAgeSeconds: 14 * 86_400 })],
});

registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await pages.handle(options);
      } catch {
        // Offline and this page was never opened: the shell renders it (and its saved data) in the app.
        return (await matchPrecache(SHELL)) ?? Response.error();
      }
    },
    { denylist: NOT_PAGES },
  ),
);

const ONE_EVENT = /^\/api\/events\/[0-9a-f]{24}$/;

/**
 * One event is kept only once published: its organiser (or an admin) also reads it while pending, and
 * the cache is shared by whoever uses the device next. Lists hold published events only.
 */
const publishedOnly = {
  cacheWillUpdate: async ({ response }: { response: Response }) => {
    if (response.status !== 200) return null;
    if (!ONE_EVENT.test(new URL(response.url).pathname)) return response;
    const event = (await response.clone().json().catch(() => null)) as { status?: unknown } | null;
    return event?.status === 'approved' ? response : null;
  },
};

// Public event reads (the event, lists, search), for pages opened in the app; owner-only paths under
// /api/events/:id/... (attendees, gate list, refunds) are not matched.
registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && (/^\/api\/events\/?$/.test(url.pathname) || ONE_EVENT.test(url.pathname) || /^\/api\/events\/(popular|upcoming)$/.test(url.pathname)),
  new NetworkFirst({ cacheName: 'tukio-event-data', networkTimeoutSeconds: 4, plugins: [publishedOnly, new ExpirationPlugin({ maxEntries: 80, maxAgeSeconds: 14 * 86_400 })] }),
);

// Hashed build files left out of the precache: immutable, so the first copy is good for ever.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
  new CacheFirst({ cacheName: 'tukio-assets', plugins: [okOnly, new ExpirationPlugin({ maxEntries: 30, maxAgeSeconds: 90 * 86_400 })] }),
);

// Event images and avatars as they are shown.
registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.destination === 'image' && url.pathname.startsWith('/uploads/'),
  new CacheFirst({ cacheName: 'tukio-images', plugins: [okOnly, new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 30 * 86_400 })] }),
);

/**
 * The page that installed the worker was loaded before any worker could keep it: on activation, the
 * pages open now are fetched once more into the pages cache, so the one visit counts.
 */
async function keepOpenPages() {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const cache = await caches.open(PAGES);
  await Promise.all(
    windows.map(async (client) => {
      const url = new URL(client.url);
      if (url.origin !== self.location.origin || NOT_PAGES.some((pattern) => pattern.test(url.pathname))) return;
      try {
        const response = await fetch(url.href, { credentials: 'same-origin' });
        if (response.status === 200) await cache.put(url.href, response);
      } catch {
        // Offline already: nothing to keep.
      }
    }),
  );
}

self.addEventListener('activate', (event) => event.waitUntil(keepOpenPages()));

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
