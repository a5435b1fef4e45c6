import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether `address` is somewhere on the public internet. Only ipaddr.js's `unicast` range passes: loopback,
 * 0.0.0.0, private (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10), link-local (169.254/16,
 * fe80::/10), unique-local (fc00::/7), multicast, reserved and the IPv6 forms that carry an IPv4 address
 * (NAT64, 6to4, Teredo) are refused; an IPv4-mapped IPv6 address is judged as the IPv4 address it is.
 * Shared by the events importer's feed fetch and webhook deliveries (server-side requests to addresses
 * someone else typed must not reach this server's own network).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Public, or one of the `exceptions` (an operator's own network, named in configuration). */
export function addressAllowed(address: string, exceptions: readonly string[] = []): boolean {
  if (isPublicAddress(address)) return true;
  const normal = ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
  return exceptions.some((entry) => ipaddr.isValid(entry) && ipaddr.process(entry).toString() === normal);
}

/**
 * A DNS lookup that refuses names resolving to an address `allowed` rejects. Checked where the connection
 * is made, so the address connected to is the one checked (a name cannot resolve to a public address for
 * the check and a private one for the connection).
 */
export function guardedLookup(allowed: (address: string) => boolean, refused: (host: string, address: string) => Error): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const bad = addresses.find((entry) => !allowed(entry.address));
      if (bad || addresses.length === 0) return callback(refused(hostname, bad?.address ?? 'no address'), '', 4);
      if (lookupOptions.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}
