import path from 'node:path';
import type { Request, RequestHandler } from 'express';
import { isLanguage, type Language } from '@tukio/shared/languages';
import { routeHints, shellLanguage, withinHead, type AppShellSource } from './app-shell.js';

/*
 * The ticket widget's two files (docs/decisions/widget.md): /widget.js, which any website loads, and the page
 * it frames, /embed/events/:id. Their security headers differ from the rest of the app's (app.ts
 * `securityHeaders`): only these two may be used by other origins.
 */

/** Paths other websites may frame (CSP frame-ancestors *, no X-Frame-Options). Every other page refuses framing. */
export const isFrameablePath = (pathname: string) => /^\/embed\//i.test(pathname);

/** The script other websites load with <script src> (Cross-Origin-Resource-Policy: cross-origin, CORS *). */
export const WIDGET_SCRIPT_PATH = '/widget.js';

/** Where the app shell's server-rendered header and loader sit (client/src/prerender.tsx SHELL_START / SHELL_END). */
const SHELL_START = '<!--app-shell-->';
const SHELL_END = '<!--/app-shell-->';

/** The frame's language: the `?lang=` widget.js puts in its address (the host page's choice), else the reader's. */
export function embedLanguage(req: Request): Language {
  const asked = typeof req.query.lang === 'string' ? req.query.lang : undefined;
  return isLanguage(asked) ? asked : shellLanguage(req);
}

/**
 * /embed/events/:id: the app shell in the widget's language without the site's header (the frame shows only
 * the ticket box, client/src/app/routes/embed-event.tsx), naming the route's files in its head.
 */
export function createEmbedPageHandler(source: AppShellSource): RequestHandler {
  return (req, res, next) => {
    const language = embedLanguage(req);
    source
      .current(language)
      .then(({ html, manifest }) => {
        const start = html.indexOf(SHELL_START);
        const end = html.indexOf(SHELL_END, start);
        const bare = start >= 0 && end > start ? html.slice(0, start + SHELL_START.length) + html.slice(end) : html;
        res.setHeader('Cache-Control', 'no-cache');
        res.vary('Cookie');
        res.vary('Accept-Language');
        res.type('html').send(withinHead(bare, routeHints(manifest, 'embed-event')));
      })
      .catch(next);
  };
}

/**
 * /widget.js from the client build (dist/widget.js, client/vite.widget.config.ts): cacheable for an hour (its
 * address never changes, so not "immutable"), readable by any origin. 404 when the build has none.
 */
export function createWidgetScriptHandler(clientDist: string): RequestHandler {
  const file = path.join(clientDist, 'widget.js');
  return (_req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.sendFile(file, { maxAge: '1h', headers: { 'Content-Type': 'text/javascript; charset=utf-8' } }, (error?: Error & { status?: number; statusCode?: number }) => {
      if (!error) return;
      if ((error.status ?? error.statusCode) === 404) {
        if (!res.headersSent) res.status(404).type('text/plain').send('widget.js is not in this build');
        return;
      }
      next(error);
    });
  };
}
