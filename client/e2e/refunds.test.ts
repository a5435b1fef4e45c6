import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, createApprovedPaidEvent, downloadedText, kenyanDay, type Session, setAvatar, signIn } from './helpers/browser.js';
import { waitFor } from '../../server/test/helpers/ops.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Cancelling an event in a real browser against the real API server and the payment service (Daraja
 * simulator, the refunds job on): two buyers pay for a ticket through the payment service → the organiser
 * cancels the event from its page (a confirmation dialog that insists on a reason) → the page says it is
 * cancelled → the refunds go back through M-Pesa (simulated reversals) → the first buyer sees the
 * cancelled event, the void ticket and "Refunded Ksh.1,500 — receipt …" on /profile (and in
 * transactions.csv) → M-Pesa refuses the second buyer's refund (insufficient float; one attempt allowed
 * here), so it fails and they read "Refund failed — we are retrying" → the admin finds both under /admin ›
 * Refunds, filters the failed one, sends it again after confirming, and it is paid.
 * With SCREENSHOT_DIR set, each of those screens is saved at phone (390×844) and desktop (1280×900) width.
 */

let h: Harness;
let organiser: Session;
let buyer: Session;
let unlucky: Session;
let eventId: string;
const title = 'Mombasa Jazz Under the Stars';
const reason = 'The venue flooded after the long rains. We are sorry, everyone gets their money back.';
const PRICE = 1500;
const BUYER_PHONE = '254712345678';
/** M-Pesa refuses the first refund to this number. */
const UNLUCKY_PHONE = '254722000111';
const SIMULATOR_KEY = 'e2e-simulator-key-0123456789';

const screenshotDir = process.env.SCREENSHOT_DIR;
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** Saves the page at both widths (only with SCREENSHOT_DIR), then returns to the first size. */
async function screenshots(page: Page, name: string, options: { fullPage?: boolean; target?: () => Promise<void> } = {}) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await options.target?.();
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${size.name}.png`), fullPage: options.fullPage ?? false, animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
}

/** A paid ticket bought the way the browser buys it (through /pay), paid on the simulated phone by itself. */
async function buyTicket(session: Session, phone: string, forEvent = eventId) {
  const push = await h.server.api('POST', '/pay/stkPush', {
    token: session.token,
    body: { phone, amount: PRICE, Order_ID: `${forEvent}_${phone}`, quantity: 1 },
  });
  expect(push.status, JSON.stringify(push.body)).toBe(200);
  const checkoutRequestId = push.body.CheckoutRequestID as string;
  await waitFor(async () => {
    const res = await h.server.api('POST', '/pay/confirmPayment', { token: session.token, body: { CheckoutRequestID: checkoutRequestId } });
    return res.body?.success === true;
  }, `the payment of ${phone} to be confirmed`, 20_000);
}

interface TransactionRow {
  eventId?: string;
  refundStatus?: string | null;
  refundAmount?: number | null;
  refundReceipt?: string | null;
}

async function transactionsOf(session: Session): Promise<TransactionRow[]> {
  const res = await h.server.api('GET', `/api/transactions/${session.user._id}`, { token: session.token });
  expect(res.status).toBe(200);
  return res.body as TransactionRow[];
}

/** Where the session's refund for the event stands (null before there is one). */
async function refundStatus(session: Session) {
  return (await transactionsOf(session)).find((tx) => tx.eventId === eventId)?.refundStatus ?? null;
}

beforeAll(async () => {
  // One attempt per refund: a refusal leaves it failed at once, for an admin to send again.
  h = await startHarness({ REFUND_MAX_ATTEMPTS: '1', REFUND_POLL_MS: '300' }, { payments: { SIMULATOR_DELAY_MS: '300', SIMULATOR_KEY } });
  organiser = await h.server.createUser('wanjiru');
  buyer = await h.server.createUser('kamau');
  unlucky = await h.server.createUser('achieng');
  const admin = await h.server.loginAdmin();
  for (const session of [organiser, buyer, unlucky]) await setAvatar(h, session);
  await setAvatar(h, admin, '#c8102e');

  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'An evening of Swahili jazz on the beach at Nyali.',
    date: `${kenyanDay(10)}T19:30`,
    location: 'Nyali Beach, Mombasa',
    ticketPrice: PRICE,
    capacity: 50,
  });
  await buyTicket(buyer, BUYER_PHONE);
  await buyTicket(unlucky, UNLUCKY_PHONE);
  const mode = await h.server.api('POST', '/simulator/payouts/modes', {
    headers: { 'x-simulator-key': SIMULATOR_KEY },
    body: { mode: 'insufficient-float', times: 1, phone: UNLUCKY_PHONE },
  });
  expect(mode.status, JSON.stringify(mode.body)).toBe(201);
});

afterAll(async () => {
  await h?.close();
});

describe('event cancellation and refunds in the browser', () => {
  it('the organiser cancels from the event page: a reason is required, then the page shows the event cancelled', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'wanjiru');
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();

    const tools = page.getByRole('region', { name: 'Organiser tools' });
    await tools.getByRole('button', { name: 'Cancel event' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this event?' });
    await dialog.waitFor();
    await dialog.getByText('every buyer is refunded in full', { exact: false }).waitFor();
    const field = dialog.getByLabel('Reason for cancelling');
    await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await accessibilityProblems(page)).toEqual([]);

    // No reason, or too short a one: refused in the dialog, nothing sent, what was typed is kept.
    const confirm = dialog.getByRole('button', { name: 'Cancel event and refund buyers' });
    await confirm.click();
    await dialog.getByText('Tell ticket holders why, in at least 3 characters.').waitFor();
    await field.fill('No');
    await confirm.click();
    await dialog.getByText('Tell ticket holders why, in at least 3 characters.').waitFor();
    expect(await field.inputValue()).toBe('No');
    expect((await h.server.api('GET', `/api/events/${eventId}`)).body.status).toBe('approved');

    await field.fill(reason);
    await dialog.getByText(`${reason.length} / 500 characters`).waitFor();
    await screenshots(page, 'cancel-dialog');

    // "Keep the event" leaves everything as it was; the reason is still there when the dialog comes back.
    await dialog.getByRole('button', { name: 'Keep the event' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await tools.getByRole('button', { name: 'Cancel event' }).click();
    expect(await field.inputValue()).toBe(reason);

    await confirm.click();
    const banner = page.getByRole('region', { name: 'This event has been cancelled' });
    await banner.waitFor();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Focus follows to what changed (the button that was pressed is gone).
    await expect.poll(() => banner.evaluate((element) => element === document.activeElement)).toBe(true);
    await banner.getByText(reason).waitFor();
    await banner.getByText(/^Cancelled on .+\.$/).waitFor();
    expect(await page.getByRole('region', { name: 'Organiser tools' }).count()).toBe(0);
    await page.getByText('Ticket sales are closed: this event was cancelled.').waitFor();
    expect(await page.getByRole('button', { name: /Get Ticket|Already Registered/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add to calendar' }).count()).toBe(0);

    // The organiser's tools are gone, but what the cancellation did is still theirs to see: voided tickets and
    // each buyer's refund, by username only (no phone numbers).
    const refunds = page.getByRole('region', { name: 'Refunds' });
    await refunds.getByRole('button', { name: 'Show refunds' }).click();
    await refunds.getByText('2 refunds, Ksh.3,000 in all').waitFor();
    expect(await refunds.getByRole('term').filter({ hasText: 'Voided by the event’s cancellation' }).locator('xpath=following-sibling::dd').textContent()).toBe('2 tickets');
    for (const name of ['kamau', 'achieng']) {
      await refunds.getByRole('listitem', { name: `Refund of Ksh.1,500 to ${name}` }).getByText('Event cancelled', { exact: false }).waitFor();
    }
    expect(await refunds.textContent()).not.toMatch(/2547\d{8}/);
    await screenshots(page, 'organiser-refunds', { target: () => refunds.scrollIntoViewIfNeeded() });
    expect(await accessibilityProblems(page)).toEqual([]);

    const event = (await h.server.api('GET', `/api/events/${eventId}`)).body;
    expect(event).toMatchObject({ status: 'cancelled', cancelReason: reason });

    // My Events says so too, with nothing left to edit or cancel.
    await page.goto('/profile');
    const mine = page.getByRole('region', { name: 'My Events' });
    const item = mine.getByRole('listitem').filter({ hasText: title });
    await item.getByText('Cancelled', { exact: true }).waitFor();
    expect(await item.getByRole('button', { name: `Cancel event ${title}` }).count()).toBe(0);
    expect(await item.getByRole('link', { name: `Edit ${title}` }).count()).toBe(0);

    // A cancelled event is final: its edit page says why instead of offering a form.
    await page.goto(`/edit-event/${eventId}`);
    await page.getByText('was cancelled and can no longer be changed', { exact: false }).waitFor();
    await page.getByRole('region', { name: 'This event has been cancelled' }).getByText(reason).waitFor();
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);

    expect(seriousErrors(errors)).toEqual([]);
  });

  it('the ticket holder sees the event cancelled, the void ticket and the refund with its receipt on /profile', async () => {
    // The refunds job sends the reversal through the payment service; the simulator answers on the result URL.
    await expect.poll(() => refundStatus(buyer), { timeout: 30_000, interval: 300 }).toBe('succeeded');
    const paid = (await transactionsOf(buyer)).find((tx) => tx.eventId === eventId)!;
    expect(paid.refundAmount).toBe(PRICE);
    expect(paid.refundReceipt).toMatch(/^[A-Z0-9]{8,}$/);

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'kamau');
    await page.goto(`/events/${eventId}`);
    const banner = page.getByRole('region', { name: 'This event has been cancelled' });
    await banner.getByText(reason).waitFor();
    await page.getByText('Ticket sales are closed: this event was cancelled.').waitFor();
    await page.getByRole('link', { name: 'your profile' }).waitFor();
    await screenshots(page, 'cancelled-event', { fullPage: true });
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.goto('/profile');
    const tickets = page.getByRole('region', { name: /My Tickets/ });
    const ticket = tickets.getByRole('listitem').filter({ hasText: title });
    await ticket.getByText('This ticket is void.', { exact: false }).waitFor();
    expect(await ticket.getByRole('img', { name: /^QR code for/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Transaction History' }).click();
    const overlay = page.getByRole('dialog', { name: 'Transaction History' });
    const refunded = `Refunded Ksh.1,500 — receipt ${paid.refundReceipt}`;
    await overlay.getByText(refunded, { exact: true }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'profile-transactions');

    const [download] = await Promise.all([page.waitForEvent('download'), overlay.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = (await downloadedText(download)).replace(/^\ufeff/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe('"Event Name","Transaction ID","Phone Number","Amount","Date","Status","Time","Refund Status","Refund Amount","Refund Receipt","M-Pesa Receipt"');
    expect(lines[1]).toMatch(new RegExp(`^"${title}","ws_CO_[^"]+","${BUYER_PHONE}","1500",.*,"success",.*,"succeeded","1500","${paid.refundReceipt}","[A-Z0-9]{10}"$`));

    expect(seriousErrors(errors)).toEqual([]);
  });

  it('a refund M-Pesa refused reads "Refund failed — we are retrying" for its buyer', async () => {
    await expect.poll(() => refundStatus(unlucky), { timeout: 30_000, interval: 300 }).toBe('failed');
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'achieng');
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Transaction History' }).click();
    const overlay = page.getByRole('dialog', { name: 'Transaction History' });
    await overlay.getByText('Refund failed — we are retrying', { exact: true }).waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('the admin finds the refunds under /admin › Refunds, filters the failed one and sends it again', async () => {
    const { page, errors } = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, page, 'admin', 'admin-password');
    await page.goto('/admin');
    const refunds = page.getByRole('region', { name: /^Refunds/ });
    await refunds.getByRole('heading', { name: 'Refunds (2)' }).waitFor();
    const card = refunds.getByRole('article', { name: `Refund of Ksh.1,500 to kamau for ${title}` });
    await card.getByText('Refunded', { exact: true }).waitFor();
    await card.getByText('Event cancelled', { exact: true }).waitFor();
    await card.getByText(BUYER_PHONE).waitFor();
    expect(await card.getByRole('button', { name: /Retry/ }).count()).toBe(0);

    await refunds.getByRole('radio', { name: 'Refunded' }).check();
    await refunds.getByRole('heading', { name: 'Refunds (1)' }).waitFor();
    await card.waitFor();

    await refunds.getByRole('radio', { name: 'Failed' }).check();
    const failed = refunds.getByRole('article', { name: `Refund of Ksh.1,500 to achieng for ${title}` });
    await failed.getByText('Failed', { exact: true }).waitFor();
    await failed.getByText(UNLUCKY_PHONE).waitFor();
    expect(await card.count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'admin-refunds', { target: () => refunds.scrollIntoViewIfNeeded() });

    // Retry asks first; going back changes nothing.
    const retry = failed.getByRole('button', { name: `Retry refund to achieng for ${title}` });
    await retry.click();
    const dialog = page.getByRole('dialog', { name: 'Send this refund again?' });
    await dialog.getByText(`goes back to achieng on ${UNLUCKY_PHONE}`, { exact: false }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await refundStatus(unlucky)).toBe('failed');

    await retry.click();
    await dialog.getByRole('button', { name: 'Retry refund' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Back in the queue, the worker sends it again (the simulator pays this time).
    await refunds.getByText('No failed refunds.').waitFor();
    await expect.poll(() => refundStatus(unlucky), { timeout: 30_000, interval: 300 }).toBe('succeeded');
    await refunds.getByRole('radio', { name: 'Refunded' }).check();
    await refunds.getByRole('heading', { name: 'Refunds (2)' }).waitFor();

    // The cancelled event has its own list and can no longer be approved or disapproved.
    const cancelled = page.getByRole('region', { name: 'Cancelled Events (1)' });
    await cancelled.getByText('Cancelled Events (1)').click();
    const eventCard = cancelled.getByRole('article', { name: title });
    expect(await eventCard.getByRole('button', { name: `Approve ${title}`, exact: true }).isDisabled()).toBe(true);
    expect(await eventCard.getByRole('button', { name: `Disapprove ${title}` }).isDisabled()).toBe(true);
    expect(await page.getByRole('region', { name: /^Pending Events/ }).getByRole('article', { name: title }).count()).toBe(0);

    expect(seriousErrors(errors)).toEqual([]);
  });

  it('on /profile, deleting an event with sales cancels it instead (the server says so), and "Cancel event" asks for a reason', async () => {
    const sold = 'Kilifi Sunset Sessions';
    const unsold = 'Diani Reef Cleanup Gala';
    const event = (name: string, day: number) => ({
      title: name,
      description: 'By the ocean, with music.',
      date: `${kenyanDay(day)}T18:00`,
      location: 'Kilifi Creek, Kilifi',
      ticketPrice: PRICE,
      capacity: 20,
    });
    const soldId = await createApprovedPaidEvent(h, organiser, event(sold, 12));
    const unsoldId = await createApprovedPaidEvent(h, organiser, event(unsold, 13));
    await buyTicket(buyer, BUYER_PHONE, soldId);

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'wanjiru');
    await page.goto('/profile');
    const mine = page.getByRole('region', { name: 'My Events' });

    // The native confirmation warns that it will be a cancellation; the server's answer is shown.
    const question = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await mine.getByRole('button', { name: `Delete ${sold}` }).click();
    expect(await question).toContain('it will be cancelled instead of deleted');
    await page.getByText(/^Event cancelled\. 1 ticket holder is being told/).waitFor();
    const soldItem = mine.getByRole('listitem').filter({ hasText: sold });
    await soldItem.getByText('Cancelled', { exact: true }).waitFor();
    await soldItem.getByText('Deleted by the organiser').waitFor();
    expect((await h.server.api('GET', `/api/events/${soldId}`)).body.status).toBe('cancelled');

    await screenshots(page, 'profile-my-events', { target: () => mine.scrollIntoViewIfNeeded() });

    // Cancelling from the list: the same dialog, the reason required.
    const unsoldItem = mine.getByRole('listitem').filter({ hasText: unsold });
    await unsoldItem.getByRole('button', { name: `Cancel event ${unsold}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this event?' });
    await dialog.getByLabel('Reason for cancelling').fill('The tide tables changed.');
    await dialog.getByRole('button', { name: 'Cancel event and refund buyers' }).click();
    await unsoldItem.getByText('Cancelled', { exact: true }).waitFor();
    await unsoldItem.getByText('The tide tables changed.').waitFor();
    // Focus lands on the event's title (the buttons it had are gone).
    await expect.poll(() => unsoldItem.getByRole('link', { name: unsold }).evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await h.server.api('GET', `/api/events/${unsoldId}`)).body).toMatchObject({ status: 'cancelled', cancelReason: 'The tide tables changed.' });

    expect(seriousErrors(errors)).toEqual([]);
  });
});
