// bench/web.mjs — page weight of the home route: every JS and CSS file the browser downloads when it
// opens '/' (the entry, its modulepreloads and stylesheets, and the lazily loaded home route chunks),
// with raw and gzip sizes (zlib, default level 6, measured here whatever the server sends) and the bytes the
// server actually sent (brotli when the browser accepts it).
// Target: at most 110 KB gzip in total. Then the ticket widget: /widget.js's gzip size (at most 30 KB) and the
// weight of the page it frames, /embed/events/:id.
// Usage: node bench/web.mjs            (builds the client first; SKIP_BUILD=1 to reuse client/dist; CLIENT_DIST=<dir> another build)
// Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium). The real server runs from its sources with
// an embedded PGlite database and the demo events, so the home route renders its cards.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { freePort, root, startApi } from './lib.mjs';

const TARGET_KB = 110;
/** What a host page of the ticket widget loads (client/vite.widget.config.ts fails the build above it too). */
const WIDGET_TARGET_KB = 30;
const clientDist = process.env.CLIENT_DIST ?? path.join(root, 'client/dist');
const kb = (bytes) => (bytes / 1024).toFixed(1);

if (!process.env.SKIP_BUILD) {
  console.log('building the client (npm run build -w client)…');
  execFileSync('npm', ['run', 'build', '-w', 'client'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

// What index.html itself asks for (the browser run below must fetch at least these).
const html = readFileSync(path.join(clientDist, 'index.html'), 'utf8');
const fromHtml = new Set(
  [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]),
);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-bench-web-'));
const port = await freePort();
const api = await startApi({ PORT: String(port), DATA_DIR: dataDir, CLIENT_DIST: clientDist, SEED_DEMO: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  const files = [];
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    const body = await response.body().catch(() => null);
    if (!body) return;
    const sizes = await response.request().sizes().catch(() => null);
    files.push({
      path: new URL(response.url()).pathname,
      type,
      raw: body.length,
      gzip: zlib.gzipSync(body).length,
      // What actually crossed the wire (the server sends the build's brotli twins when accepted).
      sent: sizes?.responseBodySize ?? body.length,
      encoding: response.headers()['content-encoding'] ?? 'none',
    });
  });
  await page.goto(`${api.url}/`, { waitUntil: 'networkidle' });
  // The home route has rendered its event cards (the demo data is seeded) by now.
  await page.locator('.event-card__link').first().waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');

  files.sort((a, b) => b.gzip - a.gzip);
  const width = Math.max(30, ...files.map((file) => file.path.length));
  console.log(`\nJS and CSS downloaded when opening / (${files.length} files)\n`);
  const row = (name, raw, gzip, sent, note = '') =>
    console.log(`${name.padEnd(width)}  ${kb(raw).padStart(8)}  ${kb(gzip).padStart(8)}  ${kb(sent).padStart(8)}  ${note}`);
  console.log(`${'file'.padEnd(width)}  ${'raw KB'.padStart(8)}  ${'gzip KB'.padStart(8)}  ${'sent KB'.padStart(8)}  from, encoding`);
  for (const file of files) {
    row(file.path, file.raw, file.gzip, file.sent, `${fromHtml.has(file.path) ? 'index.html' : 'imported'}, ${file.encoding}`);
  }
  const total = (key, type) => files.filter((file) => !type || file.type === type).reduce((sum, file) => sum + file[key], 0);
  row('JS', total('raw', 'script'), total('gzip', 'script'), total('sent', 'script'));
  row('CSS', total('raw', 'stylesheet'), total('gzip', 'stylesheet'), total('sent', 'stylesheet'));
  row('total', total('raw'), total('gzip'), total('sent'));
  const missing = [...fromHtml].filter((file) => !files.some((seen) => seen.path === file));
  if (missing.length > 0) console.log(`\nnot seen in the browser run although index.html names them: ${missing.join(', ')}`);
  const gzipKb = total('gzip') / 1024;
  console.log(`\ntarget: at most ${TARGET_KB} KB gzip → ${gzipKb <= TARGET_KB ? 'met' : 'NOT met'} (${gzipKb.toFixed(1)} KB)`);

  // The ticket widget (docs/decisions/widget.md): what a host page loads (/widget.js, at most 30 KB gzip),
  // then what the framed page /embed/events/:id downloads (not counted against the host page: its own origin).
  const widget = await page.request.get(`${api.url}/widget.js`);
  const widgetBody = await widget.body();
  const widgetGzipKb = zlib.gzipSync(widgetBody).length / 1024;
  console.log(`\nticket widget: /widget.js ${kb(widgetBody.length)} KB raw, ${widgetGzipKb.toFixed(1)} KB gzip (${widget.headers()['content-type']})`);
  console.log(`widget target: at most ${WIDGET_TARGET_KB} KB gzip → ${widgetGzipKb <= WIDGET_TARGET_KB ? 'met' : 'NOT met'}`);
  const listed = await page.request.get(`${api.url}/api/events?limit=50`).then((response) => response.json()).catch(() => null);
  const paidEvent = (listed?.items ?? []).find((event) => event.isPaid && event.ticketPrice > 0);
  if (paidEvent) {
    const framePage = await context.newPage();
    const frameFiles = [];
    framePage.on('response', async (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet' && type !== 'document') return;
      const body = await response.body().catch(() => null);
      if (body) frameFiles.push({ path: new URL(response.url()).pathname, raw: body.length, gzip: zlib.gzipSync(body).length });
    });
    await framePage.goto(`${api.url}/embed/events/${paidEvent._id}`, { waitUntil: 'networkidle' });
    await framePage.getByRole('region').first().waitFor({ timeout: 15_000 });
    await framePage.waitForLoadState('networkidle');
    const frameGzip = frameFiles.reduce((sum, file) => sum + file.gzip, 0);
    const frameRaw = frameFiles.reduce((sum, file) => sum + file.raw, 0);
    console.log(`\nwidget's framed page /embed/events/:id (${frameFiles.length} files, HTML, JS and CSS, the purchase code the guest ticket box loads included)\n`);
    frameFiles.sort((a, b) => b.gzip - a.gzip);
    for (const file of frameFiles) row(file.path, file.raw, file.gzip, file.gzip);
    row('total', frameRaw, frameGzip, frameGzip);
  } else {
    console.log('widget\'s framed page: no paid demo event found to open');
  }
  process.exitCode = gzipKb <= TARGET_KB && widgetGzipKb <= WIDGET_TARGET_KB ? 0 : 1;
} finally {
  await browser.close();
  await api.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
