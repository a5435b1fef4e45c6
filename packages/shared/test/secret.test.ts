import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readOrCreateSecret } from '../src/node/secret.js';

const fixture = new URL('./fixtures/create-secret.ts', import.meta.url).pathname;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-secret-'));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts `count` processes that each call readOrCreateSecret once all of them are ready; their answers. */
async function race(count: number, dir: string, name: string): Promise<string[]> {
  const children = Array.from({ length: count }, () => spawn(process.execPath, ['--import', 'tsx', fixture, dir, name], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const outputs = children.map((child) => {
    let text = '';
    const done = new Promise<string>((resolve, reject) =>
      // 'close', not 'exit': a busy machine can report the exit before the last of its output has been read.
      child.once('close', (code) => (code === 0 ? resolve(text.slice('ready\n'.length).trim()) : reject(new Error(`contender exited with ${code}`)))),
    );
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (text.startsWith('ready\n')) resolve();
      });
      done.catch(reject);
    });
    return { ready, done };
  });
  await Promise.all(outputs.map((output) => output.ready));
  for (const child of children) child.stdin.end('go\n');
  return Promise.all(outputs.map((output) => output.done));
}

describe('readOrCreateSecret', () => {
  it('gives every process started at once the same secret, written whole', async () => {
    const dir = path.join(tempDir(), 'data'); // not there yet: the contenders create it too
    const secrets = await race(12, dir, 'internal-api-key');
    expect(secrets[0]).toMatch(/^[\w-]{64}$/); // 48 random bytes, base64url
    expect(new Set(secrets)).toEqual(new Set([secrets[0]]));
    expect(readFileSync(path.join(dir, 'internal-api-key'), 'utf8')).toBe(secrets[0]);
    expect(statSync(path.join(dir, 'internal-api-key')).mode & 0o777).toBe(0o600);
    // The losers' temporary files are gone.
    expect(readdirSync(dir)).toEqual(['internal-api-key']);
  });

  it('keeps the value across calls', () => {
    const dir = tempDir();
    const secret = readOrCreateSecret(dir, 'jwt-secret');
    expect(readOrCreateSecret(dir, 'jwt-secret')).toBe(secret);
    expect(readOrCreateSecret(dir, 'jwt-secret', 16)).toBe(secret);
  });

  it('keeps a value that is already there (surrounding whitespace is not part of it)', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'simulator-key'), 'an-existing-simulator-key\n');
    expect(readOrCreateSecret(dir, 'simulator-key')).toBe('an-existing-simulator-key');
  });

  it('uses a generator for secrets that are not random bytes, and gives its value back trimmed', () => {
    const dir = tempDir();
    expect(readOrCreateSecret(dir, 'key.pem', () => '-----BEGIN KEY-----\nabc\n-----END KEY-----\n')).toBe('-----BEGIN KEY-----\nabc\n-----END KEY-----');
    expect(readOrCreateSecret(dir, 'key.pem', () => 'never used')).toBe('-----BEGIN KEY-----\nabc\n-----END KEY-----');
  });

  it('refuses a file left empty instead of answering an empty secret', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'jwt-secret'), '');
    expect(() => readOrCreateSecret(dir, 'jwt-secret')).toThrow(/jwt-secret is empty/);
  });
});
