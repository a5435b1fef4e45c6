import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../src/locales/en/admin.json' with { type: 'json' };
import sw from '../src/locales/sw/admin.json' with { type: 'json' };
import { createApprovedPaidEvent, kenyanDay, loginThroughUi, screenshotsAtWidths, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * /admin › Finance › Reconciliation (docs/decisions/reconciliation.md), at phone width in both languages: M-Pesa (the
 * simulator) completed a Paybill payment of an order whose confirmation reached Tukio with another amount; "Reconcile now" lists
 * it as an amount that differs, and the admin marks it reviewed with a note (too short a note is refused first). The
 * review stays with the finding after a reload.
 */

let h: Harness;
let adminToken: string;
let buyer: Session;
let eventId: string;
const catalogs = { en, sw } as const;

beforeAll(async () => {
  h = await startHarness({}, { payments: {} });
  const admin = await h.server.loginAdmin();
  adminToken = admin.token;
  // An account without an avatar is sent to choose one first.
  await setAvatar(h, admin, '#c8102e');
  const organiser = await h.server.createUser('reconcilefestival');
  buyer = await h.server.createUser('reconcilebuyer');
  eventId = await createApprovedPaidEvent(h, organiser, {
    title: 'Reconciliation Jazz Night',
    description: 'Jazz by the lake.',
    date: `${kenyanDay(12)}T19:00`,
    location: 'Naivasha',
    ticketPrice: 620,
    capacity: 20,
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/**
 * A held order paid from the simulated M-Pesa menu (620, its price; the confirmation never sent), while Tukio was
 * told 600 under the same TransID: settled as an underpayment (refunded), so the amounts differ.
 */
async function garbledPayment(phone: string): Promise<string> {
  const internalKey = { 'x-internal-key': h.server.config.internalApiKey };
  const held = await h.server.api('POST', '/api/internal/payments/orders', { token: buyer.token, headers: internalKey, body: { eventId, quantity: 1, phone } });
  expect(held.status).toBe(201);
  const account = held.body.orderCode as string;
  const paid = await fetch(`${h.simulator!.url}/simulator/menu/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone, account, amount: 620, mode: 'no-confirmation' }),
  });
  const payment = (await paid.json()) as { transId: string; status: string };
  expect(payment.status).toBe('completed');
  const confirmed = await h.server.api('POST', '/api/internal/payments/c2b/confirmations', {
    headers: internalKey,
    body: { transId: payment.transId, billRefNumber: account, amount: 600, msisdn: '2547 ***** 002', shortCode: '174379', transTime: '20261129101500' },
  });
  expect(confirmed.body).toMatchObject({ outcome: 'settled' });
  return payment.transId;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

describe('reviewing a reconciliation finding', () => {
  it.each(['en', 'sw'] as const)('%s: an amount that differs is marked reviewed with a note, and the review is kept', async (language) => {
    const text = catalogs[language];
    const transId = await garbledPayment(language === 'en' ? '254712349005' : '254712349006');
    const { context, page, errors } = await h.newPage({ width: 390, height: 844 });
    await loginThroughUi(page, 'admin', 'admin-password');
    await page.goto('/admin');
    if (language === 'sw') {
      await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
      await page.waitForFunction(() => document.documentElement.lang === 'sw');
    }
    const finance = page.getByRole('region', { name: text['admin.finance'], exact: true });
    await finance.getByRole('button', { name: text['admin.reconcileNow'] }).click();
    const markButton = finance.getByRole('button', { name: fill(text['admin.reconcileMarkReviewedOf'], { receipt: transId }) });
    // The newest run lists it (an earlier run's finding for the other language's payment may be listed too).
    await markButton.first().waitFor({ timeout: 20_000 });
    await finance.getByText(text['admin.reconcileAmountDiffers']).first().waitFor();

    await markButton.first().click();
    const dialog = page.getByRole('dialog', { name: text['admin.reconcileReviewTitle'] });
    await dialog.getByText(new RegExp(transId)).waitFor();
    await dialog.getByRole('textbox', { name: text['admin.reconcileNote'] }).fill('x');
    await dialog.getByRole('button', { name: text['admin.reconcileMarkReviewed'] }).click();
    await dialog.getByText(text['admin.reconcileNoteShort']).waitFor();
    const note = language === 'en' ? 'Safaricom statement shows 620; the payer gets 20 back.' : 'Taarifa ya Safaricom inaonyesha 620; mlipaji atarudishiwa 20.';
    await dialog.getByRole('textbox', { name: text['admin.reconcileNote'] }).fill(note);
    await dialog.getByRole('button', { name: text['admin.reconcileMarkReviewed'] }).click();
    await finance.getByText(note, { exact: false }).first().waitFor();
    await finance.getByText(text['admin.reconcileReviewedBadge'], { exact: true }).first().waitFor();

    const runs = (await h.server.api('GET', '/api/admin/reconciliation', { token: adminToken })).body as Array<{ findings: Array<{ transId: string; kind: string; review: { note: string; by: string } | null }> }>;
    const reviewed = runs.flatMap((run) => run.findings).filter((finding) => finding.transId === transId && finding.review);
    expect(reviewed).toMatchObject([{ kind: 'amount_differs', review: { note, by: 'admin' } }]);

    await page.reload();
    await page.getByRole('region', { name: text['admin.finance'], exact: true }).getByText(note, { exact: false }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshotsAtWidths(page, `admin-reconciliation-review-${language}`, { element: page.getByRole('region', { name: text['admin.finance'], exact: true }) });
    expect(seriousErrors(errors)).toEqual([]);
    await context.close();
  });
});
