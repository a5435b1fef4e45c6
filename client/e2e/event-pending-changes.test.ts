import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';
import { kenyanDay, loginThroughUi, setAvatar, type Session } from './helpers/browser.js';

/*
 * Issue 34, item 1, in a real browser: the organiser moves a published event's date (the form warns that sales
 * pause before saving), sees "Changes pending review" with the proposed values while the public page keeps the
 * published version, and the admin approves on /admin with the published and proposed values side by side.
 * The same in Kiswahili. Screenshots (phone 390 px and desktop) go to E2E_SCREENSHOTS_DIR when it is set.
 */

let h: Harness;
let organiser: Session;
let admin: Session;
const shots = process.env.E2E_SCREENSHOTS_DIR;

beforeAll(async () => {
  h = await startHarness();
  organiser = await h.server.createUser('amani');
  admin = await h.server.loginAdmin();
  for (const session of [organiser, admin]) await setAvatar(h, session);
  if (shots) mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await h?.close();
});

/** The whole page, or only `part` of it (the admin page is long). */
async function shoot(page: Page, name: string, part?: Locator) {
  if (!shots) return;
  const file = path.join(shots, `${name}.png`);
  await (part ? part.screenshot({ path: file }) : page.screenshot({ path: file, fullPage: true }));
}

/** A page of the app with nothing outside it (map tiles): the test machine has no internet. */
async function appPage(width: number) {
  const opened = await h.newPage({ width, height: 900 });
  await opened.context.route(
    (url) => !url.href.startsWith(h.server.url),
    (route) => route.fulfill({ status: 204, body: '' }),
  );
  return opened;
}

async function inKiswahili(page: Page) {
  await page.evaluate(() => window.localStorage.setItem('tukio-language', 'sw'));
}

/** The organiser moves the event's date on its form, sees the warning, saves, and gets the pending notice. */
async function proposeNewDate(page: Page, eventId: string, texts: { warning: RegExp; update: string; pending: string; published: string }, shotName: string) {
  await page.goto(`/edit-event/${eventId}`);
  const date = page.locator('input[name="date"]');
  await date.waitFor();
  await date.fill(kenyanDay(40));
  const warning = page.getByTestId('sales-pause-warning');
  await warning.waitFor();
  expect(await warning.textContent()).toMatch(texts.warning);
  await warning.scrollIntoViewIfNeeded();
  await shoot(page, `${shotName}-form-warning`);
  await page.getByRole('button', { name: texts.update }).click();
  const notice = page.getByTestId('pending-change-notice');
  await notice.getByRole('heading', { name: texts.pending }).waitFor();
  // Published | proposed, side by side (on a phone each value is labelled instead of a column heading).
  expect(await notice.locator('.change-table__from').getAttribute('data-label')).toBe(texts.published);
  expect(await notice.locator('.change-table__to time').getAttribute('datetime')).toMatch(new RegExp(`^${kenyanDay(40)}`));
  await shoot(page, `${shotName}-pending-notice`, notice);
}

describe('changes to a published event wait for review beside it', () => {
  for (const language of ['en', 'sw'] as const) {
    it(`the organiser proposes a new date and the admin approves it from the diff (${language})`, async () => {
      const sw = language === 'sw';
      const title = sw ? 'Tamasha la Ngoma' : 'Amani Drum Festival';
      const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 12, title, price: 800, capacity: 400 });
      const width = sw ? 390 : 1280;

      const own = await appPage(width);
      await loginThroughUi(own.page, 'amani');
      if (sw) await inKiswahili(own.page);
      await proposeNewDate(
        own.page,
        eventId,
        sw
          ? { warning: /Mauzo ya tiketi yanasimama/, update: 'Sasisha', pending: 'Mabadiliko yanasubiri ukaguzi', published: 'Lililochapishwa' }
          : { warning: /Ticket sales pause/, update: 'Update', pending: 'Changes pending review', published: 'Published' },
        `organiser-${language}-${width}`,
      );
      expect(seriousErrors(own.errors)).toEqual([]);

      // The public still sees the published event.
      expect((await h.server.api('GET', `/api/events/${eventId}`)).body).toMatchObject({ status: 'approved', title });

      const mod = await appPage(sw ? 1280 : 390);
      await loginThroughUi(mod.page, 'admin', 'admin-password');
      if (sw) await inKiswahili(mod.page);
      await mod.page.goto('/admin');
      const queue = mod.page.getByRole('region', { name: sw ? /Mabadiliko ya matukio yaliyochapishwa/ : /Changes to published events/ });
      const card = queue.getByRole('article', { name: title });
      await card.waitFor();
      const proposed = await card.locator('.change-table__to time').getAttribute('datetime');
      expect(proposed?.slice(0, 10)).toBe(kenyanDay(40));
      expect(await card.locator('.change-table__from time').getAttribute('datetime')).not.toBe(proposed);
      await card.scrollIntoViewIfNeeded();
      await shoot(mod.page, `admin-${language}-${sw ? 1280 : 390}`, queue);
      await card.getByRole('button', { name: sw ? 'Idhinisha mabadiliko' : 'Approve changes' }).click();
      await expect.poll(async () => (await h.server.api('GET', `/api/events/${eventId}`)).body.date.slice(0, 10), { timeout: 20_000 }).toBe(kenyanDay(40));
      await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(0);
      expect(seriousErrors(mod.errors)).toEqual([]);
      await own.context.close();
      await mod.context.close();
    }, 180_000);
  }
});
