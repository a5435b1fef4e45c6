import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { freePort } from '../../server/test/helpers/test-server.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';
import { kenyanDay, signIn } from './helpers/browser.js';

/*
 * The events journey in a real browser against the real server:
 * a user posts an event with an image → it stays private → an admin approves it on /admin →
 * a visitor finds it by searching its description, opens it and shares it.
 */

/** A valid RGB PNG of the given size (a diagonal red-to-green gradient), built from scratch. */
function makePng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      row[1 + x * 3] = Math.round(200 * (1 - t) + 10 * t);
      row[2 + x * 3] = Math.round(16 * (1 - t) + 125 * t);
      row[3 + x * 3] = Math.round(46 * (1 - t) + 62 * t);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let h: Harness;
let tmp: string;
let imagePath: string;
const tile = makePng(256, 256);

/** Nothing leaves the machine: map tiles get a local PNG, share targets an empty page. */
async function keepOffline(context: BrowserContext) {
  const origin = h.server.url;
  await context.route(
    (url) => !url.href.startsWith(origin),
    (route) =>
      /tile\.openstreetmap\.org/.test(route.request().url())
        ? route.fulfill({ status: 200, contentType: 'image/png', body: tile })
        : route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>external</title>' }),
  );
}

async function loginThroughUi(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  // Accounts without an avatar are sent to choose one; either way the session is stored.
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/setAvatar');
}

beforeAll(async () => {
  // A fixed port lets PUBLIC_URL match the address the browser uses, so uploaded images
  // load from the page's own origin (the CSP allows 'self').
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  h = await startHarness({ PORT: String(port), PUBLIC_URL: url, CORS_ORIGINS: url });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'tukio-e2e-events-'));
  imagePath = path.join(tmp, 'poster.png');
  writeFileSync(imagePath, makePng(64, 36));
});

afterAll(async () => {
  await h?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('events in the browser', () => {
  it('post with image → private until approved → admin approves on /admin → visitor searches, opens and shares', async () => {
    const title = 'Lakeside Drumming Circle';
    const keyword = 'marimbaphone';
    const description = `Bring a drum or borrow one: an evening of ${keyword} rhythms and storytelling by the lake.`;
    const planner = await h.server.createUser('ochieng');

    // 1. The organiser logs in through the form and posts the event with an image.
    const organiser = await h.newPage({ width: 360, height: 740 });
    await keepOffline(organiser.context);
    await loginThroughUi(organiser.page, 'ochieng', 'secret123');
    const plan = organiser.page;
    await plan.goto('/plan');
    await plan.getByRole('heading', { name: 'Plan an Event', level: 1 }).waitFor();
    await expect.poll(() => plan.getByRole('listitem').filter({ hasText: 'Add an image and post' }).count()).toBe(1);

    // Required fields are checked before anything is sent.
    await plan.getByRole('button', { name: 'Post Event' }).click();
    await plan.getByText('Title is required.').waitFor();
    await plan.getByText('Location is required.').waitFor();

    await plan.getByLabel('Title').fill(title);
    await plan.getByLabel('Description').fill(description);
    await plan.getByLabel('Date', { exact: true }).fill(kenyanDay(10));
    await plan.getByLabel('Time', { exact: true }).fill('18:30');
    await plan.getByLabel('Location', { exact: true }).fill('KICC, Nairobi');
    await plan.getByLabel('Location', { exact: true }).blur();
    // The location is geocoded on blur and pinned on the map preview.
    await plan.getByText(/Pinned near/).waitFor();
    await plan.locator('.leaflet-container').waitFor();
    await plan.getByLabel('Event image (optional)').setInputFiles(imagePath);
    await plan.getByRole('img', { name: 'Preview of poster.png' }).waitFor();
    await plan.getByRole('button', { name: 'Post Event' }).click();
    await plan.getByRole('heading', { name: 'Event Posted!' }).waitFor();
    await plan.getByText('It will appear on Tukio once an admin approves it.').waitFor();

    const mine = await h.server.api('GET', `/api/events/user/${planner.user._id}`, { token: planner.token });
    const created = (mine.body as Array<Record<string, any>>).find((event) => event.title === title);
    expect(created).toMatchObject({ status: 'pending', description, location: 'KICC, Nairobi', isPaid: false, ticketPrice: 0 });
    expect(created!.image).toMatch(new RegExp(`^${h.server.url}/uploads/[0-9a-f]{24}\\.png$`));
    expect(created!.latitude).toEqual(expect.any(Number));
    expect(created!.date).toBe(`${kenyanDay(10)}T18:30:00.000Z`);
    const eventId = created!._id as string;
    expect(seriousErrors(organiser.errors)).toEqual([]);

    // 2. Not public yet: visitors do not find it.
    const visitor = await h.newPage({ width: 360, height: 740 });
    await keepOffline(visitor.context);
    await visitor.page.goto(`/events?q=${keyword}`);
    await visitor.page.getByText('No events match your search.', { exact: false }).waitFor();
    expect(await visitor.page.getByRole('link', { name: title }).count()).toBe(0);
    expect((await h.server.api('GET', `/api/events?q=${keyword}`)).body.total).toBe(0);
    expect((await h.server.api('GET', `/api/events/${eventId}`)).status).toBe(404);

    // 3. The admin (signed in directly: the organiser used the form) approves it on /admin.
    const admin = await h.newPage({ width: 1280, height: 800 });
    await keepOffline(admin.context);
    await signIn(h, admin.page, 'admin', 'admin-password');
    await admin.page.goto('/admin');
    await admin.page.getByRole('heading', { name: 'Admin Dashboard', level: 1 }).waitFor();
    const pending = admin.page.getByRole('region', { name: /^Pending Events \(\d+\)$/ });
    await pending.getByRole('article', { name: title, exact: true }).waitFor();
    await pending.getByRole('button', { name: `Approve ${title}`, exact: true }).click();
    const approved = admin.page.getByRole('region', { name: /^Approved Events \(\d+\)$/ });
    await approved.getByRole('article', { name: title, exact: true }).waitFor();
    await expect.poll(() => pending.getByRole('article', { name: title, exact: true }).count()).toBe(0);
    expect((await h.server.api('GET', `/api/events/${eventId}`)).body.status).toBe('approved');
    expect(seriousErrors(admin.errors)).toEqual([]);

    // 4. A visitor finds it by part of its description, opens it and shares it.
    const page = visitor.page;
    await page.goto('/events');
    await page.getByPlaceholder('Search events...').fill(keyword.slice(0, 7));
    await page.waitForURL((url) => url.searchParams.get('q') === keyword.slice(0, 7));
    await page.getByRole('link', { name: title }).click();
    await page.waitForURL(`**/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText('Free', { exact: true }).first().waitFor();
    await expect.poll(async () => (await h.server.api('GET', `/api/events/${eventId}`)).body.openedCount).toBeGreaterThanOrEqual(1);
    // The uploaded image is displayed from our own origin (and allowed by the CSP).
    await expect
      .poll(() => page.getByRole('img', { name: title }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(64);

    const tracked = page.waitForResponse((response) => response.url().endsWith(`/api/events/share-track/${eventId}`));
    const popup = page.waitForEvent('popup');
    await page.getByRole('link', { name: /WhatsApp/ }).click();
    const shareWindow = await popup;
    expect(shareWindow.url()).toMatch(/^https:\/\/wa\.me\/\?text=/);
    expect(decodeURIComponent(shareWindow.url())).toContain(`${h.server.url}/events/${eventId}`);
    const response = await tracked;
    expect(response.status()).toBe(200);
    expect((await response.json()).shares).toMatchObject({ whatsapp: 1 });
    // The count is stored: the next share sees it.
    const next = await h.server.api('POST', `/api/events/share-track/${eventId}`, { body: { platform: 'twitter' } });
    expect(next.body.shares).toEqual({ whatsapp: 1, twitter: 1, instagram: 0 });

    expect(seriousErrors(visitor.errors)).toEqual([]);
  });
});

describe('editing an event in the browser', () => {
  it("tells a user at once that they cannot edit someone else's event, and that a pending one is not found: no form", async () => {
    const amina = await h.server.createUser('amina');
    await h.server.createUser('baraka');
    const published = await insertEventRow(h.server.db, { ownerId: amina.user._id, days: 10, title: 'Amina Book Swap' });
    const pending = await insertEventRow(h.server.db, { ownerId: amina.user._id, days: 12, status: 'pending', title: 'Amina Secret Supper' });

    const other = await h.newPage();
    await keepOffline(other.context);
    await loginThroughUi(other.page, 'baraka', 'secret123');
    const page = other.page;
    await page.goto(`/edit-event/${published}`);
    await page.getByRole('alert').filter({ hasText: 'You can only edit events you organise.' }).waitFor();
    expect(await page.getByLabel('Title').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to the event' }).click();
    await page.waitForURL(`**/events/${published}`);
    await page.getByRole('heading', { name: 'Amina Book Swap', level: 1 }).waitFor();

    await page.goto(`/edit-event/${pending}`);
    await page.getByRole('heading', { name: 'Event not found', level: 1 }).waitFor();
    expect(await page.getByLabel('Title').count()).toBe(0);
    expect(await page.getByText('Amina Secret Supper').count()).toBe(0);
    expect(seriousErrors(other.errors)).toEqual([]);

    // Its organiser gets the filled-in form.
    const own = await h.newPage();
    await keepOffline(own.context);
    await signIn(h, own.page, 'amina', 'secret123');
    await own.page.goto(`/edit-event/${published}`);
    await expect.poll(() => own.page.getByLabel('Title').inputValue()).toBe('Amina Book Swap');
    expect(await own.page.getByText('You can only edit events you organise.').count()).toBe(0);
    expect(seriousErrors(own.errors)).toEqual([]);
  });

  it('tells the organiser that a changed title waits for review while the published event stays live', async () => {
    const wanjiku = await h.server.createUser('wanjikuedit');
    const published = await insertEventRow(h.server.db, { ownerId: wanjiku.user._id, days: 10, title: 'Wanjiku Plant Swap' });

    const own = await h.newPage();
    await keepOffline(own.context);
    await signIn(h, own.page, 'wanjikuedit', 'secret123');
    await own.page.goto(`/edit-event/${published}`);
    await expect.poll(() => own.page.getByLabel('Title').inputValue()).toBe('Wanjiku Plant Swap');
    await own.page.getByLabel('Title').fill('Wanjiku Seed Swap');
    await own.page.getByRole('button', { name: 'Update' }).click();
    await own.page.getByTestId('pending-change-notice').getByRole('heading', { name: 'Changes pending review' }).waitFor();
    await own.page.getByRole('cell', { name: 'Wanjiku Seed Swap' }).waitFor();
    // The form keeps the proposed title; the public page keeps the published one.
    expect(await own.page.getByLabel('Title').inputValue()).toBe('Wanjiku Seed Swap');
    await own.page.goto(`/events/${published}`);
    await own.page.getByRole('heading', { name: 'Wanjiku Plant Swap', level: 1 }).waitFor();
    expect(seriousErrors(own.errors)).toEqual([]);
  });
});
