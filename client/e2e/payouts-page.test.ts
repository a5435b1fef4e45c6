import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutCodeSentTo } from '../../server/test/helpers/sms.js';
import { accessibilityProblems, buyPaidTicket, createApprovedPaidEvent, kenyanDay, screenshotsAtWidths, type Session, setAvatar, signIn, waitForValue } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * "Organisers get paid" in the browser, against the real API server, payment service and Daraja simulator: two
 * tickets are bought through M-Pesa (simulated), the admin trusts the organiser with early payouts, the payouts
 * job pays part of the net by B2C; the organiser then sees the balances at phone width and opens the event's
 * statement with the payout's M-Pesa receipt; the admin sees it under /admin › Finance.
 */

let h: Harness;
let organiser: Session;
let admin: Session;
let eventId: string;
let receipt: string;
const title = 'Kisumu Lakeside Benga Night';
const PRICE = 1000;
const ORGANISER_PHONE = '254712000333';

beforeAll(async () => {
  h = await startHarness({ SMS_POLL_MS: '200', PAYOUT_JOB_MS: '0' }, { payments: { SIMULATOR_DELAY_MS: '100' } });
  organiser = await h.server.createUser('otieno');
  const buyers = [await h.server.createUser('atieno'), await h.server.createUser('odhiambo')];
  admin = await h.server.loginAdmin();
  for (const session of [organiser, ...buyers]) await setAvatar(h, session);
  await setAvatar(h, admin, '#c8102e');

  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Benga by the lake.',
    date: `${kenyanDay(15)}T19:00`,
    location: 'Dunga Beach, Kisumu',
    ticketPrice: PRICE,
    capacity: 80,
  });
  // Where to be paid: the organiser's M-Pesa number, confirmed with the SMS code (an organiser's first one, so not held).
  const asked = await h.server.api('POST', '/api/payout-account', { token: organiser.token, body: { password: 'secret123', destination: { method: 'mpesa', phone: ORGANISER_PHONE } } });
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  const confirmed = await h.server.api('POST', '/api/payout-account/confirm', { token: organiser.token, body: { code: await payoutCodeSentTo(h.server, ORGANISER_PHONE) } });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);

  await buyPaidTicket(h, buyers[0]!, { eventId, phone: '254711000101', amount: PRICE });
  await buyPaidTicket(h, buyers[1]!, { eventId, phone: '254711000102', amount: PRICE });

  // The event is weeks away: only a trusted organiser is paid (part of the net) before its payout date.
  const trusted = await h.server.api('PUT', `/api/admin/users/${organiser.user._id}/early-payouts`, { token: admin.token, body: { allowed: true } });
  expect(trusted.body).toEqual({ userId: organiser.user._id, earlyPayouts: true });
  await h.server.services.payouts.job.runOnce();
  receipt = await waitForValue(async () => {
    const statement = await h.server.api('GET', `/api/payouts/events/${eventId}/statement`, { token: organiser.token });
    return statement.body?.payouts?.[0]?.receipt ?? undefined;
  }, 'the early payout to be paid');
  expect(receipt).toMatch(/^[A-Z0-9]{10}$/);
});

afterAll(async () => {
  await h?.close();
});

describe('payouts in the browser', () => {
  it('an organiser paid early sees the balances and opens the statement, at phone width', async () => {
    const summary = (await h.server.api('GET', '/api/payouts', { token: organiser.token })).body;
    expect(summary.paid).toBeGreaterThan(0);

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, organiser.user.username);
    await page.goto('/payouts');
    const balances = page.getByRole('region', { name: 'Your balances' });
    await balances.getByRole('term').filter({ hasText: 'Available' }).waitFor();
    const paid = balances.getByRole('term').filter({ hasText: /^Paid$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await paid.textContent()).toBe(`Ksh.${summary.paid.toLocaleString('en-KE')}`);
    expect(await balances.getByRole('term').filter({ hasText: 'Pending' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe(`Ksh.${summary.pending.toLocaleString('en-KE')}`);

    const card = balances.getByRole('article', { name: title });
    // Half the net was paid early; the rest waits for the payout date after the event.
    await card.getByText('Pending', { exact: true }).waitFor();
    await card.getByText(/^Payable from /).waitFor();
    await card.getByRole('button', { name: 'View statement' }).click();
    const statement = card.getByRole('region', { name: `Statement: ${title}` });
    await statement.getByRole('rowheader', { name: 'Gross sales' }).waitFor();
    await statement.getByText(receipt).waitFor();
    await statement.getByText(/^Paid /).first().waitFor();
    await statement.getByRole('button', { name: 'Download CSV' }).waitFor();
    await statement.getByRole('button', { name: 'Print statement' }).waitFor();

    // The CSV the button fetches: the figures, then the payout with its receipt.
    const [download] = await Promise.all([page.waitForEvent('download'), statement.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`statement-${eventId}.csv`);

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshotsAtWidths(page, 'payouts-balances', { fullPage: true });
    // Printing shows the statement alone.
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => {
      document.documentElement.dataset.printing = 'statement';
      document.querySelector('.payout-statement')?.classList.add('payout-statement--printing');
      window.scrollTo(0, 0);
    });
    expect(await page.locator('.payout-statement--printing').isVisible()).toBe(true);
    await screenshotsAtWidths(page, 'payouts-statement-print', { fullPage: false });
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('the admin sees the money under /admin › Finance and the paid payout with its receipt', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'admin', 'admin-password');
    await page.goto('/admin');
    const finance = page.getByRole('region', { name: 'Finance' });
    await finance.getByRole('term').filter({ hasText: 'Owed to organisers' }).waitFor();
    await finance.getByText('No failed payouts.').waitFor();
    await finance.getByRole('radio', { name: 'Paid' }).check();
    const payout = finance.getByRole('article', { name: /^Payout of Ksh\.[\d,]+ to otieno$/ });
    await payout.getByText(receipt).waitFor();
    // The list says the organiser is trusted; the toggle asks first, and the list follows the server's answer.
    await payout.getByRole('button', { name: 'Stop early payouts for otieno' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop early payouts?' });
    await dialog.getByRole('button', { name: 'Stop early payouts' }).click();
    await payout.getByRole('button', { name: 'Trust otieno with early payouts' }).waitFor();
    expect((await h.server.api('GET', '/api/admin/payouts', { token: admin.token })).body[0]).toMatchObject({ username: 'otieno', earlyPayouts: false });

    // Hold the event's payouts with a reason: it is listed under "Held now", then released from there.
    await finance.getByRole('textbox', { name: 'Event id' }).fill(eventId);
    await finance.getByRole('textbox', { name: 'Reason' }).fill('Buyers say the venue changed.');
    await finance.getByRole('button', { name: 'Hold payouts' }).click();
    await page.getByRole('dialog', { name: "Hold this event's payouts?" }).getByRole('button', { name: 'Hold payouts' }).click();
    const held = finance.getByRole('listitem').filter({ hasText: title });
    await held.getByText(/Buyers say the venue changed\./).waitFor();
    expect((await h.server.api('GET', `/api/payouts`, { token: organiser.token })).body.onHold).toBeGreaterThan(0);
    await held.getByRole('button', { name: 'Release hold' }).click();
    await page.getByRole('dialog', { name: "Release this event's payouts?" }).getByRole('button', { name: 'Release hold' }).click();
    await finance.getByText("No event's payouts are held.").waitFor();
    expect((await h.server.api('GET', '/api/admin/payout-holds', { token: admin.token })).body).toEqual([]);

    // Reconciliation with M-Pesa: none has run; Reconcile now compares (the tickets were paid by prompt, not Paybill).
    await finance.getByText('No reconciliation has run yet.').waitFor();
    await finance.getByRole('button', { name: 'Reconcile now' }).click();
    const run = finance.getByRole('article', { name: /^Reconciliation of / });
    await run.getByText('All match').waitFor();
    expect((await h.server.api('GET', '/api/admin/reconciliation', { token: admin.token })).body[0]).toMatchObject({ status: 'done', findings: [] });

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshotsAtWidths(page, 'admin-finance', { element: finance });
    expect(seriousErrors(errors)).toEqual([]);
  });
});
