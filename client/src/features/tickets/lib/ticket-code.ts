/*
 * Offline check of a ticket code (docs/payments.md, "Seats, holds and tickets"):
 *   TK1.<payload>.<signature>, both base64url;
 *   payload = 12-byte ticket id + 12-byte event id;
 *   signature = Ed25519 over the ASCII text `TK1.<payload>`.
 * The public key comes from GET /api/tickets/public-key and is kept in localStorage so a door
 * device that lost its connection can still tell genuine tickets from forged ones.
 */
import { getTicketPublicKey, type TicketPublicKey } from '../api/tickets-api';
import { readJson, writeJson } from './storage';

const PREFIX = 'TK1';
const KEY_STORAGE = 'tukio-ticket-public-key';

export interface ParsedTicketCode {
  ticketId: string;
  eventId: string;
  signed: string;
  signature: Uint8Array<ArrayBuffer>;
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The ids a well-formed code names (signature not checked yet), or null. */
export function parseTicketCode(raw: string): ParsedTicketCode | null {
  const code = raw.trim();
  if (code.length > 200) return null;
  const parts = code.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) return null;
  const payload = fromBase64Url(parts[1]!);
  const signature = fromBase64Url(parts[2]!);
  if (!payload || !signature || payload.length !== 24 || signature.length !== 64) return null;
  return {
    ticketId: toHex(payload.subarray(0, 12)),
    eventId: toHex(payload.subarray(12)),
    signed: `${PREFIX}.${parts[1]}`,
    signature,
  };
}

export type OfflineVerdict =
  | { kind: 'valid'; ticketId: string; eventId: string; forThisEvent: boolean }
  | { kind: 'invalid' }
  /** No key yet, or this browser cannot check Ed25519 (the server decides). */
  | { kind: 'unchecked'; ticketId?: string; eventId?: string; forThisEvent?: boolean };

interface StoredKey {
  jwk: TicketPublicKey['jwk'];
  savedAt: string;
}

let keyPromise: Promise<CryptoKey | null> | null = null;

async function importKey(jwk: TicketPublicKey['jwk']): Promise<CryptoKey | null> {
  if (!globalThis.crypto?.subtle) return null; // not a secure context (plain http on a LAN address)
  try {
    return await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  } catch {
    return null; // Ed25519 not supported by this browser
  }
}

/** Saves the key a gate list brought (the same key GET /api/tickets/public-key answers). */
export function rememberVerificationKey(jwk: TicketPublicKey['jwk']): void {
  if (jwk?.x) writeJson(KEY_STORAGE, { jwk, savedAt: new Date().toISOString() } satisfies StoredKey);
}

/** The verification key: the network copy when reachable (saved for later), else the saved copy. */
export function loadVerificationKey(): Promise<CryptoKey | null> {
  keyPromise ??= (async () => {
    const stored = readJson<StoredKey>(KEY_STORAGE);
    try {
      const fresh = await getTicketPublicKey();
      if (fresh?.jwk?.x) {
        writeJson(KEY_STORAGE, { jwk: fresh.jwk, savedAt: new Date().toISOString() } satisfies StoredKey);
        return await importKey(fresh.jwk);
      }
    } catch {
      // offline: fall back to the saved key
    }
    return stored?.jwk?.x ? importKey(stored.jwk) : null;
  })();
  const current = keyPromise;
  // Without a key (offline on first visit), try again next time instead of caching the miss.
  void current.then((key) => {
    if (!key && keyPromise === current) keyPromise = null;
  });
  return current;
}

/** Checks the code's signature with the public key, without the network once the key is saved. */
export async function verifyTicketOffline(raw: string, eventId: string): Promise<OfflineVerdict> {
  const parsed = parseTicketCode(raw);
  if (!parsed) return { kind: 'invalid' };
  const forThisEvent = parsed.eventId === eventId;
  const key = await loadVerificationKey();
  if (!key) return { kind: 'unchecked', ticketId: parsed.ticketId, eventId: parsed.eventId, forThisEvent };
  try {
    const ok = await crypto.subtle.verify({ name: 'Ed25519' }, key, parsed.signature, new TextEncoder().encode(parsed.signed));
    return ok ? { kind: 'valid', ticketId: parsed.ticketId, eventId: parsed.eventId, forThisEvent } : { kind: 'invalid' };
  } catch {
    return { kind: 'unchecked', ticketId: parsed.ticketId, eventId: parsed.eventId, forThisEvent };
  }
}
