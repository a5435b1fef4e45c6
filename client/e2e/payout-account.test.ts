import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutCodeSentTo } from '../../server/test/helpers/sms.js';
import { accessibilityProblems, createApprovedPaidEvent, kenyanDay, screenshotsAtWidths, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * "Where to be paid" at phone width, against the real API server and its offline SMS simulator: an organiser
 * opens Payouts from their profile, adds an M-Pesa number with their password, reads the 6-digit code the SMS
 * simulator received, confirms it, and sees the number (masked) as where payouts go.
 */

let h: Harness;
let organiser: Session;
const phone = '254712345678';

beforeAll(async () => {
  h = await startHarness({ SMS_POLL_MS: '200' });
  organiser = await h.server.createUser('payoutorganiser');
  await setAvatar(h, organiser);
  await createApprovedPaidEvent(h, organiser, {
    title: 'Nairobi Jazz Payout Night',
    description: 'Jazz in the park.',
    date: `${kenyanDay(20)}T18:00`,
    location: 'Uhuru Park, Nairobi',
    ticketPrice: 1000,
    capacity: 100,
  });
});

afterAll(async () => {
  await h?.close();
});

describe('payout destination in the browser', () => {
  it('an organiser adds an M-Pesa number and confirms it with the SMS code, at phone width', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, organiser.user.username);

    // Organiser links live with their events on the profile.
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Payouts' }).click();
    await page.waitForURL((url) => url.pathname === '/payouts');
    const section = page.getByRole('region', { name: 'Where to be paid' });
    await section.getByText('No destination yet').waitFor();

    await section.getByRole('radio', { name: /M-Pesa/ }).check();
    await section.getByLabel('M-Pesa number').fill('0712 345 678');
    await section.getByRole('button', { name: 'Send code' }).click();
    // The password is asked for before anything is sent.
    await section.getByText('Enter your password.').waitFor();
    await section.getByLabel('Your Tukio password').fill('wrong-password');
    await section.getByRole('button', { name: 'Send code' }).click();
    await section.getByText('That is not your password. Nothing was changed.').waitFor();

    await section.getByLabel('Your Tukio password').fill('secret123');
    await section.getByRole('button', { name: 'Send code' }).click();
    await section.getByRole('heading', { name: 'Enter the code' }).waitFor();
    await section.getByText(/We sent a 6-digit code by SMS to 0712 ••• 678/).waitFor();

    await section.getByLabel('6-digit code').fill(await payoutCodeSentTo(h.server, phone));
    await section.getByRole('button', { name: 'Confirm' }).click();
    await section.getByText('M-Pesa 0712 ••• 678', { exact: true }).waitFor();
    expect(await section.getByText(/payouts are on hold/).count()).toBe(0);
    await section.getByRole('button', { name: 'Change destination' }).waitFor();

    expect(await h.server.services.payoutAccounts.payoutDestination(organiser.user._id, new Date())).toEqual({ destination: { method: 'mpesa', phone }, heldUntil: null });
    // Nothing sticks out sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshotsAtWidths(page, 'payouts', { fullPage: true });
    expect(seriousErrors(errors)).toEqual([]);
  });
});
