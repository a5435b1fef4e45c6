import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGeocodingService, geocodeOffline } from '../src/modules/geocoding/geocoding.service.js';
import { kenyaPlaces } from '../src/modules/geocoding/kenya-places.js';
import { createEvent } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let t: TestServer;
let user: { token: string };
let admin: { token: string };
const clientRoot = mkdtempSync(path.join(os.tmpdir(), 'tukio-client-'));
const clientDist = path.join(clientRoot, 'dist');
const GENERIC_SHELL = '<div id="root"></div>';

beforeAll(async () => {
  mkdirSync(clientDist);
  mkdirSync(path.join(clientRoot, 'dist-ssr'));
  // The client build's manifest (Vite's build.manifest): each module's chunk, stylesheets and imports.
  const manifest = {
    'index.html': { file: 'assets/index-e.js', css: ['assets/index-e.css'], imports: ['_vendor-v.js'], isEntry: true },
    '_vendor-v.js': { file: 'assets/vendor-v.js' },
    '_shared-s.js': { file: 'assets/shared-s.js', css: ['assets/shared-s.css'], imports: ['_vendor-v.js'] },
    'src/app/routes/event-detail.tsx': { file: 'assets/event-detail-abc.js', css: ['assets/event-detail-abc.css'], imports: ['_shared-s.js', '_vendor-v.js'], isDynamicEntry: true },
    'src/app/routes/events.tsx': { file: 'assets/events-x.js', css: ['assets/events-x.css'], imports: ['_vendor-v.js'], isDynamicEntry: true },
  };
  mkdirSync(path.join(clientDist, '.vite'));
  writeFileSync(path.join(clientDist, '.vite', 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(
    path.join(clientDist, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8" /><title>Tukio</title><meta name="description" content="Events in Kenya" /></head><body>${GENERIC_SHELL}</body></html>`,
  );
  // Stands in for the client's server-side build (client/src/prerender.tsx).
  writeFileSync(
    path.join(clientRoot, 'dist-ssr', 'prerender.js'),
    `let renders = 0;
export function renderEventShell(event) {
  if (event.title === 'Renderer breaks') throw new Error('render failed');
  renders += 1;
  return '<h1 data-render="' + renders + '">' + event.title.replace(/</g, '&lt;') + '</h1>';
}`,
  );
  t = await startTestServer({ CLIENT_DIST: clientDist });
  user = await t.createUser('uploader');
  admin = await t.loginAdmin();
});
afterAll(async () => {
  await t?.close();
  rmSync(clientRoot, { recursive: true, force: true });
});

function crc32(buffer: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1×1 red PNG. */
function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function upload(content: Buffer, filename: string, options: { token?: string | undefined; field?: string; type?: string } = {}) {
  const form = new FormData();
  form.append(options.field ?? 'file', new Blob([new Uint8Array(content)], { type: options.type ?? 'image/png' }), filename);
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${t.url}/api/uploads`, { method: 'POST', body: form, headers });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('POST /api/uploads', () => {
  it('stores a real PNG under a server-made name and serves it immutable and nosniff', async () => {
    const png = tinyPng();
    const res = await upload(png, '../../evil name.png', { token: user.token });
    expect(res.status).toBe(201);
    expect(res.body.secure_url).toMatch(new RegExp(`^${t.config.publicUrl}/uploads/[0-9a-f]{24}\\.png$`));
    expect(res.body.url).toBe(res.body.secure_url);
    expect(res.body.path).toMatch(/^\/uploads\/[0-9a-f]{24}\.png$/);

    const served = await fetch(`${t.url}${res.body.path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(served.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    // The URL is accepted as an event image.
    const event = await createEvent(t, user.token, { image: res.body.secure_url });
    expect(event.image).toBe(res.body.secure_url);
  });

  it('detects JPEG, WebP and GIF by content', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64)]);
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(32)]);
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)]);
    for (const [content, ext] of [[jpeg, 'jpg'], [webp, 'webp'], [gif, 'gif']] as const) {
      const res = await upload(content, 'picture.bin', { token: user.token, type: 'application/octet-stream' });
      expect(res.status, ext).toBe(201);
      expect(res.body.path).toMatch(new RegExp(`\\.${ext}$`));
    }
  });

  it('refuses a renamed non-image, SVG and HTML whatever the name or declared type', async () => {
    const cases: [Buffer, string][] = [
      [Buffer.from('<html><script>alert(1)</script></html>'), 'photo.png'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg'],
      [Buffer.from('%PDF-1.7 not an image'), 'poster.jpg'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'truncated.png'],
    ];
    for (const [content, name] of cases) {
      const res = await upload(content, name, { token: user.token });
      expect(res.status, name).toBe(415);
      expect(res.body.msg).toBe('Only JPEG, PNG, WebP or GIF images can be uploaded.');
    }
  });

  it('refuses a file over 5 MB with a clear 413', async () => {
    const big = Buffer.concat([tinyPng(), Buffer.alloc(5 * 1024 * 1024)]);
    const res = await upload(big, 'huge.png', { token: user.token });
    expect(res.status).toBe(413);
    expect(res.body.msg).toBe('The image must be at most 5 MB.');
  });

  it('needs a login, the field "file" and a multipart body', async () => {
    expect((await upload(tinyPng(), 'a.png')).status).toBe(401);
    const wrongField = await upload(tinyPng(), 'a.png', { token: user.token, field: 'image' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.msg).toBe('Choose an image to upload (multipart form field "file").');
    const json = await t.api('POST', '/api/uploads', { token: user.token, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('Choose an image to upload (multipart form field "file").');
  });

  it('answers 404 for a missing upload instead of the app shell', async () => {
    const res = await fetch(`${t.url}/uploads/0123456789abcdef01234567.png`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });
});

describe('geocoding', () => {
  it('has at least 60 built-in places with coordinates in or near Kenya', () => {
    expect(kenyaPlaces.length).toBeGreaterThanOrEqual(60);
    for (const place of kenyaPlaces) {
      expect(place.lat, place.name).toBeGreaterThan(-5);
      expect(place.lat, place.name).toBeLessThan(5.1);
      expect(place.lon, place.name).toBeGreaterThan(33.9);
      expect(place.lon, place.name).toBeLessThan(42);
    }
  });

  it('matches the most specific name in the text, case-insensitively and on whole words', () => {
    expect(geocodeOffline('Tickets at KICC, Nairobi')?.name).toBe('Kenyatta International Convention Centre');
    expect(geocodeOffline('nyali beach, MOMBASA')?.name).toBe('Nyali Beach');
    expect(geocodeOffline('Lake Nakuru NP gate')?.name).toBe('Lake Nakuru National Park');
    expect(geocodeOffline('Muranga town hall')?.name).toBe("Murang'a");
    expect(geocodeOffline('Lamuria')).toBeUndefined();
    expect(geocodeOffline('')).toBeUndefined();
  });

  it('GET /api/geocode answers {lat, lon, name} or 404 {msg}', async () => {
    const res = await t.api('GET', '/api/geocode?q=Uhuru%20Gardens%2C%20Langata');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lat: -1.327, lon: 36.8013, name: 'Uhuru Gardens' });
    const missing = await t.api('GET', '/api/geocode?q=Atlantis');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('No place found for "Atlantis".');
    expect((await t.api('GET', '/api/geocode')).status).toBe(400);
  });

  it('uses a configured online geocoder first and falls back to the list on errors and timeouts', async () => {
    let mode: 'ok' | 'empty' | 'slow' | 'error' = 'ok';
    let calls = 0;
    const server: Server = createServer((req, res) => {
      calls += 1;
      const q = new URL(req.url!, 'http://x').searchParams.get('q');
      if (mode === 'slow') return void setTimeout(() => res.end('[]'), 10_000);
      if (mode === 'error') return void res.writeHead(500).end();
      res.setHeader('content-type', 'application/json');
      res.end(mode === 'empty' ? '[]' : JSON.stringify([{ lat: '-1.1', lon: '36.9', display_name: `Online ${q}` }]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
      const geocoding = createGeocodingService({ url, timeoutMs: 200 });
      expect(await geocoding.geocode('Somewhere in Kiambu')).toEqual({ lat: -1.1, lon: 36.9, name: 'Online Somewhere in Kiambu' });
      await geocoding.geocode('Somewhere in Kiambu');
      expect(calls).toBe(1); // cached
      mode = 'empty';
      expect((await geocoding.geocode('Fort Jesus'))?.name).toBe('Fort Jesus');
      mode = 'error';
      expect((await geocoding.geocode('Eldoret'))?.name).toBe('Eldoret');
      mode = 'slow';
      const started = Date.now();
      expect((await geocoding.geocode('Kisumu'))?.name).toBe('Kisumu');
      // Its 200 ms timeout gave up on the geocoder, long before the 10 s answer.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('GET /events/:id share page', () => {
  it('puts escaped Open Graph, Twitter and JSON-LD tags for an approved event into the shell', async () => {
    const title = 'Jazz & "Friends" </script><script>alert(1)</script>';
    const event = await createEvent(
      t,
      user.token,
      { title, description: 'An <b>evening</b>\nof music.', image: 'https://img.example.com/p.jpg', location: 'KICC, Nairobi', latitude: null, longitude: null, isPaid: true, ticketPrice: 500 },
      { approveWith: admin.token },
    );
    const res = await fetch(`${t.url}/events/${event._id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    const escapedTitle = 'Jazz &#38; &#34;Friends&#34; &#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;';
    expect(html).toContain(`<meta property="og:title" content="${escapedTitle}"`);
    expect(html).toContain('<meta property="og:description" content="An &#60;b&#62;evening&#60;/b&#62; of music."');
    expect(html).toContain('<meta property="og:image" content="https://img.example.com/p.jpg"');
    expect(html).toContain('<link rel="preload" as="image" href="https://img.example.com/p.jpg" fetchpriority="high" />');
    expect(html).toContain(`<meta property="og:url" content="${t.config.publicUrl}/events/${event._id}"`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
    expect(html).toContain(`<title>${escapedTitle} | Tukio</title>`);
    expect(html).not.toContain('content="Events in Kenya"');
    // Only the one real script end tag follows the JSON-LD.
    expect(html).not.toContain('<script>alert(1)');
    const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(jsonLd).toBeDefined();
    const data = JSON.parse(jsonLd!);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: title,
      // 18:00 as typed is 18:00 in Kenya.
      startDate: `${event.date.slice(0, 19)}+03:00`,
      image: ['https://img.example.com/p.jpg'],
      location: { '@type': 'Place', name: 'KICC, Nairobi', geo: { latitude: -1.2887, longitude: 36.8233 } },
      offers: { price: 500, priceCurrency: 'KES' },
    });
    // The page's own data, as the API answers it, so the first paint needs no second request.
    const embedded = /<script type="application\/json" id="initial-event">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(embedded).toBeDefined();
    const api = await (await fetch(`${t.url}/api/events/${event._id}`)).json();
    expect(JSON.parse(embedded!)).toEqual(api);
  });

  it("renders the event's header and hero into the page with the event page's stylesheet, and falls back to the empty shell", async () => {
    const event = await createEvent(t, user.token, { title: 'Rendered <early>' }, { approveWith: admin.token });
    const html = await (await fetch(`${t.url}/events/${event._id}`)).text();
    const rendered = /<div id="root"><h1 data-render="(\d+)">Rendered &lt;early><\/h1><\/div>/.exec(html);
    expect(rendered).not.toBeNull();
    // Only the stylesheet of the event page's own chunk, before </head>, applied, so the rendered hero is styled
    // on its first paint; its code and its imports' stylesheets are left to the client (the page is painted
    // without them, and they would compete with the hero's image for a slow phone's bandwidth).
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/event-detail-abc.css"></head>');
    expect(html).not.toContain('href="/assets/event-detail-abc.js"');
    expect(html).not.toContain('href="/assets/shared-s');
    expect(html).not.toContain('href="/assets/events-x');

    // Rendered once per version of the event: the same markup again, a new one after an edit.
    expect(await (await fetch(`${t.url}/events/${event._id}`)).text()).toContain(`<h1 data-render="${rendered![1]}">Rendered &lt;early></h1>`);
    // An admin's edit: an organiser's would send the event back to review (security-data-loss.test.ts).
    const edit = await t.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { title: 'Rendered again' } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const edited = await (await fetch(`${t.url}/events/${event._id}`)).text();
    expect(edited).toMatch(/<h1 data-render="\d+">Rendered again<\/h1>/);
    expect(edited).not.toContain(`data-render="${rendered![1]}"`);

    // A renderer that throws costs the early paint, not the page.
    const broken = await createEvent(t, user.token, { title: 'Renderer breaks' }, { approveWith: admin.token });
    const res = await fetch(`${t.url}/events/${broken._id}`);
    expect(res.status).toBe(200);
    const fallback = await res.text();
    expect(fallback).toContain(GENERIC_SHELL);
    expect(fallback).toContain('<title>Renderer breaks | Tukio</title>');
    // The empty shell styles nothing: the route's code brings its stylesheets.
    expect(fallback).not.toContain('rel="stylesheet"');
  });

  it('answers every other client route with the plain shell, not cached, naming no route files', async () => {
    for (const pathname of ['/', '/events?q=x', '/profile', '/no/such/page']) {
      const res = await fetch(`${t.url}${pathname}`);
      expect(res.headers.get('cache-control'), pathname).toBe('no-cache');
      const page = await res.text();
      expect(page, pathname).toContain(GENERIC_SHELL);
      expect(page, pathname).not.toContain('/assets/');
    }
  });

  it('puts the first search of the /events page into it: the body the API answers for the path the client asks', async () => {
    const title = `Listed </script><b>${Date.now()}`;
    await createEvent(t, user.token, { title }, { approveWith: admin.token });
    const embedded = async (address: string) => {
      const html = await (await fetch(`${t.url}${address}`)).text();
      const found = /<script type="application\/json" id="initial-events" data-path="([^"]*)">([\s\S]*?)<\/script>/.exec(html);
      return found ? { path: found[1]!.replaceAll('&#38;', '&'), body: JSON.parse(found[2]!) } : undefined;
    };
    const plain = await embedded('/events');
    expect(plain?.path).toBe('/events?limit=12');
    expect(plain?.body).toEqual((await t.api('GET', '/api/events?limit=12')).body);
    expect(plain?.body.items.map((event: { title: string }) => event.title)).toContain(title);

    // The filters of the address, in the client's order, with its page size.
    const filtered = await embedded(`/events?page=2&free=true&location=Nairobi&q=${encodeURIComponent('  Listed ')}&other=x`);
    expect(filtered?.path).toBe('/events?q=Listed&location=Nairobi&free=true&page=2&limit=12');
    expect(filtered?.body).toEqual((await t.api('GET', '/api/events?q=Listed&location=Nairobi&free=true&page=2&limit=12')).body);
    // A search the API refuses: no data, the page asks and shows the API's message.
    expect(await embedded(`/events?q=${'x'.repeat(300)}`)).toBeUndefined();
    // Matched as React Router matches: case and a trailing slash do not matter. Other routes carry none.
    expect((await embedded('/EVENTS/'))?.path).toBe('/events?limit=12');
    expect(await embedded('/about')).toBeUndefined();
  });

  it('makes our own upload an absolute og:image', async () => {
    const png = await upload(tinyPng(), 'a.png', { token: user.token });
    const event = await createEvent(t, user.token, { title: 'With upload', image: png.body.path }, { approveWith: admin.token });
    const html = await (await fetch(`${t.url}/events/${event._id}`)).text();
    expect(html).toContain(`<meta property="og:image" content="${t.config.publicUrl}${png.body.path}"`);
  });

  it('sends the share page brotli-encoded when the browser accepts it', async () => {
    const event = await createEvent(t, user.token, { title: 'Compressed share page' }, { approveWith: admin.token });
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      request(`${t.url}/events/${event._id}`, { headers: { 'accept-encoding': 'br' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(raw.headers['content-encoding']).toBe('br');
    expect(raw.headers['content-type']).toMatch(/text\/html/);
    expect(raw.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(raw.body).toString()).toContain('<title>Compressed share page | Tukio</title>');
  });

  it('serves a page opened again from memory (same bytes, ETag, 304) and picks up a new client build', async () => {
    const event = await createEvent(t, user.token, { title: 'Opened twice' }, { approveWith: admin.token });
    const first = await fetch(`${t.url}/events/${event._id}`, { headers: { 'accept-encoding': 'gzip' } });
    const again = await fetch(`${t.url}/events/${event._id}`, { headers: { 'accept-encoding': 'gzip' } });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe(await first.text());
    const revalidated = await fetch(`${t.url}/events/${event._id}`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag!, 'cache-control': 'max-age=0' } });
    expect(revalidated.status).toBe(304);

    // A new build of the client (index.html rewritten) reaches the same event's page without a restart.
    const indexHtml = path.join(clientDist, 'index.html');
    const original = readFileSync(indexHtml, 'utf8');
    try {
      writeFileSync(indexHtml, original.replace('<title>Tukio</title>', '<title>Tukio</title><meta name="build" content="next" />'));
      await vi.waitFor(async () => expect(await (await fetch(`${t.url}/events/${event._id}`)).text()).toContain('<meta name="build" content="next" />'), { timeout: 15_000 });
    } finally {
      writeFileSync(indexHtml, original);
    }
  });

  it('serves the plain shell for pending, unknown and other routes', async () => {
    const pending = await createEvent(t, user.token, { title: 'Hidden pending' });
    for (const route of [`/events/${pending._id}`, '/events/0123456789abcdef01234567', '/events/not-an-id', '/events', '/profile']) {
      const res = await fetch(`${t.url}${route}`);
      expect(res.status, route).toBe(200);
      const html = await res.text();
      expect(html, route).toContain('<title>Tukio</title>');
      expect(html, route).not.toContain('og:title');
      expect(html, route).not.toContain('id="initial-event"');
      expect(html, route).toContain(GENERIC_SHELL);
      expect(html, route).not.toContain('Hidden pending');
    }
  });
});
