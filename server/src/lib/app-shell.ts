import { readFile, stat } from 'node:fs/promises';
import type { Request, RequestHandler } from 'express';
import { isLanguage, pickLanguage, type Language } from '@tukio/shared/languages';
import type { Logger } from './logger.js';

/** How often the app shell (index.html) is checked for a new client build. */
const SHELL_RECHECK_MS = 1000;

/** The client build's index.html, re-read when a new build replaces it (checked at most once a second). */
export interface AppShellSource {
  current(): Promise<string>;
}

export function createAppShellSource(indexHtml: string): AppShellSource {
  let cached: { html: string; version: number } | undefined;
  let checkedAt = 0;
  return {
    async current() {
      // A new client build is picked up within a second, without a stat() on every page request.
      if (!cached || Date.now() - checkedAt >= SHELL_RECHECK_MS) {
        const { mtimeMs } = await stat(indexHtml);
        checkedAt = Date.now();
        if (cached?.version !== mtimeMs) cached = { html: await readFile(indexHtml, 'utf8'), version: mtimeMs };
      }
      return cached.html;
    },
  };
}

/**
 * The language of an event page's rendered header and hero (modules/events/event-page.ts): the `lang` cookie
 * the client sets (the reader's choice, client/src/lib/i18n/language.ts), else the browser's Accept-Language
 * (a first visit).
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

/**
 * Data a client route's page carries: `head` goes into the page's <head> (a
 * `<script type="application/json">` the route reads instead of asking the API).
 * Undefined: the page goes without (the route asks the API as usual).
 */
export type RouteData = (req: Request) => Promise<{ head: string } | undefined>;

/** `extra` put at the end of the page's <head>. */
export const withinHead = (html: string, extra: string) => (extra ? html.replace(/<\/head>/i, () => `${extra}</head>`) : html);

/**
 * The history fallback: every client route answers with the app shell, and a page with `data` with what it
 * reads first. Compressed by the compression middleware in front of it (app.ts).
 */
export function createAppShellHandler(source: AppShellSource, options: { data?: RouteData; logger?: Logger } = {}): RequestHandler {
  return (req, res, next) => {
    source
      .current()
      .then(async (html) => {
        const data = await options.data?.(req).catch((error: unknown) => {
          // The page still works without it: the route asks the API, which reports the problem.
          options.logger?.error(`page data for ${req.path} not embedded`, error);
          return undefined;
        });
        res.setHeader('Cache-Control', 'no-cache');
        res.type('html').send(withinHead(html, data?.head ?? ''));
      })
      .catch(next);
  };
}
