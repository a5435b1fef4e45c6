import { readFile, stat } from 'node:fs/promises';
import type { RequestHandler } from 'express';
import { matchClientRoute } from '@tukio/shared/client-routes';
import { prepareHtml, sendHtml, type PreparedHtml } from './precompressed.js';

/** How often the app shell (index.html) is checked for a new client build. */
const SHELL_RECHECK_MS = 1000;

/** The client build's index.html, re-read when a new build replaces it (checked at most once a second). */
export interface AppShellSource {
  current(): Promise<{ html: string; version: number }>;
}

export function createAppShellSource(indexHtml: string): AppShellSource {
  let cached: { html: string; version: number } | undefined;
  let checkedAt = 0;
  return {
    async current() {
      // A new client build is picked up within a second, without a stat() on every page request.
      if (cached && Date.now() - checkedAt < SHELL_RECHECK_MS) return cached;
      const { mtimeMs } = await stat(indexHtml);
      checkedAt = Date.now();
      if (cached?.version !== mtimeMs) cached = { html: await readFile(indexHtml, 'utf8'), version: mtimeMs };
      return cached;
    },
  };
}

/** Each route module's files beyond the entry's, as the client build lists them in index.html (client/vite.config.ts). */
function routeFiles(html: string, route: string): string[] {
  const data = /<script type="application\/json" id="route-files">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!data) return [];
  try {
    const files = (JSON.parse(data) as Record<string, unknown>)[route];
    return Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string' && /^[\w./-]+\.(?:js|css)$/.test(file)) : [];
  } catch {
    return [];
  }
}

/**
 * <link> tags for a route's own files, put in the page's head so the browser asks for them with the page
 * instead of after the client's preloader script arrives (one round trip less before the route renders).
 * Scripts as modulepreload (fetched and compiled, run when React asks for the route). Stylesheets only when
 * the page carries server-rendered content they style (`rel=stylesheet`, applied at once): a `preload` of them
 * competed with the render-blocking entry CSS and delayed the first paint (Lighthouse on /profile: FCP 1.8 →
 * 2.1 s), so the client's preloader asks for them as before.
 */
export function routeHints(html: string, route: string, options: { applyStylesheets?: boolean } = {}): string {
  return routeFiles(html, route)
    .map((file) =>
      file.endsWith('.css')
        ? options.applyStylesheets
          ? `<link rel="stylesheet" crossorigin href="/${file}">`
          : ''
        : `<link rel="modulepreload" crossorigin href="/${file}">`,
    )
    .join('');
}

/**
 * The history fallback: every client route answers with the app shell, its head naming the route's
 * files (routeHints). One page per route module, compressed once per encoding and client build.
 */
export function createAppShellHandler(source: AppShellSource): RequestHandler {
  let pages: { version: number; byRoute: Map<string, PreparedHtml> } = { version: -1, byRoute: new Map() };
  return (req, res, next) => {
    source
      .current()
      .then(({ html, version }) => {
        if (pages.version !== version) pages = { version, byRoute: new Map() };
        const route = matchClientRoute(req.path)?.routeFile ?? 'home';
        let page = pages.byRoute.get(route);
        if (!page) {
          const hints = routeHints(html, route);
          page = prepareHtml(hints ? html.replace(/<\/head>/i, () => `${hints}</head>`) : html);
          pages.byRoute.set(route, page);
        }
        res.setHeader('Cache-Control', 'no-cache');
        sendHtml(req, res, page);
      })
      .catch(next);
  };
}
