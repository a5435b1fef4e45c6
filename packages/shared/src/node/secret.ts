import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** How long a reader waits for a file left empty by an older, non-atomic writer before giving up. */
const EMPTY_FILE_PATIENCE_MS = 2000;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function readSecret(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * A secret left unset in the environment, generated once and kept in `dir/name` (mode 0600), so restarts keep
 * sessions, keys and links valid. `npm start` launches the API server and the payment service together and
 * both persist some of the same secrets (the internal API key): whichever comes first creates the file, the
 * other reads what it wrote, and both hold the same value.
 *
 * The value is written and flushed to a temporary file of its own, then hard-linked to `name`: the link
 * either creates `name` whole or fails with EEXIST (it never replaces a file), so no reader ever sees a
 * partial secret and exactly one creator wins; the losers read the winner's. Surrounding whitespace is not
 * part of the secret. `generate` makes the value: by default 48 random bytes, base64url.
 */
export function readOrCreateSecret(dir: string, name: string, generate: number | (() => string) = 48): string {
  const file = path.join(dir, name);
  const existing = readSecret(file);
  if (existing) return existing;
  if (existing === undefined) {
    mkdirSync(dir, { recursive: true });
    const value = (typeof generate === 'number' ? randomBytes(generate).toString('base64url') : generate()).trim();
    if (!value) throw new Error(`readOrCreateSecret: the generator for ${name} returned nothing`);
    const temporary = path.join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, value);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temporary, file);
      return value;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  // Another process created it first. Written as above, it is complete; an empty file can only come from an
  // older version's plain write still under way (or cut short by a crash): wait for it, then give up loudly.
  const deadline = Date.now() + EMPTY_FILE_PATIENCE_MS;
  for (;;) {
    const value = readSecret(file);
    if (value) return value;
    if (Date.now() > deadline) {
      throw new Error(`${file} is empty: delete it (a new secret is then generated) or set the secret in the environment`);
    }
    sleep(20);
  }
}
