import { readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEvent } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * A disk that fills up: while `fullDisk.on`, a write into an uploads folder stores the first half of the
 * bytes and then fails with ENOSPC, as a real full disk does mid-write.
 */
const fullDisk = vi.hoisted(() => ({ on: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile: typeof fs.writeFile = async (file, data, options) => {
    if (!fullDisk.on || typeof file !== 'string' || !file.includes(`${path.sep}uploads${path.sep}`) || !Buffer.isBuffer(data)) return fs.writeFile(file, data, options);
    await fs.writeFile(file, data.subarray(0, data.length / 2), options);
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  return { ...fs, default: { ...fs, writeFile }, writeFile };
});

let t: TestServer;
let organiser: { token: string };

/** A small GIF (the type is told by its first bytes). */
const gif = (fill: number) => Buffer.concat([Buffer.from('GIF89a', 'ascii'), Buffer.alloc(200, fill)]);

async function upload(content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type: 'image/gif' }), 'poster.gif');
  const response = await fetch(`${t.url}/api/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${organiser.token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const uploadsFolder = () => path.join(t.config.dataDir, 'uploads');
const filesInUploads = () => {
  try {
    return readdirSync(uploadsFolder()).sort();
  } catch {
    return [];
  }
};
/** Makes a stored upload look `days` old. */
const age = (name: string, days: number) => {
  const then = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  utimesSync(path.join(uploadsFolder(), name), then, then);
};

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('mpangaji');
});

afterAll(async () => {
  await t?.close();
});

describe('uploads on the local disk', () => {
  it('leaves no file at all, under its name or another, when the disk fills up mid-write', async () => {
    expect((await upload(gif(1))).status).toBe(201); // the folder exists, with one whole image
    const before = filesInUploads();
    fullDisk.on = true;
    try {
      const res = await upload(gif(2));
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('image_storage_unavailable');
    } finally {
      fullDisk.on = false;
    }
    expect(filesInUploads()).toEqual(before);
  });

  it('removes a day-old upload no event shows, and keeps the ones in use and the new ones', async () => {
    const [used, unused, fresh, replaced] = [await upload(gif(3)), await upload(gif(4)), await upload(gif(5)), await upload(gif(6))];
    for (const res of [used, unused, fresh, replaced]) expect(res.status).toBe(201);
    const nameOf = (res: { body: Record<string, any> }) => String(res.body.path).replace('/uploads/', '');
    // One event shows `used` (stored as our path), another showed `replaced` and now shows `used` by its absolute URL.
    await createEvent(t, organiser.token, { image: used.body.path });
    const other = await createEvent(t, organiser.token, { image: replaced.body.secure_url });
    const edited = await t.api('PUT', `/api/events/${other._id}`, { token: organiser.token, body: { image: used.body.secure_url } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    for (const res of [used, unused, replaced]) age(nameOf(res), 2);

    expect(await t.services.uploadsSweep.runOnce()).toBeGreaterThanOrEqual(2);

    const status = async (res: { body: Record<string, any> }) => (await fetch(`${t.url}${res.body.path}`)).status;
    expect(await status(used)).toBe(200);
    expect(await status(fresh)).toBe(200); // unused, but not a day old: an event may still be saved with it
    expect(await status(unused)).toBe(404);
    expect(await status(replaced)).toBe(404);
    expect(filesInUploads()).not.toContain(nameOf(unused));
  });
});
