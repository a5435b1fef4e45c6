import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { eventShreds } from '../../server/src/db/schema.js';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { accessibilityProblems, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * The privacy notice (docs/decisions/data-rights.md, "Privacy notice") at phone width, in English and Kiswahili:
 * the footer's link opens /privacy, which states the retention the server runs with (PERSONAL_DATA_RETENTION_DAYS,
 * set to an unusual 95 here so the number can only come from the server), the processors and the rights.
 * SCREENSHOT_DIR saves it at 393 and 1280 px wide in both languages.
 */

const RETENTION_DAYS = 95;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ PERSONAL_DATA_RETENTION_DAYS: String(RETENTION_DAYS) });
});
afterAll(async () => {
  await h?.close();
});

async function screenshots(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const width of [393, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 393, height: 852 });
}

describe('the privacy notice', () => {
  it('opens from the footer in English and states the retention days, the processors and the rights', async () => {
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
    await page.waitForURL('**/privacy');
    await page.getByRole('heading', { level: 1, name: 'How Tukio handles your personal data' }).waitFor();
    await page.getByText(`${RETENTION_DAYS} days after an event ends, the phone numbers of its buyers`, { exact: false }).waitFor();
    await page.getByText("Africa's Talking: your phone number and the text of the SMS", { exact: false }).waitFor();
    await page.getByText('Safaricom (M-Pesa): your phone number and the amount', { exact: false }).waitFor();
    await page.getByText('you have 14 days to change your mind', { exact: false }).waitFor();
    await page.getByText('The emailed link works once, for 24 hours', { exact: false }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'privacy-en');
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('opens from the footer in Kiswahili with the same numbers', async () => {
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await page.goto('/');
    await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
    await page.waitForFunction(() => document.documentElement.lang === 'sw');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Faragha' }).click();
    await page.waitForURL('**/privacy');
    await page.getByRole('heading', { level: 1, name: 'Jinsi Tukio inavyoshughulikia data yako binafsi' }).waitFor();
    await page.getByText(`Siku ${RETENTION_DAYS} baada ya tukio kuisha`, { exact: false }).waitFor();
    await page.getByText('una siku 14 za kubadili nia', { exact: false }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'privacy-sw');
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('is linked from the sign-up form, whose promotional SMS checkbox starts unticked', async () => {
    const { page } = await h.newPage({ width: 393, height: 852 });
    await page.goto('/register');
    const promotions = page.getByRole('checkbox', { name: /Send me SMS about new events and offers/ });
    await promotions.waitFor();
    expect(await promotions.isChecked()).toBe(false);
    await screenshots(page, 'register-en');
    await page.getByRole('main').getByRole('link', { name: 'Privacy notice' }).click();
    await page.waitForURL('**/privacy');
    await page.getByText(`${RETENTION_DAYS} days after an event ends`, { exact: false }).waitFor();
  });

  it('is linked from the M-Pesa payment dialog, in a new tab so the purchase stays open', async () => {
    const [organiser, buyer] = await Promise.all([h.server.createUser('privorganiser'), h.server.createUser('privbuyer')]);
    await setAvatar(h, buyer);
    const title = `Karura night run ${Date.now().toString(36)}`;
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 8, price: 700, title });
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await signIn(h, page, 'privbuyer');
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Get Ticket' }).click();
    await page.getByRole('dialog', { name: 'Confirm your purchase' }).getByRole('button', { name: 'Continue to payment' }).click();
    const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
    await pay.getByText('Your number goes to Safaricom for this M-Pesa payment', { exact: false }).waitFor();
    const link = pay.getByRole('link', { name: 'Privacy notice' });
    expect(await link.getAttribute('href')).toBe('/privacy');
    expect(await link.getAttribute('target')).toBe('_blank');
    await screenshots(page, 'payment-dialog-privacy-en');
    // Followed, it opens the notice beside the purchase, which stays where it was.
    const [notice] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await notice.getByText(`${RETENTION_DAYS} days after an event ends`, { exact: false }).waitFor();
    expect(await pay.isVisible()).toBe(true);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it("lets an admin erase an ended event's buyers' data from its card, with a reason, after confirming", async () => {
    const admin = await h.server.loginAdmin();
    // Without an avatar, signing in leads to /setAvatar first.
    await setAvatar(h, admin);
    const title = `Ended gala ${Date.now().toString(36)}`;
    const eventId = await insertEventRow(h.server.db, { ownerId: admin.user._id, days: -3, title });
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await signIn(h, page, 'admin', 'admin-password');
    await page.goto('/admin');
    const approved = page.getByRole('region', { name: /^Approved Events \(\d+\)$/ });
    await approved.getByRole('article', { name: title, exact: true }).waitFor();
    await approved.getByRole('button', { name: `Erase buyers' data of ${title}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Erase the buyers' data of ${title}` });
    await dialog.getByText('Amounts, dates and M-Pesa receipts stay', { exact: false }).waitFor();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The organiser asked us to.');
    await screenshots(page, 'admin-shred-en');
    await dialog.getByRole('button', { name: 'Erase now' }).click();
    await page.getByText(`Buyers' data of ${title} erased`, { exact: false }).waitFor();
    const [record] = await h.server.db.select().from(eventShreds).where(eq(eventShreds.eventId, eventId));
    expect(record).toMatchObject({ shreddedBy: admin.user._id, reason: 'The organiser asked us to.' });
    expect(seriousErrors(errors)).toEqual([]);
  });
});
