import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressAllowed, guardedLookup } from '../../lib/public-address.js';

/** A feed larger than this is refused, as soon as the bytes passing it arrive. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 30_000;

/** Why a feed could not be fetched: said to the admin running the import as it is. */
export class ImportSourceError extends Error {}

export interface ImportFetchOptions {
  /** Addresses allowed although private or loopback (IMPORT_ALLOWED_ADDRESSES): a feed on the organisation's own network. */
  allowedAddresses?: readonly string[];
  maxBytes?: number;
  timeoutMs?: number;
}

const allowed = (address: string, options: ImportFetchOptions) => addressAllowed(address, options.allowedAddresses);

const refusedAddress = (host: string, address: string) =>
  new ImportSourceError(`${host} is at ${address}, a private or local address: feeds are only fetched from the public internet (IMPORT_ALLOWED_ADDRESSES lists exceptions).`);

/** One request, no redirect followed: the response with its body unread. */
function request(url: URL, options: ImportFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP address in the URL is connected to without a lookup: checked here instead.
  if (isIP(host) && !allowed(host, options)) return Promise.reject(refusedAddress(host, host));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { lookup: guardedLookup((address) => allowed(address, options), refusedAddress), signal, headers: { accept: 'application/json, text/calendar, */*' } }, resolve);
    req.on('error', reject);
  });
}

/** The body as text, refused as soon as it passes `maxBytes` (the rest is never read). */
async function readCapped(response: IncomingMessage, source: string, maxBytes: number): Promise<string> {
  const tooLarge = () => new ImportSourceError(`${source} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Fetches an event feed (JSON or iCalendar) from an http(s) URL for the importer: redirects followed by
 * hand, at most five, each hop's address checked like the first; the body capped while it streams.
 */
export async function fetchImportSource(source: string, options: ImportFetchOptions = {}): Promise<string> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS);
  let url = new URL(source);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImportSourceError(`${url.href} is not an http(s) address`);
    if (url.username || url.password) throw new ImportSourceError('Feed addresses with a user name or password are not fetched.');
    const response = await request(url, options, signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new ImportSourceError(`${source} redirects more than ${MAX_REDIRECTS} times`);
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new ImportSourceError(`${url.href} answered HTTP ${status}`);
    }
    return readCapped(response, source, options.maxBytes ?? IMPORT_MAX_BYTES);
  }
}
