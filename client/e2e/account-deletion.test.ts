import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { giveTicket, insertEvent } from '../../server/test/helpers/community.js';
import { accessibilityProblems, loginThroughUi, screenshotsAtWidths, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * "Delete my account" at phone width (393px), in English and in Kiswahili (docs/decisions/data-rights.md,
 * "Deleting an account"): on /profile › Your data the person asks with their password, reads that a link was
 * emailed, follows it, confirms and is logged out; the undo link from the next mail restores the account.
 */

let h: Harness;
let achieng: Session;
let baraka: Session;
let kiprop: Session;
let threadId: string;

beforeAll(async () => {
  // Not the default 14: the pages must state the server's grace period, not a number of their own.
  h = await startHarness({ ACCOUNT_DELETION_GRACE_DAYS: '10' });
  achieng = await h.server.createUser('achieng');
  baraka = await h.server.createUser('baraka');
  kiprop = await h.server.createUser('kiprop');
  await setAvatar(h, achieng);
  await setAvatar(h, baraka);
  // Achieng holds a ticket to a fair still to come; Kiprop started a forum thread about a past one.
  await giveTicket(h.server, await insertEvent(h.server, { daysFromNow: 9, title: 'Mombasa Food Fair' }), achieng.user._id);
  const pastEvent = await insertEvent(h.server, { daysFromNow: -3, title: 'Eldoret Marathon' });
  await giveTicket(h.server, pastEvent, kiprop.user._id);
  const thread = await h.server.api('POST', '/api/forums/add-thread', { token: kiprop.token, body: { title: 'Best stretch of the route', eventId: pastEvent, userId: kiprop.user._id } });
  expect(thread.status).toBeLessThan(300);
  threadId = thread.body.thread._id as string;
});

afterAll(async () => {
  await h?.close();
});

/** The path of the newest emailed link under `route` to `to` (waits for the mail). */
async function emailedPath(to: string, subject: RegExp, route: string): Promise<string> {
  const mail = await h.server.smtp.waitFor(to, subject, 20_000);
  const path = new RegExp(`https?://\\S+(/${route}/[A-Za-z0-9_-]+)`).exec(mail.text)?.[1];
  expect(path, mail.text).toBeDefined();
  return path!;
}

/** This browser forgot the session (the app keeps its token under `token`, client/src/lib/session-store.ts). */
const signedOut = (page: Page) => page.evaluate(() => localStorage.getItem('token') === null);

describe('Delete my account', () => {
  it('asks with the password, confirms from the emailed link, is logged out, and the undo link restores the account (English)', async () => {
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await signIn(h, page, 'achieng');
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Your data' });
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await section.getByText('is erased after 10 days', { exact: false }).waitFor();
    await section.getByLabel('Your password').fill('not-my-password');
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await section.getByText('That is not your password. Your account was not deleted.').waitFor();
    await screenshotsAtWidths(page, 'account-deletion-form', { element: section });

    // Her ticket to the fair still to come is listed first; she lets it become void without a refund.
    await section.getByLabel('Your password').fill('secret123');
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await section.getByRole('link', { name: 'Mombasa Food Fair' }).waitFor();
    await screenshotsAtWidths(page, 'account-deletion-tickets', { element: section });
    await section.getByLabel('Delete anyway: these tickets become void without a refund.').check();
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await section.getByText(`Check your email: we sent a link to ${achieng.user.email}`, { exact: false }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshotsAtWidths(page, 'account-deletion-sent', { element: section });
    // After a reload the request awaiting its link is still shown (GET /api/me/account-deletion); asking again opens the form.
    await page.reload();
    await section.getByText(`Check your email: we sent a link to ${achieng.user.email}`, { exact: false }).waitFor();
    await section.getByRole('button', { name: 'Send the link again' }).click();
    await section.getByLabel('Your password').waitFor();
    await section.getByRole('button', { name: 'Keep my account' }).click();
    await section.getByRole('button', { name: 'Send the link again' }).waitFor();

    await page.goto(await emailedPath(achieng.user.email, /Confirm you want to delete/, 'delete-account'));
    await page.getByRole('heading', { name: 'Delete my account' }).waitFor();
    await page.getByText('is erased after 10 days', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText('Your account is closed and will be erased on', { exact: false }).waitFor();
    expect(await signedOut(page)).toBe(true);
    await screenshotsAtWidths(page, 'account-deletion-confirmed');
    // The server ended the session too: the old token is refused.
    expect((await h.server.api('GET', '/api/me/data-export', { token: achieng.token })).status).toBe(401);

    await page.goto(await emailedPath(achieng.user.email, /will be deleted on/, 'delete-account/undo'));
    await page.getByRole('button', { name: 'Keep my account' }).click();
    await page.getByText('Your account is restored. You can log in again.').waitFor();
    await loginThroughUi(page, 'achieng');
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('reads in Kiswahili from the request to the closed account', async () => {
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await loginThroughUi(page, 'baraka');
    await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
    await page.waitForFunction(() => document.documentElement.lang === 'sw');
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Futa akaunti yangu' }).click();
    await page.getByText('kufutwa baada ya siku 10', { exact: false }).waitFor();
    await page.getByLabel('Nenosiri lako').fill('secret123');
    await page.getByRole('button', { name: 'Futa akaunti yangu' }).click();
    await page.getByText('Angalia barua pepe yako', { exact: false }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Tuma kiungo tena' }).waitFor();
    await screenshotsAtWidths(page, 'account-deletion-sent-sw');

    await page.goto(await emailedPath(baraka.user.email, /Thibitisha kwamba unataka kufuta akaunti yako/, 'delete-account'));
    await page.getByText('kufutwa baada ya siku 10', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Futa akaunti yangu' }).click();
    await page.getByText('Akaunti yako imefungwa na itafutwa tarehe', { exact: false }).waitFor();
    expect(await signedOut(page)).toBe(true);
    await screenshotsAtWidths(page, 'account-deletion-confirmed-sw');
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('shows an erased author as "Deleted user" / "Mtumiaji aliyefutwa" where their forum thread stays', async () => {
    const admin = await h.server.loginAdmin();
    const scheduled = await h.server.api('POST', `/api/admin/users/${kiprop.user._id}/deletion`, { token: admin.token, body: { reason: 'Asked by letter, ref DP-21' } });
    expect(scheduled.status).toBe(200);
    // Fifteen days on, past the 10-day grace period (Baraka's deletion above is due too).
    expect(await h.server.services.accountDeletions.sweep(new Date(Date.now() + 15 * 24 * 60 * 60 * 1000))).toBeGreaterThanOrEqual(1);
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    // Forum threads are read signed in: Achieng, whose account the first test restored.
    await signIn(h, page, 'achieng');
    await page.goto(`/forum/${threadId}`);
    await page.getByRole('heading', { name: 'Best stretch of the route' }).waitFor();
    await page.getByText('Deleted user').first().waitFor();
    expect(await page.getByText('kiprop').count()).toBe(0);
    await screenshotsAtWidths(page, 'account-deletion-forum');
    await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
    await page.getByText('Mtumiaji aliyefutwa').first().waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });
});
