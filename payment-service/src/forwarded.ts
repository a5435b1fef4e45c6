import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Requests the API server forwards from the browser (its /pay, server/src/modules/
 * payment-proxy) carry PROXY_KEY_HEADER. Only with it are their X-Forwarded-* headers believed:
 * the buyer's address for the per-address limit (not the API server's one address for everyone)
 * and the origin the buyer sees, for the simulator link. Anyone else's X-Forwarded-* headers are
 * left to TRUST_PROXY as before.
 */
export const PROXY_KEY_HEADER = 'x-tukio-proxy-key';

/** The same derivation as the API server's `paymentProxyKey` (never the internal key itself on the wire). */
export function paymentProxyKey(internalApiKey: string): string {
  return createHmac('sha256', internalApiKey).update('tukio payment proxy').digest('base64url');
}

export interface ForwardedRequest {
  /** The buyer's address as the API server saw it. */
  address: string;
  /** The origin the buyer's browser used, e.g. https://tukio.example.com. */
  origin: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-prefix', 'forwarded', PROXY_KEY_HEADER];
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** Reads and removes the API server's forwarding headers; `forwardedBy(res)` then says what they told. */
export function trustApiServerProxy(internalApiKey: string): RequestHandler {
  const expected = digest(paymentProxyKey(internalApiKey));
  return (req, res, next) => {
    const given = req.get(PROXY_KEY_HEADER);
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      delete req.headers[PROXY_KEY_HEADER];
      return next();
    }
    const address = (req.get('x-forwarded-for') ?? '').split(',').pop()?.trim() ?? '';
    const host = req.get('x-forwarded-host') ?? '';
    const proto = req.get('x-forwarded-proto');
    // Consumed here, so neither Express's trust proxy nor the rate limiter reads them a second time.
    for (const name of FORWARDED_HEADERS) delete req.headers[name];
    if (isIP(address) && HOST.test(host) && (proto === 'http' || proto === 'https')) {
      res.locals.forwarded = { address, origin: `${proto}://${host}` } satisfies ForwardedRequest;
    }
    next();
  };
}

export function forwardedBy(res: Response): ForwardedRequest | undefined {
  return res.locals.forwarded as ForwardedRequest | undefined;
}

/** The address a per-address limit counts: the buyer's, also when the API server forwarded the request. */
export function clientAddress(req: Request, res: Response): string {
  return forwardedBy(res)?.address ?? req.ip ?? req.socket.remoteAddress ?? '';
}
