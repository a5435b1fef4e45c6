import { createHash } from 'node:crypto';
import type { Response } from 'express';

const serialized = new WeakMap<object, { body: string; etag: string }>();

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
    // The same weak ETag Express would compute: length and SHA-1 of the body.
    const hash = createHash('sha1').update(body, 'utf8').digest('base64').slice(0, 27);
    entry = { body, etag: `W/"${Buffer.byteLength(body, 'utf8').toString(16)}-${hash}"` };
    serialized.set(value, entry);
  }
  res.set('ETag', entry.etag);
  res.type('json').send(entry.body);
}
