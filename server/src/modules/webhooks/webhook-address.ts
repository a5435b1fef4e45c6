import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressAllowed, guardedLookup } from '../../lib/public-address.js';

/** Why an endpoint address is refused, in words for the organiser (undefined: fine). */
export function refusedWebhookUrl(value: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a valid address.';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'the address must start with https://.';
  if (url.username || url.password) return 'addresses with a user name or password are not accepted.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && !addressAllowed(host)))) return `${host} is a private or local address.`;
  return undefined;
}

export interface PostResult {
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs a delivery, redirects not followed. The address connected to is checked at connection time
 * (a name resolving to a private address is refused then), unless `allowPrivate` (tests, WEBHOOKS_ALLOW_PRIVATE).
 */
export function postWebhook(target: string, headers: Record<string, string>, body: string, options: { allowPrivate: boolean; timeoutMs: number }): Promise<PostResult> {
  const refused = refusedWebhookUrl(target, options.allowPrivate);
  if (refused) return Promise.resolve({ statusCode: null, error: refused });
  const url = new URL(target);
  const client = url.protocol === 'https:' ? https : http;
  const allowed = (address: string) => options.allowPrivate || addressAllowed(address);
  const lookup = guardedLookup(allowed, (host, address) => new Error(`${host} is at ${address}, a private or local address.`));
  return new Promise((resolve) => {
    const req = client.request(url, { method: 'POST', lookup, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, signal: AbortSignal.timeout(options.timeoutMs) }, (response) => {
      response.resume();
      response.on('end', () => resolve({ statusCode: response.statusCode ?? null, error: null }));
      response.on('error', (error) => resolve({ statusCode: response.statusCode ?? null, error: error.message }));
    });
    req.on('error', (error) => resolve({ statusCode: null, error: error.message.slice(0, 300) }));
    req.end(body);
  });
}
