import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';

export interface RateLimitOptions {
  windowMs: number;
  max: number;
}

const tooMany = 'Too many attempts. Please wait a few minutes and try again.';

/** Per-IP limit. The body carries both spellings of the message, as every error body does. */
export function limitPerIp(options: RateLimitOptions, extraBody: Record<string, unknown> = {}): RequestHandler {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.max,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: { ...extraBody, msg: tooMany, message: tooMany },
  });
}

/** Per-account limit keyed on what the body names (username or email), so one IP rotation cannot brute-force one account. */
export function limitPerAccount(
  options: RateLimitOptions,
  accountOf: (req: Request) => string | undefined,
  extraBody: Record<string, unknown> = {},
): RequestHandler {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.max,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: { ...extraBody, msg: tooMany, message: tooMany },
    keyGenerator: (req) => `account:${(accountOf(req) ?? '').toLowerCase()}`,
    skip: (req) => !accountOf(req),
    validate: { keyGeneratorIpFallback: false },
  });
}
