import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/security.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The ticket widget's headers (docs/decisions/widget.md): /widget.js is a cacheable script any origin may load
 * (Cross-Origin-Resource-Policy cross-origin, CORS *); /embed/events/:id may be framed by any website
 * (frame-ancestors *, no X-Frame-Options); every other page still refuses to be framed.
 */

const clientDist = mkdtempSync(path.join(os.tmpdir(), 'tukio-widget-client-'));
const WIDGET_SOURCE = '(function(){/* widget */})();';
let server: TestServer;

beforeAll(async () => {
  writeFileSync(path.join(clientDist, 'index.html'), '<!doctype html><html lang="en"><head><title>Tukio</title></head><body><div id="root"></div></body></html>');
  writeFileSync(path.join(clientDist, 'widget.js'), WIDGET_SOURCE);
  server = await startTestServer({ CLIENT_DIST: clientDist });
});

afterAll(async () => {
  await server?.close();
  rmSync(clientDist, { recursive: true, force: true });
});

const get = (pathname: string, headers: Record<string, string> = {}) => rawRequest(server.url, { method: 'GET', path: pathname, headers });

describe('the ticket widget over HTTP', () => {
  it('/widget.js is a cacheable script that other origins may load', async () => {
    const res = await get('/widget.js', { origin: 'https://organiser.example' });
    expect(res.status).toBe(200);
    expect(res.text).toBe(WIDGET_SOURCE);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // A script is never a page to frame: its CSP stays the app's.
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('/embed/events/:id (the app shell) may be framed by any website', async () => {
    const res = await get('/embed/events/0123456789abcdef01234567?lang=sw');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/frame-ancestors \*(;|$)/);
    // The rest of the policy is the app's own: no inline script, nothing from elsewhere.
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('<div id="root"></div>');
  });

  it('every other page, and the API, still refuse to be framed', async () => {
    for (const pathname of ['/', '/events', '/events/0123456789abcdef01234567', '/t/abc.def', '/embed', '/embedded/events/1', '/api/health']) {
      const res = await get(pathname);
      expect(String(res.headers['content-security-policy']), pathname).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], pathname).toMatch(/^(DENY|SAMEORIGIN)$/);
      expect(res.headers['cross-origin-resource-policy'], pathname).toBe('same-origin');
    }
  });
});
