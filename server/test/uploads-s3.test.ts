import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createUnusedUploadsSweep } from '../src/modules/uploads/index.js';
import { createEvent } from './helpers/events.js';
import { startS3Server, type S3TestServer } from './helpers/s3-server.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

const serverDir = new URL('..', import.meta.url).pathname;

/** A real PNG whose pixels depend on `seed`, so every upload has bytes of its own. */
function png(seed: number): Buffer {
  const image = new PNG({ width: 3, height: 2 });
  image.data.forEach((_, index) => (image.data[index] = (index * 37 + seed * 101) % 256));
  return PNG.sync.write(image);
}

async function upload(server: TestServer, token: string, content: Buffer, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type: 'image/png' }), filename);
  const response = await fetch(`${server.url}/api/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const nameOf = (uploadPath: string) => uploadPath.replace(/^\/uploads\//, '');

describe('event images on S3, streamed by the API (no S3_PUBLIC_URL)', () => {
  let s3: S3TestServer;
  let t: TestServer;
  let token: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startTestServer(s3.env);
    token = (await t.createUser('bucketeer')).token;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('puts the image in the bucket as events/<id>.<ext> with its type and a long cache, and serves the same bytes at its URL', async () => {
    const image = png(1);
    const res = await upload(t, token, image, '../../evil name.png');
    expect(res.status).toBe(201);
    // The addresses the client already gets, whatever the store.
    expect(res.body.path).toMatch(/^\/uploads\/[0-9a-f]{24}\.png$/);
    expect(res.body.secure_url).toBe(`${t.config.publicUrl}${res.body.path}`);
    expect(res.body).toMatchObject({ type: 'image/png', bytes: image.length });

    const key = `events/${nameOf(res.body.path)}`;
    expect(await s3.keys()).toContain(key);
    const stored = await s3.read(key);
    expect(stored.bytes.equals(image)).toBe(true);
    expect(stored.contentType).toBe('image/png');
    expect(stored.cacheControl).toBe('public, max-age=31536000, immutable');
    // Nothing went to local disk.
    expect(existsSync(path.join(t.config.dataDir, 'uploads'))).toBe(false);

    const served = await fetch(res.body.secure_url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);

    // A browser that has it already is told so without the bytes.
    const etag = served.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(res.body.secure_url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('removes from the bucket the images no event shows, and keeps the ones in use', async () => {
    const [used, unused] = [await upload(t, token, png(7), 'used.png'), await upload(t, token, png(8), 'unused.png')];
    await createEvent(t, token, { image: used.body.path });
    // The bucket's objects cannot be made to look a day old: this sweep takes any age.
    const sweep = createUnusedUploadsSweep({ store: t.services.uploads.store, imagesInUse: t.services.events.imagesInUse, logger: createLogger('silent'), everyMs: 0, unusedAfterMs: 0 });
    expect(await sweep.runOnce()).toBeGreaterThanOrEqual(1);
    const keys = await s3.keys();
    expect(keys).toContain(`events/${nameOf(used.body.path)}`);
    expect(keys).not.toContain(`events/${nameOf(unused.body.path)}`);
    expect((await fetch(`${t.url}${unused.body.path}`)).status).toBe(404);
  });

  it('refuses a non-image with 415 and stores nothing', async () => {
    await upload(t, token, png(2), 'first.png');
    const before = await s3.keys();
    const res = await upload(t, token, Buffer.from('<html><script>alert(1)</script></html>'), 'page.png');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ msg: 'Only JPEG, PNG, WebP or GIF images can be uploaded.', field: 'file' });
    expect(await s3.keys()).toEqual(before);
  });

  it('answers a JSON 404 for a name that is not in the bucket or not one of ours', async () => {
    for (const route of ['/uploads/0123456789abcdef01234567.png', '/uploads/..%2F..%2Fetc%2Fpasswd', '/uploads/events', '/uploads/']) {
      const res = await fetch(`${t.url}${route}`);
      expect(res.status, route).toBe(404);
      expect(res.headers.get('content-type'), route).toMatch(/json/);
    }
  });

  // Last in this group: it stops the bucket.
  it('answers uploads and images while the bucket is unreachable with a 503 to retry that tells nothing of it', async () => {
    const stored = await upload(t, token, png(4), 'early.png');
    expect(stored.status).toBe(201);
    await s3.close();
    const res = await upload(t, token, png(5), 'late.png');
    expect(res.status).toBe(503);
    expect(res.body.msg).toBe('Images cannot be stored right now. Please try again in a moment.');
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|S3|bucket/i);
    const served = await fetch(stored.body.secure_url);
    expect(served.status).toBe(503);
    const body = (await served.json()) as Record<string, unknown>;
    expect(body.msg).toBe('This image cannot be loaded right now. Please try again in a moment.');
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|S3|bucket/i);
  });
});

describe('event images on S3 with S3_PUBLIC_URL', () => {
  let s3: S3TestServer;
  let t: TestServer;
  let token: string;
  let publicUrl: string;

  beforeAll(async () => {
    s3 = await startS3Server('tukio-public');
    // s3rver answers anonymous GETs path-style, as a public bucket (or its CDN) would.
    publicUrl = `${s3.endpoint}/${s3.bucket}`;
    t = await startTestServer({ ...s3.env, S3_PUBLIC_URL: publicUrl, SEED_DEMO: 'true' });
    token = (await t.createUser('cdnuser')).token;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('keeps the /uploads URL and sends browsers to the bucket for the bytes', async () => {
    const image = png(3);
    const res = await upload(t, token, image, 'poster.png');
    expect(res.status).toBe(201);
    expect(res.body.secure_url).toBe(`${t.config.publicUrl}${res.body.path}`);

    const redirect = await fetch(res.body.secure_url, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe(`${publicUrl}/events/${nameOf(res.body.path)}`);
    expect(redirect.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const served = await fetch(res.body.secure_url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
  });

  it('lets pages load images from the bucket (a plain-http one too) under the CSP', async () => {
    const res = await fetch(`${t.url}/api/health`);
    expect(res.headers.get('content-security-policy')).toMatch(new RegExp(`img-src [^;]*${s3.endpoint.replace(/\./g, '\\.')}`));
  });

  it('puts the demo events’ posters in the bucket too', async () => {
    const posters = (await s3.keys()).filter((key) => key.endsWith('.svg'));
    expect(posters.length).toBeGreaterThan(0);
    const poster = await s3.read(posters[0]!);
    expect(poster.contentType).toBe('image/svg+xml');
    expect(poster.bytes.toString('utf8')).toContain('<svg');
    const events = await t.api('GET', '/api/events');
    const images: string[] = JSON.stringify(events.body).match(/\/uploads\/[0-9a-f]{24}\.svg/g) ?? [];
    expect(images.length).toBeGreaterThan(0);
    expect(posters).toContain(`events/${nameOf(images[0]!)}`);
  });
});

describe('S3 configuration', () => {
  const base = { DATA_DIR: '/tmp/tukio-config-test', JWT_SECRET: 'x'.repeat(32), INTERNAL_API_KEY: 'k' };

  it.each([
    [{ S3_BUCKET: 'tukio-images' }, /missing S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/],
    [{ S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }, /missing S3_BUCKET/],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /missing S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/],
    [{ S3_BUCKET: 'Not A Bucket', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }, /S3_BUCKET: must be an S3 bucket name/],
    [{ S3_BUCKET: 'tukio-images', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret', S3_PUBLIC_URL: 'images.example.com' }, /S3_PUBLIC_URL/],
  ])('refuses %o with a message naming the variables', (env, message) => {
    const load = () => loadConfig({ ...base, ...env });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it('reads disk by default, and the S3 settings with their defaults', () => {
    expect(loadConfig(base).objectStorage).toEqual({ kind: 'disk' });
    expect(loadConfig({ ...base, S3_BUCKET: 'tukio-images', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret', S3_PUBLIC_URL: 'https://cdn.example.com/' }).objectStorage).toEqual({
      kind: 's3',
      bucket: 'tukio-images',
      region: 'us-east-1',
      endpoint: undefined,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      publicUrl: 'https://cdn.example.com',
    });
  });

  it('the server refuses to start with a bucket but no keys, saying what is missing', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-s3-config-'));
    try {
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('S3_')));
      const start = promisify(execFile)(process.execPath, ['--conditions=@tukio/source', '--import', 'tsx', 'src/index.ts'], {
        cwd: serverDir,
        env: { ...env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'error', S3_BUCKET: 'tukio-images' },
        timeout: 60_000,
      });
      const failure = (await start.then(
        () => undefined,
        (error: unknown) => error,
      )) as { code?: unknown; stderr?: string } | undefined;
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('Invalid configuration: S3 storage needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together; missing S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
