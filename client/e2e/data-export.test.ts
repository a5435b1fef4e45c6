import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, downloadedBytes, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * "Download my data" on /profile at phone width (docs/decisions/data-rights.md): Wanjiru clicks the button, reads
 * that the request is being prepared, then (the job has run and mailed the link) that it is ready; the button then
 * says when she may ask again. She opens the emailed link, downloads the ZIP once, and the link is then used.
 */

let h: Harness;
let wanjiru: Session;

beforeAll(async () => {
  h = await startHarness();
  wanjiru = await h.server.createUser('wanjiru');
  await setAvatar(h, wanjiru);
});

afterAll(async () => {
  await h?.close();
});

describe('Download my data on the profile', () => {
  it('asks, shows the confirmation, then downloads the ZIP once from the emailed link', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'wanjiru');
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Your data' });
    await section.getByText('Download a copy of everything Tukio holds about you', { exact: false }).waitFor();
    const button = section.getByRole('button', { name: 'Download my data' });
    // Enabled once the state of earlier requests has loaded (none yet): wait for it, the page may still be asking.
    await expect.poll(() => button.isEnabled(), { timeout: 15_000 }).toBe(true);

    await button.click();
    // The request is confirmed at once (requested) or, when the job was quicker, already ready.
    await section.getByText(/^(Requested: we are preparing your data|Ready: the download link was sent to your email)/).waitFor();
    await section.getByText('You can ask again from', { exact: false }).waitFor();
    await expect.poll(() => section.getByRole('button', { name: 'Download my data' }).isDisabled(), { timeout: 15_000 }).toBe(true);

    const mail = await h.server.smtp.waitFor(wanjiru.user.email, /Tukio data is ready/, 20_000);
    await section.getByText('Ready: the download link was sent to your email', { exact: false }).waitFor({ timeout: 15_000 });
    expect(await accessibilityProblems(page)).toEqual([]);

    // The emailed link opens the app's page; the ZIP downloads when she asks for it.
    const link = /https?:\/\/\S+(\/my-data\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(link, mail.text).toBeDefined();
    await page.goto(link!);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download ZIP' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^tukio-data-\d{4}-\d{2}-\d{2}\.zip$/);
    // A ZIP (its contents are checked in server/test/data-export.test.ts).
    expect((await downloadedBytes(download)).subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
    await page.getByText('Downloaded. This link has now been used', { exact: false }).waitFor();

    // A second visit finds the link used.
    await page.reload();
    await page.getByRole('button', { name: 'Download ZIP' }).click();
    await page.getByText('This download link has already been used or has expired', { exact: false }).waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });
});
