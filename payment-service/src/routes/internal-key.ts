import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { PaymentServiceError } from '../errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The API server's calls carry the shared key in `X-Internal-Key`; both sides are hashed so the comparison takes the same time whatever the guess. */
export function requireInternalKey(internalApiKey: string): RequestHandler {
  const expected = digest(internalApiKey);
  return (req, _res, next) => {
    const given = req.get('x-internal-key');
    if (!given || !timingSafeEqual(digest(given), expected)) throw new PaymentServiceError(401, 'internal_only', 'This endpoint is for Tukio services only.');
    next();
  };
}
