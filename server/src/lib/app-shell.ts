import { readFile, stat } from 'node:fs/promises';
import type { Request, RequestHandler } from 'express';
import { matchClientRoute, ROUTE_SHELL_FILES } from '@tukio/shared/client-routes';
import { isLanguage, pickLanguage, type Language } from '@tukio/shared/languages';
import type { Logger } from './logger.js';

/** How often the app shell (index.html) is checked for a new client build. */
const SHELL_RECHECK_MS = 1000;

/**
 * The client build's index.html, re-read when a new build replaces it (checked at most once a second).
 * `current('sw')` is the same page in Kiswahili (index.sw.html, written by the same build), so a
 * Kiswahili reader's first paint is already in Kiswahili; English when the build has none.
 */
export interface AppShellSource {
  current(language?: Language): Promise<{ html: string; version: number }>;
}

export function createAppShellSource(indexHtml: string): AppShellSource {
  const kiswahiliHtml = indexHtml.replace(/index\.html$/, 'index.sw.html');
  let cached: { html: string; kiswahili: string | null; version: number } | undefined;
  let checkedAt = 0;
  return {
    async current(language: Language = 'en') {
      // A new client build is picked up within a second, without a stat() on every page request.
      if (!cached || Date.now() - checkedAt >= SHELL_RECHECK_MS) {
        const { mtimeMs } = await stat(indexHtml);
        checkedAt = Date.now();
        if (cached?.version !== mtimeMs) {
          const [html, kiswahili] = await Promise.all([readFile(indexHtml, 'utf8'), readFile(kiswahiliHtml, 'utf8').catch(() => null)]);
          cached = { html, kiswahili, version: mtimeMs };
        }
      }
      return { html: language === 'sw' && cached.kiswahili !== null ? cached.kiswahili : cached.html, version: cached.version };
    },
  };
}

/**
 * The language of the shell a request gets: the `lang` cookie the client sets (the reader's choice,
 * client/src/lib/i18n/language.ts), else the browser's Accept-Language (a first visit).
 */
export function shellLanguage(req: Request): Language {
  const cookie = /(?:^|;\s*)lang=([a-z]{2})(?:;|$)/.exec(req.headers.cookie ?? '')?.[1];
  if (isLanguage(cookie)) return cookie;
  const accepted = (req.headers['accept-language'] ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter(Boolean);
  return pickLanguage(accepted);
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

/** The stylesheets of the route's own chunk: those right after it in its list (client/vite.config.ts). */
function ownStylesheets(files: string[]): string[] {
  const own: string[] = [];
  for (const file of files.slice(1)) {
    if (!file.endsWith('.css')) break;
    own.push(file);
  }
  return own;
}

/**
 * <link> tags for a route's own files, put in the page's head so the browser asks for them with the page
 * instead of after the client's preloader script arrives (one round trip less before the route renders).
 * At low priority: none of them is needed for the first paint (the shell in the page, styled by the entry's
 * stylesheet), and at the default high priority two dozen of them took the connections and the bandwidth of
 * a slow phone from that stylesheet (Lighthouse on /forum/:threadId: first paint 2.1 → 1.7 s at low).
 * Scripts as modulepreload (fetched and compiled, run when React asks for the route), stylesheets as
 * preload (applied by the client's route loader, or by the preloader before it paints a signed-in page's
 * top).
 *
 * `rendered`: the page carries the route's content rendered on the server, so it paints without the route's
 * code. Then only the stylesheets of the route's own chunk, which style that content (the client build lists
 * them right after the chunk), are named, and applied; the code is left to the client's preloader, so it does
 * not take a slow phone's bandwidth from the page's images (Lighthouse on /events/:id: largest paint 2.4 →
 * 1.8 s, the event's image).
 */
export function routeHints(html: string, route: string, options: { rendered?: boolean } = {}): string {
  const files = routeFiles(html, route);
  if (options.rendered) return ownStylesheets(files).map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join('');
  // A signed-in page whose top the client's preloader paints before React: what paints it (its code and the
  // route's stylesheets) and nothing else, which would only slow that paint down; the preloader asks for the
  // route's code once it has painted.
  const named = html.includes(`<template id="route-shell-${route}">`)
    ? [...routeFiles(html, ROUTE_SHELL_FILES), ...files.filter((file) => file.endsWith('.css'))]
    : files;
  return named
    .map((file) =>
      file.endsWith('.css')
        ? `<link rel="preload" as="style" fetchpriority="low" crossorigin href="/${file}">`
        : `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`,
    )
    .join('');
}

/**
 * For a Kiswahili reader, <link rel="modulepreload"> tags for the Kiswahili catalogs the first load and
 * the route show (listed by the client build in index.html, client/vite.config.ts `routePreloader`):
 * fetched with the page instead of after the client's preloader script.
 */
export function kiswahiliHints(html: string, route: string): string {
  const data = /<script type="application\/json" id="catalog-files">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!data) return '';
  try {
    const { sw, areas } = JSON.parse(data) as { sw?: Record<string, unknown>; areas?: Record<string, unknown> };
    const wanted = [areas?.[''], areas?.[route]].flatMap((list) => (Array.isArray(list) ? list : []));
    return [...new Set(wanted)]
      .map((area) => sw?.[String(area)])
      .filter((file): file is string => typeof file === 'string' && /^[\w./-]+\.js$/.test(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('');
  } catch {
    return '';
  }
}

/**
 * Data a client route's page carries: `head` goes into the page's <head> (a
 * `<script type="application/json">` the route reads instead of asking the API).
 * Undefined: the page goes without (the route asks the API as usual).
 */
export type RouteData = (req: Request) => Promise<{ head: string } | undefined>;

/** `extra` put at the end of the page's <head>. */
export const withinHead = (html: string, extra: string) => (extra ? html.replace(/<\/head>/i, () => `${extra}</head>`) : html);

/**
 * The history fallback: every client route answers with the app shell in the reader's language
 * (shellLanguage), its head naming the route's files (routeHints), and for a route in `data` what it reads
 * first. Compressed by the compression middleware in front of it (app.ts).
 */
export function createAppShellHandler(source: AppShellSource, options: { data?: Partial<Record<string, RouteData>>; logger?: Logger } = {}): RequestHandler {
  async function dataFor(route: string, req: Request) {
    try {
      return await options.data?.[route]?.(req);
    } catch (error) {
      // The page still works without it: the route asks the API, which reports the problem.
      options.logger?.error(`page data for ${route} not embedded`, error);
      return undefined;
    }
  }

  return (req, res, next) => {
    const language = shellLanguage(req);
    source
      .current(language)
      .then(async ({ html }) => {
        const route = matchClientRoute(req.path)?.routeFile ?? 'home';
        const hints = routeHints(html, route) + (language === 'sw' ? kiswahiliHints(html, route) : '');
        const data = await dataFor(route, req);
        res.setHeader('Cache-Control', 'no-cache');
        res.vary('Cookie');
        res.vary('Accept-Language');
        res.type('html').send(withinHead(html, hints + (data?.head ?? '')));
      })
      .catch(next);
  };
}
