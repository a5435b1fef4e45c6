import { createHash } from 'node:crypto';
import type { Response } from 'express';

const serialized = new WeakMap<object, { body: string; etag: string }>();

/**
 * The weak ETag Express would compute for `body` (length and SHA-1), for answers that are sent many
 * times: set beforehand, it spares Express hashing the same bytes on every request.
 */
export function weakEtag(body: string | Buffer): string {
  const hash = createHash('sha1').update(body).digest('base64').slice(0, 27);
  const length = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  return `W/"${length.toString(16)}-${hash}"`;
}

/**
 * Sends `value` as JSON, serialized (and its ETag hashed) once per object: a cached object served
 * thousands of times a second is stringified once. Only for values that are never mutated after
 * being sent — caches replace an entry with a new object instead of changing it. Conditional GETs
 * still get 304 (Express compares the ETag set here).
 */
export function sendMemoJson(res: Response, value: object) {
  let entry = serialized.get(value);
  if (!entry) {
    const body = JSON.stringify(value);
    entry = { body, etag: weakEtag(body) };
    serialized.set(value, entry);
  }
  res.set('ETag', entry.etag);
  res.type('json').send(entry.body);
}
