import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import type { RequestHandler } from 'express';

/**
 * The interactive reference at /api/docs: Swagger UI (swagger-ui-dist, served from this server, no
 * CDN) reading /api/docs/openapi.json. The page has no inline script, so it runs under the app's CSP
 * (`script-src 'self'`): the bundle and a one-line start script are files under /api/docs/assets.
 */

const distDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const startScript = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#api-reference', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 });
});
`;

export const docsPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tukio API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<noscript><p>The reference needs JavaScript. The document itself is at <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>.</p></noscript>
<div id="api-reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/start.js"></script>
</body>
</html>
`;

interface Asset {
  type: string;
  body: Buffer;
  /** Compressed once, on first request. */
  gzip?: Buffer;
}

/** The only files served: what the page links to. */
const sources: Record<string, { type: string; read: () => Buffer }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', read: () => readFileSync(path.join(distDir, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', read: () => readFileSync(path.join(distDir, 'swagger-ui-bundle.js')) },
  'start.js': { type: 'text/javascript; charset=utf-8', read: () => Buffer.from(startScript) },
};

/** GET /api/docs/assets/<file>: the reference's script and stylesheet, gzipped when the browser accepts it. */
export function serveDocsAssets(): RequestHandler {
  const cache = new Map<string, Asset>();
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.replace(/^\//, '');
    const source = Object.hasOwn(sources, name) ? sources[name] : undefined;
    if (!source) return next();
    let asset = cache.get(name);
    if (!asset) {
      asset = { type: source.type, body: source.read() };
      cache.set(name, asset);
    }
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.vary('Accept-Encoding');
    if (/\bgzip\b/.test(req.get('accept-encoding') ?? '')) {
      asset.gzip ??= zlib.gzipSync(asset.body);
      res.setHeader('Content-Encoding', 'gzip');
      res.send(asset.gzip);
      return;
    }
    res.send(asset.body);
  };
}
