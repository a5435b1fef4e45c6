import { stat } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { weakEtag } from './memo-json.js';

/**
 * Serves the `.br` / `.gz` twins the client build writes next to its text assets
 * (client/vite.config.ts, `precompress`) with `Content-Encoding`, when the browser accepts the
 * encoding. Anything else (no twin, encoding refused, not GET/HEAD) falls through to
 * express.static, which sends the plain file. No compression work happens per request.
 */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/** Encodings the request accepts (q > 0), from its Accept-Encoding header. */
function accepted(header: string | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [rawName = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (rawName && (q === undefined || Number(q.slice(2)) > 0)) names.add(rawName);
  }
  return names;
}

/** True when the request's Accept-Encoding takes `name`. */
export const acceptsEncoding = (header: string | undefined, name: 'br' | 'gzip'): boolean => accepted(header).has(name);

export function preferredEncoding(header: string | undefined) {
  const wanted = accepted(header);
  return ENCODINGS.find((candidate) => wanted.has(candidate.name));
}

export function servePrecompressed(root: string, options: { maxAge: string; immutable?: boolean }): RequestHandler {
  const base = path.resolve(root);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const type = TYPES[path.extname(req.path).toLowerCase()];
    if (!type) return next();
    res.vary('Accept-Encoding');
    let file: string;
    try {
      file = path.join(base, decodeURIComponent(req.path));
    } catch {
      return next();
    }
    if (!file.startsWith(base + path.sep)) return next();
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    if (!encoding) return next();
    stat(file + encoding.suffix).then(
      (found) => {
        if (!found.isFile()) return next();
        res.setHeader('Content-Type', type);
        res.setHeader('Content-Encoding', encoding.name);
        res.sendFile(file + encoding.suffix, { maxAge: options.maxAge, immutable: options.immutable ?? false, dotfiles: 'deny' }, (error) => {
          if (error && !res.headersSent) {
            res.removeHeader('Content-Encoding');
            res.removeHeader('Content-Type');
            next();
          }
        });
      },
      () => next(),
    );
  };
}

/** An HTML page sent many times as it is: each encoding compressed (and its ETag hashed) once, when first asked for. */
export interface PreparedHtml {
  readonly html: string;
  readonly bodies: Map<'identity' | 'br' | 'gzip', { body: Buffer; etag: string }>;
}

export function prepareHtml(html: string): PreparedHtml {
  return { html, bodies: new Map() };
}

/**
 * Sends a page built on the server (the event share page: the shell plus a few KB of tags and data),
 * brotli- or gzip-encoded when accepted. A fast level: a ~10 KB page compresses in well under 1 ms; a
 * prepared page keeps what it compressed, so a page opened thousands of times is compressed once.
 */
export function sendHtml(req: Request, res: Response, page: string | PreparedHtml): void {
  const prepared = typeof page === 'string' ? prepareHtml(page) : page;
  res.vary('Accept-Encoding');
  res.type('html');
  const encoding = preferredEncoding(req.headers['accept-encoding'])?.name ?? 'identity';
  let sent = prepared.bodies.get(encoding);
  if (!sent) {
    const body =
      encoding === 'br'
        ? zlib.brotliCompressSync(prepared.html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
        : encoding === 'gzip'
          ? zlib.gzipSync(prepared.html, { level: 6 })
          : Buffer.from(prepared.html, 'utf8');
    sent = { body, etag: weakEtag(body) };
    prepared.bodies.set(encoding, sent);
  }
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  // The ETag Express would hash from these bytes on every request; it still answers 304 to a match.
  res.setHeader('ETag', sent.etag);
  res.send(sent.body);
}
