import path from 'node:path';
import type { RequestHandler } from 'express';

/*
 * The ticket widget's two files (docs/decisions/widget.md): /widget.js, which any website loads, and the page
 * it frames, /embed/events/:id. Their security headers differ from the rest of the app's (app.ts
 * `securityHeaders`): only these two may be used by other origins.
 */

/** Paths other websites may frame (CSP frame-ancestors *, no X-Frame-Options). Every other page refuses framing. */
export const isFrameablePath = (pathname: string) => /^\/embed\//i.test(pathname);

/** The script other websites load with <script src> (Cross-Origin-Resource-Policy: cross-origin, CORS *). */
export const WIDGET_SCRIPT_PATH = '/widget.js';

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
