import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { readOrCreateSecret } from '@tukio/shared/node/secret';

/**
 * Ticket codes are `TK1.<payload>.<signature>`, both parts base64url:
 * payload = 12 bytes ticket id + 12 bytes event id (the 24-hex ids as bytes),
 * signature = Ed25519 over the ASCII text `TK1.<payload>`.
 * A door scanner holding only the public key can check a code offline.
 */
const PREFIX = 'TK1';
const KEY_FILE = 'ticket-signing-key.pem';

export interface TicketSigner {
  sign(ticketId: string, eventId: string): string;
  /** The ids a valid code names, or undefined for anything forged, altered or malformed. */
  verify(code: string): { ticketId: string; eventId: string } | undefined;
  publicKey: { algorithm: 'Ed25519'; pem: string; jwk: { kty: string; crv: string; x: string }; codeFormat: string };
}

function loadPrivateKey(configured: string | undefined, dataDir: string): KeyObject {
  if (configured) {
    const text = configured.includes('BEGIN') ? configured.replace(/\\n/g, '\n') : Buffer.from(configured, 'base64').toString('utf8');
    const key = text.includes('BEGIN')
      ? createPrivateKey(text)
      : createPrivateKey({ key: Buffer.from(configured, 'base64'), format: 'der', type: 'pkcs8' });
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('TICKET_SIGNING_KEY must be an Ed25519 private key');
    return key;
  }
  // Generated once under DATA_DIR; every instance started on it signs with the same key.
  const generate = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return createPrivateKey(readOrCreateSecret(dataDir, KEY_FILE, generate));
}

export function createTicketSigner(options: { signingKey: string | undefined; dataDir: string }): TicketSigner {
  const privateKey = loadPrivateKey(options.signingKey, options.dataDir);
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string };

  return {
    sign(ticketId, eventId) {
      const payload = Buffer.concat([Buffer.from(ticketId, 'hex'), Buffer.from(eventId, 'hex')]).toString('base64url');
      const signed = `${PREFIX}.${payload}`;
      return `${signed}.${sign(null, Buffer.from(signed), privateKey).toString('base64url')}`;
    },
    verify(code) {
      if (typeof code !== 'string' || code.length > 200) return undefined;
      const parts = code.trim().split('.');
      if (parts.length !== 3 || parts[0] !== PREFIX) return undefined;
      const [, payloadText, signatureText] = parts as [string, string, string];
      if (!/^[A-Za-z0-9_-]+$/.test(payloadText) || !/^[A-Za-z0-9_-]+$/.test(signatureText)) return undefined;
      const payload = Buffer.from(payloadText, 'base64url');
      const signature = Buffer.from(signatureText, 'base64url');
      if (payload.length !== 24 || signature.length !== 64) return undefined;
      if (!verify(null, Buffer.from(`${PREFIX}.${payloadText}`), publicKey, signature)) return undefined;
      return { ticketId: payload.subarray(0, 12).toString('hex'), eventId: payload.subarray(12).toString('hex') };
    },
    publicKey: {
      algorithm: 'Ed25519',
      pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
      codeFormat: 'TK1.<base64url(12-byte ticket id + 12-byte event id)>.<base64url(Ed25519 signature of "TK1.<payload>")>',
    },
  };
}
