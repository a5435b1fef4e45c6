import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, kenyanDay, type Session, setAvatar, signIn } from './helpers/browser.js';
import { waitFor } from '../../server/test/helpers/ops.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * The waitlist of a sold-out event in a real browser against the real API server and the payment service
 * (Daraja simulator): a paid event with one seat, sold; a visitor is asked to log in; Akinyi joins the
 * waitlist from the event page and reads "#1"; the holder cancels their ticket (refundable), the seat is
 * offered to Akinyi (and emailed); after a reload the page says it is held for her and Get Ticket is enabled
 * although the event counts as sold out; she pays through the normal M-Pesa dialog and is registered; the
 * organiser opens "Waitlist" on the event page and sees her place accepted.
 * With SCREENSHOT_DIR set, the waiting and offered states are saved at phone (390×844) and desktop (1280×900) width.
 */

let h: Harness;
let organiser: Session;
let holder: Session;
let waiter: Session;
let latecomer: Session;
let eventId: string;
const title = 'Naivasha Sunset Sessions';
const PRICE = 800;
const HOLDER_PHONE = '254712300500';

const screenshotDir = process.env.SCREENSHOT_DIR;
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** Saves the page at both widths with `target` in view (only with SCREENSHOT_DIR), then returns to the first size. */
async function screenshots(page: Page, name: string, target: () => Promise<void>) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await target();
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${size.name}.png`), animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
}

/** A paid ticket bought the way the browser buys it (through /pay), paid on the simulated phone by itself. */
async function buyTicket(session: Session, phone: string, forEvent: string) {
  const push = await h.server.api('POST', '/pay/stkPush', { token: session.token, body: { phone, amount: PRICE, Order_ID: `${forEvent}_${phone}`, quantity: 1 } });
  expect(push.status, JSON.stringify(push.body)).toBe(200);
  const checkoutRequestId = push.body.CheckoutRequestID as string;
  await waitFor(async () => {
    const res = await h.server.api('POST', '/pay/confirmPayment', { token: session.token, body: { CheckoutRequestID: checkoutRequestId } });
    return res.body?.success === true;
  }, 'the payment to be confirmed', 20_000);
}

async function placeOf(session: Session, forEvent = eventId) {
  const res = await h.server.api('GET', `/api/events/${forEvent}/waitlist/mine`, { token: session.token });
  expect(res.status).toBe(200);
  return res.body as { seatsAvailable: number | null; entry: null | { status: string; position: number | null } };
}

/** A paid, approved event with one seat, which the holder bought (refundable, so they may cancel it). */
async function soldOutEvent(eventTitle: string): Promise<string> {
  const created = await h.server.api('POST', '/api/events/addevnt', {
    token: organiser.token,
    body: {
      title: eventTitle,
      description: 'Acoustic sets by the lake as the sun goes down.',
      date: `${kenyanDay(9)}T17:30`,
      location: 'Fisherman’s Camp, Naivasha',
      latitude: null,
      longitude: null,
      image: null,
      isPaid: true,
      ticketPrice: PRICE,
      capacity: 1,
      // The holder may cancel (and be refunded), which frees the seat for the waitlist.
      refundPolicy: { kind: 'full', untilHours: 24 },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body._id as string;
  const admin = await h.server.loginAdmin();
  const approved = await h.server.api('PUT', `/api/events/admin/approve/${id}`, { token: admin.token, body: {} });
  expect(approved.body.status).toBe('approved');
  await buyTicket(holder, HOLDER_PHONE, id);
  expect((await h.server.api('GET', `/api/events/${id}`)).body.seatsLeft).toBe(0);
  return id;
}

beforeAll(async () => {
  h = await startHarness({ WAITLIST_SWEEP_MS: '500' }, { payments: { SIMULATOR_DELAY_MS: '300' } });
  organiser = await h.server.createUser('wairimu');
  holder = await h.server.createUser('kiptoo');
  waiter = await h.server.createUser('akinyi');
  latecomer = await h.server.createUser('mutua');
  for (const session of [organiser, holder, waiter, latecomer]) await setAvatar(h, session);

  eventId = await soldOutEvent(title);
});

afterAll(async () => {
  await h?.close();
});

describe('the waitlist of a sold-out event in the browser', () => {
  it('a visitor is asked to log in to join it', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await page.goto(`/events/${eventId}`);
    const box = page.getByRole('region', { name: 'Tickets' });
    await box.getByText('Sold out — join the waitlist').waitFor();
    await box.getByRole('link', { name: 'Log in to join the waitlist' }).waitFor();
    expect(await box.getByRole('button', { name: 'Join waitlist' }).count()).toBe(0);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('joins, is offered the freed seat, buys it through the normal checkout, and the organiser sees it accepted', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'akinyi');
    await page.goto(`/events/${eventId}`);
    const box = page.getByRole('region', { name: 'Tickets' });
    await box.getByText('Sold out — join the waitlist').waitFor();
    await box.getByText('Nobody is waiting yet', { exact: false }).waitFor();
    expect(await box.getByRole('button', { name: 'Sold out' }).isDisabled()).toBe(true);
    await screenshots(page, 'waitlist-join', () => box.scrollIntoViewIfNeeded());

    await box.getByLabel('Tickets wanted').fill('1');
    await box.getByRole('button', { name: 'Join waitlist' }).click();
    await box.getByText('You are #1 on the waitlist for 1 ticket.').waitFor();
    await box.getByText('We will email you when a seat frees up.', { exact: false }).waitFor();
    await box.getByRole('button', { name: 'Leave waitlist' }).waitFor();
    expect(await placeOf(waiter)).toMatchObject({ seatsAvailable: 0, entry: { status: 'waiting', position: 1 } });
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'waitlist-waiting', () => box.scrollIntoViewIfNeeded());

    // The holder cancels their ticket (within the refund policy): the seat is offered to Akinyi and emailed.
    const mine = (await h.server.api('GET', '/api/tickets/mine', { token: holder.token })).body as Array<{ _id: string; event: { _id: string } }>;
    const cancelled = await h.server.api('POST', '/api/tickets/cancel', { token: holder.token, body: { ticketIds: mine.filter((t) => t.event._id === eventId).map((t) => t._id) } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await expect.poll(async () => (await placeOf(waiter)).entry?.status, { timeout: 15_000, interval: 200 }).toBe('offered');
    await h.server.smtp.waitFor(waiter.user.email, new RegExp(`^A seat is held for you: ${title}$`));

    // The event still counts as sold out, but the seat is hers: the ticket box lets her buy it.
    await page.reload();
    // The time alone, or with the day when the 30-minute hold ends after midnight in Nairobi ("Wed, 25 Nov, 00:03").
    await box.getByText(/^A seat is held for you until (?:\w{3}, \d{1,2} \w{3}, )?\d{2}:\d{2} \(Nairobi time\)$/).waitFor();
    await box.getByRole('button', { name: 'Give up my seat' }).waitFor();
    const buy = box.getByRole('button', { name: 'Get Ticket' });
    await buy.waitFor();
    expect(await buy.isEnabled()).toBe(true);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'waitlist-offered', () => box.scrollIntoViewIfNeeded());

    await buy.click();
    const confirm = page.getByRole('dialog', { name: 'Confirm your purchase' });
    await confirm.getByRole('button', { name: 'Continue to payment' }).click();
    const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
    await pay.getByLabel('M-Pesa phone number').fill('0712 345 678');
    await pay.getByRole('button', { name: `Pay Ksh.${PRICE}` }).click();
    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 20_000 });
    await box.getByRole('button', { name: 'Already Registered' }).waitFor();
    await expect.poll(async () => (await placeOf(waiter)).entry?.status).toBe('accepted');
    // Registered: the waitlist has nothing more to say to her.
    await expect.poll(() => box.locator('.waitlist').count()).toBe(0);
    expect(seriousErrors(errors)).toEqual([]);

    // The organiser opens the waitlist on the event page.
    const other = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, other.page, 'wairimu');
    await other.page.goto(`/events/${eventId}`);
    const panel = other.page.getByRole('region', { name: 'Waitlist' });
    await panel.getByRole('button', { name: 'Show waitlist' }).click();
    await panel.getByRole('listitem', { name: 'akinyi: Accepted' }).waitFor();
    expect(await panel.getByRole('term').filter({ hasText: /^Accepted$/ }).locator('xpath=following-sibling::dd').textContent()).toBe('1 person');
    expect(await panel.getByRole('term').filter({ hasText: /^Waiting$/ }).locator('xpath=following-sibling::dd').textContent()).toBe('0 people');
    expect(await accessibilityProblems(other.page)).toEqual([]);
    await screenshots(other.page, 'waitlist-organiser', () => panel.scrollIntoViewIfNeeded());
    expect(seriousErrors(other.errors)).toEqual([]);
  });

  it('leaving the waitlist asks first, then the join form is back', async () => {
    const full = await soldOutEvent('Lamu Dhow Race Night');
    expect((await h.server.api('POST', `/api/events/${full}/waitlist`, { token: latecomer.token, body: { quantity: 2 } })).status).toBe(201);
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'mutua');
    await page.goto(`/events/${full}`);
    const box = page.getByRole('region', { name: 'Tickets' });
    await box.getByText('You are #1 on the waitlist for 2 tickets.').waitFor();

    await box.getByRole('button', { name: 'Leave waitlist' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave the waitlist?' });
    await dialog.waitFor();
    // Staying changes nothing.
    await dialog.getByRole('button', { name: 'Stay on the waitlist' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect((await placeOf(latecomer, full)).entry?.status).toBe('waiting');

    await box.getByRole('button', { name: 'Leave waitlist' }).click();
    await dialog.getByRole('button', { name: 'Leave waitlist' }).click();
    await box.getByRole('button', { name: 'Join waitlist' }).waitFor();
    expect((await placeOf(latecomer, full)).entry?.status).toBe('left');
    expect(seriousErrors(errors)).toEqual([]);
  });
});
