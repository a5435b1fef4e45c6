import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { accessibilityProblems, loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * The installable, offline app (docs/decisions/offline.md) in a real browser with the network cut
 * (`context.setOffline`): a ticket opens offline after one online visit; two gate devices scan the
 * same ticket offline, come back online and sync, and both show one scan accepted and the other
 * flagged; a void ticket is refused offline once the gate list is synced; a new build deployed under
 * an open page leaves that page working and updates it when the user agrees.
 *
 * The server serves a copy of client/dist (run `npm run build -w client` first), so the last test can
 * deploy a new build over it.
 */

const clientRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

let h: Harness;
let root: string;
let organiser: Session;
let holder: Session;

/** Only our server is reachable (map tiles and other hosts get an empty answer). */
async function keepLocal(context: BrowserContext) {
  await context.route(
    (url) => !url.href.startsWith(h.server.url),
    (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: '' }),
  );
}

/** Waits until the service worker controls the page and has precached the app. */
async function installed(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 20_000 }).toBe(true);
}

/** The holder's tickets for an event, with their codes (through the API). */
async function ticketsOf(session: Session, eventId: string) {
  const res = await h.server.api('GET', '/api/tickets/mine', { token: session.token });
  return (res.body as Array<{ _id: string; code: string; event: { _id: string } }>).filter((ticket) => ticket.event._id === eventId);
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'tukio-e2e-offline-'));
  cpSync(path.join(clientRoot, 'dist'), path.join(root, 'dist'), { recursive: true });
  cpSync(path.join(clientRoot, 'dist-ssr'), path.join(root, 'dist-ssr'), { recursive: true });
  h = await startHarness({ CLIENT_DIST: path.join(root, 'dist') });
  organiser = await h.server.createUser('gatekeeper');
  holder = await h.server.createUser('achieng');
  await setAvatar(h, organiser);
  await setAvatar(h, holder);
}, 120_000);

afterAll(async () => {
  await h?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('offline', () => {
  it('opens My Tickets and the QR with the network off after one online visit, and a visited event page', async () => {
    const title = 'Lamu Dhow Sunset Cruise';
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 9, title, location: 'Lamu Old Town Jetty' });
    expect((await h.server.api('POST', `/api/events/register/${eventId}`, { token: holder.token, body: { tickets: 1 } })).status).toBe(200);

    const { context, page, errors } = await h.newPage({ width: 390, height: 844, serviceWorker: true });
    await keepLocal(context);
    await loginThroughUi(page, 'achieng');
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await installed(page);
    await page.goto('/profile');
    const section = page.getByRole('region', { name: /My Tickets/ });
    await section.getByRole('img', { name: `QR code for ${title}, ticket 1 of 1` }).waitFor();

    // Airplane mode: a fresh load of /profile comes from the device.
    await context.setOffline(true);
    await page.reload();
    await page.getByText('You are offline.').waitFor();
    await section.getByText(/You are offline: these are your tickets as saved on this device/).waitFor();
    const card = section.getByRole('listitem').filter({ hasText: title });
    await card.getByRole('link', { name: title }).waitFor();
    await card.getByText('Lamu Old Town Jetty').waitFor();
    await card.getByText('achieng', { exact: true }).waitFor();
    expect(await card.locator('dd').first().textContent()).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
    await expect.poll(() => card.locator('.ticket-qr svg path').count()).toBeGreaterThan(0);
    // No cancel or transfer offline: those need the server.
    expect(await card.getByRole('button', { name: /Cancel|Transfer/ }).count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(os.tmpdir(), 'tukio-offline-ticket-390.png'), fullPage: true });

    // The event page opened online opens too, from the copy kept when it was visited.
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();

    await context.setOffline(false);
    expect(seriousErrors(errors).filter((error) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|Network Error/i.test(error))).toEqual([]);
  });

  it('two gates scan the same ticket offline; after syncing one is accepted and the other flagged on both; a void ticket is refused offline', async () => {
    const title = 'Kilifi Beach Reggae Night';
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 4, title });
    expect((await h.server.api('POST', `/api/events/register/${eventId}`, { token: holder.token, body: { tickets: 2 } })).status).toBe(200);
    const [ticket, other] = await ticketsOf(holder, eventId);

    /** A gate device: the organiser signed in, the check-in page open with the gate list downloaded, named. */
    async function gate(name: string, width: number) {
      const { context, page, errors } = await h.newPage({ width, height: 900, serviceWorker: true });
      await keepLocal(context);
      await loginThroughUi(page, 'gatekeeper');
      await page.goto(`/checkin/${eventId}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByText('0 of 2 checked in').waitFor();
      await page.getByRole('button', { name: 'Rename device' }).click();
      await page.getByLabel('Device name').fill(name);
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByText(`This device: ${name}`).waitFor();
      return { context, page, errors, result: page.locator('.checkin__result-area') };
    }
    const scan = async (page: Page, code: string) => {
      await page.getByLabel('Ticket code').fill(code);
      await page.getByRole('button', { name: 'Check in', exact: true }).click();
    };

    const a = await gate('Gate A', 390);
    const b = await gate('Gate B', 1280);
    await a.context.setOffline(true);
    await b.context.setOffline(true);
    await a.page.getByText('Offline', { exact: true }).waitFor();
    await b.page.getByText('Offline', { exact: true }).waitFor();

    await scan(a.page, ticket!.code);
    await a.result.getByText('Saved offline', { exact: true }).waitFor();
    await a.result.getByText(/genuine ticket for this event/).waitFor();
    await scan(b.page, ticket!.code);
    await b.result.getByText('Saved offline', { exact: true }).waitFor();
    // The same device scanning it again is told at once.
    await scan(b.page, ticket!.code);
    await b.result.getByText('Already scanned', { exact: true }).waitFor();

    // Gate A's connection returns first: its scan is the first one the server hears of, and the earliest.
    await a.context.setOffline(false);
    await a.result.getByText('Synced: Checked in', { exact: true }).waitFor();
    await a.page.getByText('1 of 2 checked in').waitFor();
    await b.context.setOffline(false);
    await b.result.getByText('Synced: Already checked in', { exact: true }).waitFor();
    await b.result.getByText(/^Already checked in at Gate A, \d{2}:\d{2} \(achieng\)\.$/).waitFor();

    // Both devices list the double scan: Gate B's, after Gate A's.
    const flaggedOn = async (page: Page) => {
      const region = page.getByRole('region', { name: /Double scans/ });
      await region.getByRole('heading', { name: 'Double scans (1)' }).waitFor();
      await region.getByText(/scanned at Gate B.*already checked in at gate a, \d{2}:\d{2}\./i).waitFor();
      return region;
    };
    await (await flaggedOn(b.page)).getByText(/\(this device\)/).waitFor();
    await a.page.getByRole('button', { name: 'Refresh' }).click();
    expect(await (await flaggedOn(a.page)).getByText(/\(this device\)/).count()).toBe(0);
    expect(await accessibilityProblems(a.page)).toEqual([]);
    expect(await accessibilityProblems(b.page)).toEqual([]);
    await a.page.screenshot({ path: path.join(os.tmpdir(), 'tukio-gate-a-390.png'), fullPage: true });
    await b.page.screenshot({ path: path.join(os.tmpdir(), 'tukio-gate-b-1280.png'), fullPage: true });

    // The other ticket is given away; Gate A downloads the list, loses its connection, and refuses the old code.
    const friend = await h.server.createUser('wekesa');
    expect((await h.server.api('POST', `/api/tickets/${other!._id}/transfer`, { token: holder.token, body: { to: friend.user.username } })).status).toBe(200);
    await a.page.getByRole('button', { name: 'Refresh' }).click();
    await a.page.getByRole('heading', { name: 'Attendees (2)' }).waitFor(); // the holder's remaining ticket and wekesa's new one
    await a.page.getByText('wekesa', { exact: true }).waitFor();
    await a.context.setOffline(true);
    await scan(a.page, other!.code);
    await a.result.getByText('Ticket void', { exact: true }).waitFor();
    await a.result.getByText('This ticket is no longer valid: it was transferred to another holder.').waitFor();
    expect(await a.page.getByText(/waiting to sync/).count()).toBe(0);
    await a.context.setOffline(false);

    const [row] = await ticketsOf(holder, eventId).then((list) => list.filter((t) => t._id === ticket!._id));
    expect(row).toBeTruthy();
    const noise = (error: string) => /ERR_INTERNET_DISCONNECTED|Failed to fetch|Network Error/i.test(error);
    expect(seriousErrors(a.errors).filter((error) => !noise(error))).toEqual([]);
    expect(seriousErrors(b.errors).filter((error) => !noise(error))).toEqual([]);
  });

  it('a gate reloaded offline works from the saved event details, and drops that notice with fresh details once back online', async () => {
    const title = 'Naivasha Lakeside Jazz';
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 6, title });
    expect((await h.server.api('POST', `/api/events/register/${eventId}`, { token: holder.token, body: { tickets: 1 } })).status).toBe(200);
    const [ticket] = await ticketsOf(holder, eventId);

    const { context, page, errors } = await h.newPage({ width: 390, height: 900, serviceWorker: true });
    await keepLocal(context);
    await loginThroughUi(page, 'gatekeeper');
    await page.goto(`/checkin/${eventId}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByText('0 of 1 checked in').waitFor();
    await installed(page);
    const notice = page.getByText('Using saved event details.');
    expect(await notice.count()).toBe(0);

    // Airplane mode and a reload: the door opens from what the device saved.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await notice.waitFor();
    await page.getByText('Offline', { exact: true }).waitFor();
    await page.getByLabel('Ticket code').fill(ticket!.code);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    const result = page.locator('.checkin__result-area');
    await result.getByText('Saved offline', { exact: true }).waitFor();

    // Back online, without a reload: the desk asks for the event again and drops the notice, and keeps
    // its scans (the queued one is synced).
    const eventRead = page.waitForResponse((response) => new URL(response.url()).pathname === `/api/events/${eventId}` && response.status() === 200);
    await context.setOffline(false);
    await eventRead;
    await expect.poll(() => notice.count()).toBe(0);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await result.getByText('Synced: Checked in', { exact: true }).waitFor();
    await page.getByText('1 of 1 checked in').waitFor();
    expect(await page.getByText('Online', { exact: true }).count()).toBe(1);

    // Offline, the worker answers the event's read with an error the browser logs as net::ERR_FAILED.
    const noise = (error: string) => /ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch|Network Error/i.test(error);
    expect(seriousErrors(errors).filter((error) => !noise(error))).toEqual([]);
  });

  it('a new build deployed under an open page leaves it working, then updates it when the user agrees', async () => {
    const { context, page, errors } = await h.newPage({ width: 1280, height: 800, serviceWorker: true });
    await keepLocal(context);
    await page.goto('/');
    await installed(page);
    expect(await page.locator('meta[name="tukio-build"]').count()).toBe(0);

    // Deploy: a new build (same sources, a new build id) replaces the old files on the server.
    const next = path.join(root, 'next');
    await run('npx', ['vite', 'build', '--outDir', next, '--emptyOutDir', '--logLevel', 'error'], { cwd: clientRoot, env: { ...process.env, BUILD_ID: 'e2e-next' } });
    rmSync(path.join(root, 'dist'), { recursive: true, force: true });
    renameSync(next, path.join(root, 'dist'));

    // The open page still works: its next route's code (gone from the server) comes from the old version's cache.
    await page.getByRole('link', { name: 'About', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Bringing people together at events across Kenya' }).waitFor();

    // The connection coming back is one of the moments the app looks for a new version.
    await context.setOffline(true);
    await context.setOffline(false);
    const update = page.getByRole('button', { name: 'Reload to update' });
    await update.waitFor({ timeout: 30_000 });
    await page.getByText('A new version of Tukio is ready.').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await update.click();
    await expect.poll(() => page.locator('meta[name="tukio-build"]').getAttribute('content').catch(() => null), { timeout: 20_000 }).toBe('e2e-next');
    await page.getByRole('heading', { level: 1, name: 'Bringing people together at events across Kenya' }).waitFor();
    expect(await update.count()).toBe(0);
    expect(seriousErrors(errors)).toEqual([]);
  });
});
