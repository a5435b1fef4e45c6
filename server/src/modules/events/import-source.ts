import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

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

/**
 * Whether `address` is somewhere on the public internet. Only ipaddr.js's `unicast` range passes: loopback,
 * 0.0.0.0, private (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10), link-local (169.254/16,
 * fe80::/10), unique-local (fc00::/7), multicast, reserved and the IPv6 forms that carry an IPv4 address
 * (NAT64, 6to4, Teredo) are refused; an IPv4-mapped IPv6 address is judged as the IPv4 address it is.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

function allowed(address: string, options: ImportFetchOptions): boolean {
  if (isPublicAddress(address)) return true;
  const normal = ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
  return (options.allowedAddresses ?? []).some((entry) => ipaddr.isValid(entry) && ipaddr.process(entry).toString() === normal);
}

const refusedAddress = (host: string, address: string) =>
  new ImportSourceError(`${host} is at ${address}, a private or local address: feeds are only fetched from the public internet (IMPORT_ALLOWED_ADDRESSES lists exceptions).`);

/**
 * DNS answers are checked where the connection is made, so the address connected to is the one checked (a
 * name cannot resolve to a public address for the check and a private one for the connection).
 */
function guardedLookup(options: ImportFetchOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = addresses.find((entry) => !allowed(entry.address, options));
      if (refused || addresses.length === 0) return callback(refusedAddress(hostname, refused?.address ?? 'no address'), '', 4);
      if (lookupOptions.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

/** One request, no redirect followed: the response with its body unread. */
function request(url: URL, options: ImportFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP address in the URL is connected to without a lookup: checked here instead.
  if (isIP(host) && !allowed(host, options)) return Promise.reject(refusedAddress(host, host));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { lookup: guardedLookup(options), signal, headers: { accept: 'application/json, text/calendar, */*' } }, resolve);
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
