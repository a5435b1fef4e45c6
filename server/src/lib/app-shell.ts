import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Request, RequestHandler } from 'express';
import { matchClientRoute } from '@tukio/shared/client-routes';
import { isLanguage, pickLanguage, type Language } from '@tukio/shared/languages';
import type { Logger } from './logger.js';

/** How often the app shell (index.html) is checked for a new client build. */
const SHELL_RECHECK_MS = 1000;

/** What the client build's manifest says of a module: its chunk, that chunk's stylesheets and static imports. */
interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/** The client build's manifest (Vite's `build.manifest`, dist/.vite/manifest.json), by source module. */
export type BuildManifest = Record<string, ManifestChunk | undefined>;

/**
 * The client build's index.html, re-read when a new build replaces it (checked at most once a second), with
 * the build's manifest. `current('sw')` is the same page in Kiswahili (index.sw.html, written by the same
 * build), so a Kiswahili reader's first paint is already in Kiswahili; English when the build has none.
 */
export interface AppShellSource {
  current(language?: Language): Promise<{ html: string; manifest: BuildManifest; version: number }>;
}

export function createAppShellSource(indexHtml: string): AppShellSource {
  const kiswahiliHtml = indexHtml.replace(/index\.html$/, 'index.sw.html');
  const manifestFile = path.join(path.dirname(indexHtml), '.vite', 'manifest.json');
  let cached: { html: string; kiswahili: string | null; manifest: BuildManifest; version: number } | undefined;
  let checkedAt = 0;
  return {
    async current(language: Language = 'en') {
      // A new client build is picked up within a second, without a stat() on every page request.
      if (!cached || Date.now() - checkedAt >= SHELL_RECHECK_MS) {
        const { mtimeMs } = await stat(indexHtml);
        checkedAt = Date.now();
        if (cached?.version !== mtimeMs) {
          const [html, kiswahili, manifest] = await Promise.all([
            readFile(indexHtml, 'utf8'),
            readFile(kiswahiliHtml, 'utf8').catch(() => null),
            readFile(manifestFile, 'utf8').then((text) => JSON.parse(text) as BuildManifest, () => ({})),
          ]);
          cached = { html, kiswahili, manifest, version: mtimeMs };
        }
      }
      const html = language === 'sw' && cached.kiswahili !== null ? cached.kiswahili : cached.html;
      return { html, manifest: cached.manifest, version: cached.version };
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

/** A module's chunk, its stylesheets and, transitively, its static imports' files, as the manifest lists them. */
function filesOf(manifest: BuildManifest, key: string, files: string[] = [], seen = new Set<string>()): string[] {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return files;
  seen.add(key);
  files.push(chunk.file, ...(chunk.css ?? []));
  for (const imported of chunk.imports ?? []) filesOf(manifest, imported, files, seen);
  return files;
}

const routeModule = (route: string) => `src/app/routes/${route}.tsx`;
const safeFile = (file: string) => /^[\w./-]+\.(?:js|css)$/.test(file);

/**
 * <link> tags for a route's own files (client/src/app/routes/<route>.tsx and what it imports, beyond what the
 * entry loads), put in the page's head so the browser asks for them with the page instead of after the entry
 * has run (one round trip less before the route renders). At low priority: none of them is needed for the
 * first paint (the shell in the page, styled by the entry's stylesheet), and at the default high priority two
 * dozen of them took the connections and the bandwidth of a slow phone from that stylesheet (Lighthouse on
 * /forum/:threadId: first paint 2.1 → 1.7 s at low). Scripts as modulepreload (fetched and compiled, run when
 * React asks for the route), stylesheets as preload (applied when the route loads).
 *
 * `rendered`: the page carries the route's content rendered on the server, so it paints without the route's
 * code. Then only the stylesheets of the route's own chunk, which style that content, are named, and applied;
 * the code is left to the client, so it does not take a slow phone's bandwidth from the page's images
 * (Lighthouse on /events/:id: largest paint 2.4 → 1.8 s, the event's image).
 */
export function routeHints(manifest: BuildManifest, route: string, options: { rendered?: boolean } = {}): string {
  if (options.rendered) {
    return (manifest[routeModule(route)]?.css ?? []).filter(safeFile).map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join('');
  }
  const atStart = new Set(Object.keys(manifest).flatMap((key) => (manifest[key]?.isEntry ? filesOf(manifest, key) : [])));
  return [...new Set(filesOf(manifest, routeModule(route)))]
    .filter((file) => !atStart.has(file) && safeFile(file))
    .map((file) =>
      file.endsWith('.css')
        ? `<link rel="preload" as="style" fetchpriority="low" crossorigin href="/${file}">`
        : `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`,
    )
    .join('');
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
      .then(async ({ html, manifest }) => {
        const route = matchClientRoute(req.path)?.routeFile ?? 'home';
        const hints = routeHints(manifest, route);
        const data = await dataFor(route, req);
        res.setHeader('Cache-Control', 'no-cache');
        res.vary('Cookie');
        res.vary('Accept-Language');
        res.type('html').send(withinHead(html, hints + (data?.head ?? '')));
      })
      .catch(next);
  };
}
