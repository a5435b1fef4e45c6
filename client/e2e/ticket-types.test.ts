import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, createApprovedPaidEvent, kenyanDay, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Ticket types and promo codes in a real browser, against the real API server and the payment service
 * (Daraja simulator): the organiser turns the one price of a paid event into Regular and VIP on the edit
 * form and makes a promo code on the event page; a buyer on a phone picks 1 VIP and 2 Regular, is refused
 * a wrong code without losing the choice, applies the right one, pays the discounted total, and finds the
 * tickets with their type names on the profile; the organiser's dashboard shows the figures per type and code.
 * A new event is posted from /plan with two types. With SCREENSHOT_DIR set, the ticket box and the form's
 * ticket types are saved at phone (390 wide) and desktop width.
 */

const screenshotDir = process.env.SCREENSHOT_DIR;

/** Saves `part` of the page at phone and desktop width (only with SCREENSHOT_DIR), then restores the size. */
async function screenshots(page: Page, part: Locator, name: string) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  for (const [label, width] of [
    ['phone', 390],
    ['desktop', 1280],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await part.screenshot({ path: path.join(screenshotDir, `${name}-${label}.png`), animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
}

let h: Harness;
let organiser: Session;
let buyer: Session;
let eventId: string;
const title = 'Koroga Night Market';

beforeAll(async () => {
  h = await startHarness({}, { payments: { SIMULATOR_DELAY_MS: '500' } });
  organiser = await h.server.createUser('ttorganiser');
  buyer = await h.server.createUser('ttbuyer');
  await Promise.all([setAvatar(h, organiser), setAvatar(h, buyer)]);
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Nyama choma, live benga and a night market by the lake.',
    date: `${kenyanDay(12)}T18:00`,
    location: 'Naivasha Lakeside, Naivasha',
    ticketPrice: 1500,
    capacity: 100,
  });
});

afterAll(async () => {
  await h?.close();
});

type MyTicket = { event: { _id: string }; ticketType: { name: string } | null; pricePaid: number };
const myTickets = async () => ((await h.server.api('GET', '/api/tickets/mine', { token: buyer.token })).body as MyTicket[]).filter((ticket) => ticket.event._id === eventId);

describe('ticket types and promo codes', () => {
  it('the organiser sets Regular and VIP and a promo code; a buyer pays the discounted total for 1 VIP + 2 Regular', async () => {
    // The organiser: one "General admission" row at the ticket price becomes Regular, and VIP is added.
    const own = await h.newPage();
    await signIn(h, own.page, 'ttorganiser');
    await own.page.goto(`/edit-event/${eventId}`);
    const first = own.page.getByRole('group', { name: 'Ticket type 1' });
    await first.getByLabel('Name').waitFor();
    expect(await first.getByLabel('Name').inputValue()).toBe('General admission');
    expect(await first.getByLabel('Price (Ksh)').inputValue()).toBe('1500');
    await first.getByLabel('Name').fill('Regular');
    await first.getByLabel('Price (Ksh)').fill('1000');
    await own.page.getByRole('button', { name: 'Add a ticket type' }).click();
    const second = own.page.getByRole('group', { name: 'Ticket type 2' });
    await second.getByLabel('Name').fill('VIP');
    // A price with cents is refused at the row's field, before anything is sent.
    await second.getByLabel('Price (Ksh)').fill('3000.50');
    await own.page.getByRole('button', { name: 'Update' }).click();
    await second.getByText('Price must be whole shillings: M-Pesa takes no cents (for example 350, not 350.50).').waitFor();
    await second.getByLabel('Price (Ksh)').fill('3000');
    await second.getByText('Capacity, sale dates and per-order limit').click();
    await second.getByLabel('Capacity (optional)').fill('5');
    await screenshots(own.page, own.page.locator('.event-form__pricing'), 'edit-ticket-types');
    await own.page.getByRole('button', { name: 'Update' }).click();
    await own.page.waitForURL((url) => url.pathname === `/events/${eventId}`);
    const stored = await h.server.api('GET', `/api/events/${eventId}/ticket-types`);
    expect(stored.body.ticketTypes).toMatchObject([
      { name: 'Regular', price: 1000, capacity: null },
      { name: 'VIP', price: 3000, capacity: 5 },
    ]);

    // The organiser's promo codes panel on the event page.
    await own.page.getByRole('button', { name: 'Show promo codes' }).click();
    const panel = own.page.getByRole('region', { name: 'Promo codes' });
    await panel.getByText('No promo codes yet.').waitFor();
    await panel.getByLabel('Code', { exact: true }).fill('karibu20');
    await panel.getByLabel('Percent').fill('20');
    await panel.getByLabel('Maximum uses (optional)').fill('5');
    await panel.getByRole('button', { name: 'Create promo code' }).click();
    const code = panel.getByRole('listitem', { name: 'Promo code KARIBU20' });
    await code.getByText('20% off').waitFor();
    await code.getByText('0 / 5 used').waitFor();
    // The edit form's map asks for tiles from the internet, which these tests run without.
    expect(seriousErrors(own.errors).filter((error) => !error.includes('ERR_NAME_NOT_RESOLVED'))).toEqual([]);

    // The buyer, on a phone.
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'ttbuyer');
    await page.goto(`/events/${eventId}`);
    const box = page.getByRole('region', { name: 'Tickets' });
    await box.getByText('from Ksh.1,000').waitFor();
    const types = box.getByRole('list', { name: 'Ticket types' });
    await types.getByText('5 left').waitFor();
    // Untouched, one ticket of the first type on sale is chosen, so Get Ticket works at once.
    expect(await box.getByLabel('Regular tickets').inputValue()).toBe('1');
    expect(await box.getByRole('button', { name: 'Get Ticket' }).isDisabled()).toBe(false);
    await box.getByLabel('VIP tickets').fill('1');
    await box.getByLabel('Regular tickets').fill('2');
    await box.getByText('Ksh.5,000').waitFor();

    // A wrong code: said at the field; the seats chosen and the code typed stay.
    await box.getByLabel(/Promo code/).fill('nope');
    await box.getByRole('button', { name: 'Apply' }).click();
    await box.getByText('The promo code NOPE is not valid for this event.').waitFor();
    expect(await box.getByLabel('VIP tickets').inputValue()).toBe('1');
    expect(await box.getByLabel('Regular tickets').inputValue()).toBe('2');
    expect(await box.getByLabel(/Promo code/).inputValue()).toBe('nope');

    await box.getByLabel(/Promo code/).fill('karibu20');
    await box.getByRole('button', { name: 'Apply' }).click();
    await box.getByText('Code KARIBU20 applied.').waitFor();
    const summary = box.locator('.order-summary');
    await summary.getByText('−Ksh.1,000').waitFor();
    expect((await summary.innerText()).replace(/\s+/g, ' ')).toBe('Subtotal Ksh.5,000 Discount (KARIBU20) −Ksh.1,000 Total for 3 tickets Ksh.4,000');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, box, 'ticket-box-types');

    await box.getByRole('button', { name: 'Get Ticket' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm your purchase' });
    await confirm.getByText('1 VIP ticket × Ksh.3,000').waitFor();
    await confirm.getByText('2 Regular tickets × Ksh.1,000').waitFor();
    await confirm.getByRole('button', { name: 'Continue to payment' }).click();
    const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
    await pay.getByLabel('M-Pesa phone number').fill('0712 345 678');
    await pay.getByRole('button', { name: 'Pay Ksh.4,000' }).click();
    await pay.getByText('Prompt sent to 0712 345 678 for Ksh.4,000.').waitFor({ timeout: 15_000 });
    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => pay.isVisible(), { timeout: 15_000 }).toBe(false);
    await box.getByRole('button', { name: 'Already Registered' }).waitFor();

    const tickets = await myTickets();
    expect(tickets.map((ticket) => ticket.ticketType?.name).sort()).toEqual(['Regular', 'Regular', 'VIP']);
    expect(tickets.reduce((sum, ticket) => sum + ticket.pricePaid, 0)).toBe(4000);

    // The profile shows each ticket's type.
    await page.goto('/profile');
    const section = page.getByRole('region', { name: /My Tickets/ });
    await section.getByRole('listitem').first().waitFor();
    const typeNames = await section.locator('.ticket-card__meta div').filter({ hasText: 'Ticket type' }).locator('dd').allInnerTexts();
    expect(typeNames.sort()).toEqual(['Regular', 'Regular', 'VIP']);
    expect(seriousErrors(errors)).toEqual([]);

    // The organiser sees the code used once.
    await own.page.reload();
    await own.page.getByRole('button', { name: 'Show promo codes' }).click();
    await own.page.getByRole('listitem', { name: 'Promo code KARIBU20' }).getByText('1 / 5 used').waitFor();

    // The dashboard: each type's sold (of its own capacity) and revenue after the discount, and the code's use.
    await own.page.getByRole('link', { name: 'Open the dashboard' }).click();
    const typeTable = own.page.getByRole('region', { name: 'Ticket types' });
    await typeTable.getByRole('row', { name: /VIP/ }).waitFor();
    expect(await typeTable.getByRole('row', { name: /Regular/ }).getByRole('cell').allTextContents()).toEqual(['Ksh.1,000', '2', 'Ksh.1,600']);
    expect(await typeTable.getByRole('row', { name: /VIP/ }).getByRole('cell').allTextContents()).toEqual(['Ksh.3,000', '1 / 5', 'Ksh.2,400']);
    const codeTable = own.page.getByRole('region', { name: 'Promo codes' });
    expect(await codeTable.getByRole('row', { name: /KARIBU20/ }).getByRole('cell').allTextContents()).toEqual(['1', 'Ksh.1,000']);
  });

  it('posts a new paid event from /plan with two ticket types, checking the rows before sending', async () => {
    const planTitle = 'Lake Victoria Sunrise Run';
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'ttorganiser');
    await page.goto('/plan');
    await page.getByLabel('Title').fill(planTitle);
    await page.getByLabel('Description').fill('Ten kilometres along the shore at dawn, chai at the finish.');
    await page.getByLabel('Date', { exact: true }).fill(kenyanDay(20));
    await page.getByLabel('Time', { exact: true }).fill('06:00');
    await page.getByLabel('Location', { exact: true }).fill('Dunga Beach, Kisumu');
    // Leaving the field looks the place up; its answer moves the fields below, so wait for it before clicking them.
    await page.getByLabel('Location', { exact: true }).blur();
    await page.getByText(/^(Pinned near|We could not place|The location could not be looked up)/).waitFor();
    await page.getByLabel('This is a paid event').check();
    const first = page.getByRole('group', { name: 'Ticket type 1' });
    expect(await first.getByLabel('Name').inputValue()).toBe('General admission');
    await first.getByLabel('Name').fill('Early Bird');
    await first.getByLabel('Price (Ksh)').fill('500');
    await page.getByRole('button', { name: 'Add a ticket type' }).click();
    const second = page.getByRole('group', { name: 'Ticket type 2' });
    await second.getByLabel('Name').fill('early bird');
    await second.getByLabel('Price (Ksh)').fill('1000');
    await page.getByRole('button', { name: 'Post Event' }).click();
    await second.getByText('Give each ticket type its own name.').waitFor();
    await second.getByLabel('Name').fill('Race day');
    // Reordered: buyers see Race day first.
    await page.getByRole('button', { name: 'Move Race day up' }).click();
    expect(await page.getByRole('group', { name: 'Ticket type 1' }).getByLabel('Name').inputValue()).toBe('Race day');
    await screenshots(page, page.locator('.event-form__pricing'), 'plan-ticket-types');
    await page.getByRole('button', { name: 'Post Event' }).click();
    await page.getByRole('heading', { name: 'Event Posted!' }).waitFor();

    const mine = await h.server.api('GET', `/api/events/user/${organiser.user._id}`, { token: organiser.token });
    const created = (mine.body as Array<{ _id: string; title: string; ticketPrice: number; ticketPriceMax: number }>).find((event) => event.title === planTitle)!;
    expect(created).toMatchObject({ ticketPrice: 500, ticketPriceMax: 1000 });
    const stored = await h.server.api('GET', `/api/events/${created._id}/ticket-types`, { token: organiser.token });
    expect((stored.body.ticketTypes as Array<{ name: string; price: number }>).map(({ name, price }) => ({ name, price }))).toEqual([
      { name: 'Race day', price: 1000 },
      { name: 'Early Bird', price: 500 },
    ]);
    expect(seriousErrors(errors).filter((error) => !error.includes('ERR_NAME_NOT_RESOLVED'))).toEqual([]);
  });
});
