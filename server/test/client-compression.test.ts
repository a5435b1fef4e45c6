import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/*
 * The client build writes .br/.gz twins of its assets; the server sends them when they are accepted
 * (express-static-gzip). Pages built per request (the app shell) are compressed as they are sent.
 */

const clientDist = mkdtempSync(path.join(os.tmpdir(), 'tukio-compressed-'));
const shell = `<!doctype html><title>Tukio</title>${'<meta name="x" content="y">'.repeat(40)}<div id="root"></div>`;
const script = `export const greeting = ${JSON.stringify('habari '.repeat(400))};\n`;
let t: TestServer;

beforeAll(async () => {
  mkdirSync(path.join(clientDist, 'assets'));
  writeFileSync(path.join(clientDist, 'index.html'), shell);
  writeFileSync(path.join(clientDist, 'assets/app-1234.js'), script);
  writeFileSync(path.join(clientDist, 'assets/app-1234.js.br'), zlib.brotliCompressSync(script));
  writeFileSync(path.join(clientDist, 'assets/app-1234.js.gz'), zlib.gzipSync(script));
  writeFileSync(path.join(clientDist, 'assets/plain-1234.css'), 'body{margin:0}');
  t = await startTestServer({ CLIENT_DIST: clientDist });
});
afterAll(async () => {
  await t?.close();
  rmSync(clientDist, { recursive: true, force: true });
});

/** A raw request (fetch would decode the body and hide what was sent). */
function get(route: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.request(`${t.url}${route}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('compressed client assets and pages', () => {
  it('sends brotli when accepted, with the type, Vary and the long cache of /assets', async () => {
    const res = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript; charset=utf-8$/i);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('sends gzip when brotli is not accepted (or refused with q=0)', async () => {
    for (const header of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const res = await get('/assets/app-1234.js', { 'accept-encoding': header });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(res.body).toString()).toBe(script);
    }
  });

  it('sends the plain file without an accepted encoding, for files without twins, and for HEAD', async () => {
    const identity = await get('/assets/app-1234.js', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(script);
    expect(identity.headers['content-type']).toMatch(/javascript/);

    const plain = await get('/assets/plain-1234.css', { 'accept-encoding': 'br, gzip' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe('body{margin:0}');

    const head = await get('/assets/app-1234.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
  });

  it('sends the app shell (history fallback) brotli-encoded when accepted, still not cached', async () => {
    const encoded = await get('/events', { 'accept-encoding': 'gzip, br' });
    expect(encoded.status).toBe(200);
    expect(encoded.headers['content-encoding']).toBe('br');
    expect(encoded.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(encoded.headers['cache-control']).toBe('no-cache');
    expect(encoded.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zlib.brotliDecompressSync(encoded.body).toString()).toBe(shell);

    // A gzip-only client gets gzip, a client accepting neither the plain shell.
    const gzipped = await get('/profile', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['cache-control']).toBe('no-cache');
    expect(zlib.gunzipSync(gzipped.body).toString()).toBe(shell);
    const plain = await get('/profile', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(shell);
  });

  it('never serves files outside the assets folder and still 404s unknown assets', async () => {
    writeFileSync(path.join(clientDist, 'secret.js.br'), 'outside');
    const escaped = await get('/assets/..%2Fsecret.js', { 'accept-encoding': 'br' });
    expect([403, 404]).toContain(escaped.status);
    expect(escaped.body.toString()).not.toContain('outside');
    expect((await get('/assets/missing-0000.js', { 'accept-encoding': 'br, gzip' })).status).toBe(404);
  });
});
