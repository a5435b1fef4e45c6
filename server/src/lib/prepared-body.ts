import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { preferredEncoding } from './precompressed.js';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** A JSON answer serialized once, with its ETag, and each compression made once when first asked for. */
interface Prepared {
  json: Buffer;
  etag: string;
  encoded: Map<'br' | 'gzip', Promise<Buffer>>;
}

/**
 * Large answers that many clients read and that change only when the data does (the contract's whole
 * event lists): each key's body is built once per version — serialized, hashed for a strong ETag, and
 * compressed on demand (gzip level 6, Brotli quality 5: fast enough for megabytes, in the thread pool) —
 * and served from memory until `invalidate` moves the version on. Readers arriving while a body is built
 * wait for that one build. A repeat request with the ETag gets 304 and no body.
 */
export function createPreparedBodies<K extends string>(build: (key: K) => Promise<unknown>) {
  const versions = new Map<K, number>();
  const bodies = new Map<K, { version: number; prepared: Promise<Prepared> }>();

  async function prepare(key: K): Promise<Prepared> {
    const json = Buffer.from(JSON.stringify(await build(key)), 'utf8');
    const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
    return { json, etag, encoded: new Map() };
  }

  function current(key: K): Promise<Prepared> {
    const version = versions.get(key) ?? 0;
    const known = bodies.get(key);
    if (known && known.version === version) return known.prepared;
    const prepared = prepare(key);
    bodies.set(key, { version, prepared });
    // A failed build is not kept: the next reader tries again.
    prepared.catch(() => {
      if (bodies.get(key)?.prepared === prepared) bodies.delete(key);
    });
    return prepared;
  }

  return {
    /** Data behind every key (or one) changed: the next reader gets a new body. */
    invalidate(key?: K) {
      for (const name of key ? [key] : [...new Set([...versions.keys(), ...bodies.keys()])]) versions.set(name, (versions.get(name) ?? 0) + 1);
    },

    /** Answers the request with the key's body: 304 when the client has it, compressed when it accepts it. */
    async send(req: Request, res: Response, key: K) {
      const prepared = await current(key);
      res.setHeader('ETag', prepared.etag);
      res.setHeader('Vary', 'Accept-Encoding');
      res.setHeader('Cache-Control', 'no-cache');
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      const encoding = preferredEncoding(req.get('accept-encoding'))?.name;
      res.type('json');
      if (!encoding) {
        res.send(prepared.json);
        return;
      }
      let body = prepared.encoded.get(encoding);
      if (!body) {
        body = encoding === 'br' ? brotli(prepared.json, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }) : gzip(prepared.json, { level: 6 });
        prepared.encoded.set(encoding, body);
      }
      res.setHeader('Content-Encoding', encoding);
      res.send(await body);
    },
  };
}
