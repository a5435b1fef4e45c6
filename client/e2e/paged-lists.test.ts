import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { accessibilityProblems, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Lists that grow, paged by the server with counts (docs/decisions/pagination.md): the admin's pending
 * events on /admin, and the organiser's events and tickets on /profile show a page, "Showing X of Y"
 * and "Load more", which brings the next rows. Build first: `npm run build -w client`.
 */

let h: Harness;
let admin: Session;
let organiser: Session;

const PENDING = 18; // one admin page is 15 events
const OWN_EVENTS = 17;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.server.loginAdmin();
  organiser = await h.server.createUser('pagedwambui');
  for (const session of [admin, organiser]) await setAvatar(h, session);
  // Pending events a day apart, so the page order (soonest first) is their number order.
  for (let index = 0; index < PENDING; index += 1) {
    await insertEventRow(h.server.db, { ownerId: admin.user._id, days: 30 + index, status: 'pending', title: `Pending fair ${String(index + 1).padStart(2, '0')}` });
  }
  for (let index = 0; index < OWN_EVENTS; index += 1) {
    await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 10 + index, status: 'approved', title: `Wambui meetup ${String(index + 1).padStart(2, '0')}` });
  }
  // 21 tickets over three free events (one page of My Tickets is 20).
  for (let index = 0; index < 3; index += 1) {
    const eventId = await insertEventRow(h.server.db, { ownerId: admin.user._id, days: 5 + index, title: `Free concert ${index + 1}`, capacity: 100 });
    const registered = await h.server.api('POST', `/api/events/register/${eventId}`, { token: organiser.token, body: { tickets: 7 } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('paged lists in the browser', () => {
  it('/admin shows a page of pending events with the count, loads the next page, and approves one from it', async () => {
    const { page, errors } = await h.newPage();
    await signIn(h, page, 'admin', 'admin-password');
    await page.goto('/admin');
    const pending = page.getByRole('region', { name: `Pending Events (${PENDING})` });
    await pending.getByRole('article', { name: 'Pending fair 15', exact: true }).waitFor();
    expect(await pending.getByRole('article').count()).toBe(15);
    await pending.getByText(`Showing 15 of ${PENDING}`).waitFor();
    expect(await pending.getByRole('article', { name: 'Pending fair 16', exact: true }).count()).toBe(0);

    await pending.getByRole('button', { name: 'Load more' }).click();
    await pending.getByRole('article', { name: 'Pending fair 18', exact: true }).waitFor();
    expect(await pending.getByRole('article').count()).toBe(PENDING);
    // All shown: no count line and no button are left.
    await expect.poll(() => pending.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);

    // Approving a row of the second page moves it and both counts, without reading the lists again.
    const approvedBefore = Number(/\((\d+)\)/.exec((await page.getByRole('heading', { name: /^Approved Events \(\d+\)$/ }).textContent()) ?? '')?.[1]);
    await pending.getByRole('button', { name: 'Approve Pending fair 17', exact: true }).click();
    await page.getByRole('region', { name: `Pending Events (${PENDING - 1})` }).waitFor();
    await page.getByRole('heading', { name: `Approved Events (${approvedBefore + 1})` }).waitFor();
    expect(await page.getByRole('region', { name: `Pending Events (${PENDING - 1})` }).getByRole('article', { name: 'Pending fair 17', exact: true }).count()).toBe(0);
    const listed = await h.server.api('GET', '/api/admin/events?status=pending', { token: admin.token });
    expect(listed.body.total).toBe(PENDING - 1);

    // Searching narrows every list on the server, counts included.
    await page.getByRole('searchbox', { name: 'Search events by title or place' }).fill('fair 07');
    const found = page.getByRole('region', { name: 'Pending Events (1)' });
    await found.getByRole('article', { name: 'Pending fair 07', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Approved Events (0)' }).waitFor();
    expect(await found.getByRole('article').count()).toBe(1);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('/profile pages My Events and My Tickets with their counts and Load more', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, organiser.user.username);
    await page.goto('/profile');

    const events = page.getByRole('region', { name: 'My Events' });
    await events.getByRole('link', { name: 'Wambui meetup 15', exact: true }).waitFor();
    await events.getByText(`Showing 15 of ${OWN_EVENTS}`).waitFor();
    expect(await events.getByRole('link', { name: 'Wambui meetup 16', exact: true }).count()).toBe(0);
    await events.getByRole('button', { name: 'Load more' }).click();
    await events.getByRole('link', { name: 'Wambui meetup 17', exact: true }).waitFor();
    await expect.poll(() => events.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    const tickets = page.getByRole('region', { name: 'My Tickets (21)' });
    await tickets.getByText('Showing 20 of 21').waitFor();
    expect(await tickets.getByRole('listitem').count()).toBe(20);
    // The numbering counts every ticket of the event, loaded or not: the 7th of the third concert is on page two.
    await tickets.getByText('Ticket 6 of 7').last().waitFor();
    // A QR code is drawn when its card comes near the screen: the 20th, pages below, not yet; scrolled to, it is.
    const lastLoaded = tickets.getByRole('listitem').nth(19);
    const first = tickets.getByRole('listitem').first();
    await first.scrollIntoViewIfNeeded();
    await first.locator('.ticket-qr svg path').first().waitFor();
    expect(await lastLoaded.locator('.ticket-qr svg').count()).toBe(0);
    await lastLoaded.scrollIntoViewIfNeeded();
    await lastLoaded.locator('.ticket-qr svg path').first().waitFor();
    await tickets.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => tickets.getByRole('listitem').count()).toBe(21);
    await tickets.getByText('Ticket 7 of 7').last().waitFor();
    expect(await tickets.getByText('Ticket 7 of 7').count()).toBe(3);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(seriousErrors(errors)).toEqual([]);
  });
});
