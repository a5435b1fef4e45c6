import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, kenyanDay, screenshotsAtWidths, type Session, setAvatar, signIn } from './helpers/browser.js';
import { waitFor } from '../../server/test/helpers/ops.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * A holder's own tickets in a real browser against the real API server and the payment service (Daraja
 * simulator, the refunds job on): a buyer cancels a paid ticket from /profile within the event's full-refund
 * policy (the dialog shows the refund first) and sees the refund paid in Transaction History; on an event
 * without refunds the button is disabled and says why. A holder transfers a ticket by username: the
 * recipient sees it on their profile, and the old code is refused at the door.
 * With SCREENSHOT_DIR set, the two dialogs are saved at phone (390×844) and desktop (1280×900) width.
 */

let h: Harness;
let organiser: Session;
let buyer: Session;
let friend: Session;
let refundable: string;
let noRefunds: string;
let free: string;
const PRICE = 1200;
const BUYER_PHONE = '254712300400';
const SIMULATOR_KEY = 'e2e-simulator-key-0123456789';

const screenshots = (page: Page, name: string) => screenshotsAtWidths(page, name);

async function approvedEvent(input: { title: string; price: number; refundPolicy: { kind: 'none' | 'full' | 'partial'; percent?: number; untilHours?: number } }) {
  const created = await h.server.api('POST', '/api/events/addevnt', {
    token: organiser.token,
    body: {
      title: input.title,
      description: 'Test event for cancelling and transferring tickets.',
      date: `${kenyanDay(12)}T18:00`,
      location: 'Kenyatta International Convention Centre, Nairobi',
      latitude: null,
      longitude: null,
      image: null,
      isPaid: input.price > 0,
      ticketPrice: input.price,
      capacity: 40,
      refundPolicy: input.refundPolicy,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const admin = await h.server.loginAdmin();
  const approved = await h.server.api('PUT', `/api/events/admin/approve/${created.body._id}`, { token: admin.token, body: {} });
  expect(approved.body.status).toBe('approved');
  return created.body._id as string;
}

/** A paid ticket bought the way the browser buys it (through /pay), paid on the simulated phone by itself. */
async function buyTicket(session: Session, eventId: string) {
  const push = await h.server.api('POST', '/pay/stkPush', { token: session.token, body: { phone: BUYER_PHONE, amount: PRICE, Order_ID: `${eventId}_${BUYER_PHONE}`, quantity: 1 } });
  expect(push.status, JSON.stringify(push.body)).toBe(200);
  const checkoutRequestId = push.body.CheckoutRequestID as string;
  await waitFor(async () => {
    const res = await h.server.api('POST', '/pay/confirmPayment', { token: session.token, body: { CheckoutRequestID: checkoutRequestId } });
    return res.body?.success === true;
  }, 'the payment to be confirmed', 20_000);
}

async function refundOf(session: Session, eventId: string) {
  const res = await h.server.api('GET', `/api/transactions/${session.user._id}`, { token: session.token });
  return (res.body as Array<{ eventId?: string; refundStatus?: string | null; refundReceipt?: string | null; refundAmount?: number | null }>).find((tx) => tx.eventId === eventId);
}

beforeAll(async () => {
  h = await startHarness({ REFUND_POLL_MS: '300' }, { payments: { SIMULATOR_DELAY_MS: '300', SIMULATOR_KEY } });
  organiser = await h.server.createUser('njeri');
  buyer = await h.server.createUser('otieno');
  friend = await h.server.createUser('wambui');
  for (const session of [organiser, buyer, friend]) await setAvatar(h, session);
  refundable = await approvedEvent({ title: 'Kisumu Lakeside Festival', price: PRICE, refundPolicy: { kind: 'full', untilHours: 48 } });
  noRefunds = await approvedEvent({ title: 'Nakuru Rhino Run', price: PRICE, refundPolicy: { kind: 'none' } });
  free = await approvedEvent({ title: 'Eldoret Book Club', price: 0, refundPolicy: { kind: 'none' } });
  await buyTicket(buyer, refundable);
  await buyTicket(buyer, noRefunds);
  const registered = await h.server.api('POST', `/api/events/register/${free}`, { token: buyer.token, body: { tickets: 1 } });
  expect(registered.status).toBe(200);
});

afterAll(async () => {
  await h?.close();
});

describe('cancelling and transferring my tickets in the browser', () => {
  it('the organiser sets the refund policy on /edit-event (and sees it offered on /plan)', async () => {
    const { context, page, errors } = await h.newPage({ width: 390, height: 844 });
    // Nothing leaves the machine (the map preview's tiles): the browser reaches only our server.
    await context.route(
      (url) => !url.href.startsWith(h.server.url),
      (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: '' }),
    );
    await signIn(h, page, 'njeri');
    await page.goto('/plan');
    const planPolicy = page.getByRole('group', { name: 'Refund policy' });
    expect(await planPolicy.getByRole('radio', { name: 'No refunds' }).isChecked()).toBe(true);

    await page.goto(`/edit-event/${free}`);
    const policy = page.getByRole('group', { name: 'Refund policy' });
    await policy.getByRole('radio', { name: 'Partial refund' }).check();
    const percent = policy.getByLabel('Percent of the price refunded');
    await percent.fill('150');
    await policy.getByLabel('Until how many hours before the start').fill('24');
    await page.getByRole('button', { name: 'Update' }).click();
    await policy.getByText('Refund percent must be a whole number from 1 to 99.').waitFor();
    await percent.fill('40');
    await policy.getByText('Ticket holders will see: 40% refund until 24 hours before the start.').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'refund-policy-fields');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL(`**/events/${free}`);
    expect((await h.server.api('GET', `/api/events/${free}`)).body.refundPolicy).toEqual({ kind: 'partial', percent: 40, untilHours: 24 });
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('cancels a paid ticket from /profile within the policy and sees the refund in Transaction History; no-refund tickets say why', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'otieno');
    // The event page tells buyers the policy before they buy.
    await page.goto(`/events/${refundable}`);
    await page.getByText('Full refund until 48 hours before the start', { exact: true }).waitFor();
    await page.goto('/profile');
    const tickets = page.getByRole('region', { name: /My Tickets/ });

    // No refunds: the button is disabled and says why.
    const kept = tickets.getByRole('listitem').filter({ hasText: 'Nakuru Rhino Run' });
    const disabled = kept.getByRole('button', { name: 'Cancel ticket' });
    await disabled.waitFor();
    expect(await disabled.isDisabled()).toBe(true);
    await kept.getByText('The organiser gives no refunds for this event, so paid tickets cannot be cancelled.').waitFor();

    const card = tickets.getByRole('listitem').filter({ hasText: 'Kisumu Lakeside Festival' });
    await card.getByRole('button', { name: 'Cancel ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this ticket?' });
    await dialog.waitFor();
    await dialog.getByText('Refund: Ksh.1,200 (100% of the price), sent back to the M-Pesa number you paid with.').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'self-cancel-dialog');

    // Going back changes nothing.
    await dialog.getByRole('button', { name: 'Keep my tickets' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect((await refundOf(buyer, refundable))?.refundStatus ?? null).toBeNull();

    await card.getByRole('button', { name: 'Cancel ticket' }).click();
    await dialog.getByRole('button', { name: 'Cancel 1 ticket' }).click();
    await card.getByText('You cancelled this ticket.', { exact: false }).waitFor();
    expect(await card.getByRole('img', { name: /^QR code for/ }).count()).toBe(0);

    // The refunds job pays it back through the payment service and the simulator (the whole payment: a reversal).
    await expect.poll(async () => (await refundOf(buyer, refundable))?.refundStatus, { timeout: 30_000, interval: 300 }).toBe('succeeded');
    const refund = (await refundOf(buyer, refundable))!;
    expect(refund.refundAmount).toBe(PRICE);
    await page.getByRole('button', { name: 'Transaction History' }).click();
    const overlay = page.getByRole('dialog', { name: 'Transaction History' });
    await overlay.getByText(`Refunded Ksh.1,200 — receipt ${refund.refundReceipt}`, { exact: true }).waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('transfers a ticket by username: the recipient sees it on their profile, the old code is refused at the door', async () => {
    const before = (await h.server.api('GET', '/api/tickets/mine', { token: buyer.token })).body.find((ticket: { event: { _id: string } }) => ticket.event._id === free);
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'otieno');
    await page.goto('/profile');
    const card = page.getByRole('region', { name: /My Tickets/ }).getByRole('listitem').filter({ hasText: 'Eldoret Book Club' });
    await card.getByRole('button', { name: 'Transfer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer this ticket?' });
    await dialog.waitFor();
    const field = dialog.getByLabel("Recipient's username or email");
    await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);

    // An unknown account is refused inside the dialog, and what was typed stays.
    await field.fill('nobody-here');
    await dialog.getByRole('button', { name: 'Transfer ticket' }).click();
    await dialog.getByText('No Tukio account has that username or email address.').waitFor();
    expect(await field.inputValue()).toBe('nobody-here');
    await field.fill('wambui');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'transfer-dialog');
    await dialog.getByRole('button', { name: 'Transfer ticket' }).click();
    await card.getByText('You gave this ticket to someone else', { exact: false }).waitFor();
    expect(seriousErrors(errors)).toEqual([]);

    const other = await h.newPage({ width: 390, height: 844 });
    await signIn(h, other.page, 'wambui');
    await other.page.goto('/profile');
    const received = other.page.getByRole('region', { name: /My Tickets/ }).getByRole('listitem').filter({ hasText: 'Eldoret Book Club' });
    await received.getByRole('img', { name: /^QR code for Eldoret Book Club/ }).waitFor();
    expect(seriousErrors(other.errors)).toEqual([]);

    // At the door: the old code is refused, saying it was transferred.
    const door = await h.newPage({ width: 390, height: 844 });
    await signIn(h, door.page, 'njeri');
    await door.page.goto(`/checkin/${free}`);
    await door.page.getByLabel('Ticket code').fill(before.code);
    await door.page.getByRole('button', { name: 'Check in', exact: true }).click();
    const result = door.page.locator('.checkin__result-area');
    await result.getByText('Ticket void', { exact: true }).waitFor();
    await result.getByText('This ticket is no longer valid: it was transferred to another holder.').waitFor();
    expect(seriousErrors(door.errors)).toEqual([]);
  });

  it('a paid ticket given away, then its event cancelled: the recipient\'s card says they paid nothing, as their email does', async () => {
    const given = (await h.server.api('GET', '/api/tickets/mine', { token: buyer.token })).body.find((ticket: { event: { _id: string } }) => ticket.event._id === noRefunds);
    expect((await h.server.api('POST', `/api/tickets/${given._id}/transfer`, { token: buyer.token, body: { to: 'wambui' } })).status).toBe(200);
    const cancelled = await h.server.api('POST', `/api/events/${noRefunds}/cancel`, { token: organiser.token, body: { reason: 'The park is closed for the rhino census.' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'wambui');
    await page.goto('/profile');
    const card = page.getByRole('region', { name: /My Tickets/ }).getByRole('listitem').filter({ hasText: 'Nakuru Rhino Run' });
    await card.getByText('You received it from someone else and paid nothing for it, so there is nothing to refund', { exact: false }).waitFor();
    expect(await card.getByText('Your money is refunded in full', { exact: false }).count()).toBe(0);
    expect(seriousErrors(errors)).toEqual([]);
  });
});
