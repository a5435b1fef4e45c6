import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotsAtWidths, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/**
 * /admin › Finance › Paybill payments no order claims (docs/decisions/paybill.md): a payment to an unknown account
 * number is listed as waiting; the admin refunds it with a reason after a confirmation, and it shows as on its way.
 */
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // An account without an avatar is sent to choose one first.
  await setAvatar(h, await h.server.loginAdmin(), '#c8102e');
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('refunding an unmatched Paybill payment', () => {
  it('the admin refunds a waiting payment with a reason, confirmed first, and sees its refund on its way', async () => {
    const confirmed = await h.server.api('POST', '/api/internal/payments/c2b/confirmations', {
      headers: { 'x-internal-key': h.server.config.internalApiKey },
      body: { transId: 'UAB1234567', billRefNumber: 'NOBODY7', amount: 750, msisdn: '2547 ***** 126', shortCode: '174379', transTime: '20261129101500' },
    });
    expect(confirmed.body).toEqual({ outcome: 'unmatched' });

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'admin', 'admin-password');
    await page.goto('/admin');
    const finance = page.getByRole('region', { name: 'Finance' });
    const payment = finance.getByRole('article', { name: /^Ksh\.\s?750 paid to account NOBODY7$/ });
    await payment.getByText('Waiting').waitFor();
    await payment.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund this payment?' });
    await dialog.getByText(/UAB1234567/).waitFor();
    // Too short a reason is refused before anything is sent.
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('x');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.getByText('Say why in at least 3 characters.').waitFor();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The payer meant another business');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await payment.getByText('Refund on its way').waitFor();
    expect(await payment.getByRole('button', { name: 'Refund' }).count()).toBe(0);

    await screenshotsAtWidths(page, 'admin-unmatched-refund', { element: finance });
    expect(seriousErrors(errors)).toEqual([]);
  });
});
