import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../src/locales/en/tickets.json' with { type: 'json' };
import sw from '../src/locales/sw/tickets.json' with { type: 'json' };
import enEvents from '../src/locales/en/events.json' with { type: 'json' };
import swEvents from '../src/locales/sw/events.json' with { type: 'json' };
import { createApprovedPaidEvent, kenyanDay, screenshotsAtWidths, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * An event series at phone width (docs/decisions/event-series.md): the buyer picks the second date in the ticket
 * box, sees it in the payment dialog, pays (the Daraja simulator pays), and finds that date on the ticket.
 */

let h: Harness;
let organiser: Session;
let eventId: string;
let second: { _id: string; startsAt: string };
const title = 'Kilimani Comedy Nights';
const catalogs = { en, sw } as const;

beforeAll(async () => {
  h = await startHarness({}, { payments: { SIMULATOR_DELAY_MS: '500' } });
  organiser = await h.server.createUser('seriesorganiserui');
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Stand-up every Friday night, with new comedians each week.',
    date: `${kenyanDay(10)}T19:00`,
    location: 'Kilimani, Nairobi',
    ticketPrice: 1500,
    capacity: 50,
  });
  for (const day of [17, 24]) {
    const added = await h.server.api('POST', `/api/events/${eventId}/dates`, { token: organiser.token, body: { startsAt: `${kenyanDay(day)}T19:00`, capacity: 50 } });
    expect(added.status).toBe(201);
  }
  const dates = (await h.server.api('GET', `/api/events/${eventId}/dates`)).body.dates as Array<{ _id: string; startsAt: string }>;
  second = dates[1]!;
});

afterAll(async () => {
  await h?.close();
});

describe('event series in the browser', () => {
  it.each(['en', 'sw'] as const)('%s: the buyer picks the second date, pays, and sees that date on the ticket', async (language) => {
    const text = catalogs[language];
    const buyer = await h.server.createUser(`seriesbuyer${language}`);
    await setAvatar(h, buyer);
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, buyer.user.username);
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    if (language === 'sw') {
      await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
      await page.waitForFunction(() => document.documentElement.lang === 'sw');
    }
    // The event page lists the three dates.
    await expect.poll(() => page.getByTestId('series-dates').locator('li').count()).toBe(3);

    const picker = page.getByTestId('series-date');
    await picker.selectOption(second._id);
    await page.getByRole('button', { name: text['tickets.getTicket'], disabled: false }).click();
    const confirm = page.getByRole('dialog', { name: text['tickets.confirmPurchase'] });
    const dateLine = (await confirm.getByTestId('payment-date').textContent()) ?? '';
    const secondLabel = await picker.locator(`option[value="${second._id}"]`).textContent();
    expect(dateLine).toContain(secondLabel!);
    await confirm.getByRole('button', { name: text['tickets.continueToPayment'] }).click();
    const pay = page.getByRole('dialog', { name: text['tickets.payWithMpesa'] });
    await pay.getByLabel(text['tickets.mpesaPhone']).fill('0110 123 456');
    await pay.getByRole('button', { name: /1,500/ }).click();
    await pay.getByText(text['tickets.statusSuccess'], { exact: true }).waitFor({ timeout: 30_000 });

    // The ticket is for the second date, on the server and on the buyer's profile.
    await expect
      .poll(async () => ((await h.server.api('GET', '/api/tickets/mine', { token: buyer.token })).body as Array<{ event: { _id: string }; seriesDate?: { _id: string } }>).find((ticket) => ticket.event._id === eventId)?.seriesDate?._id, {
        timeout: 20_000,
      })
      .toBe(second._id);
    await page.goto('/profile');
    const shown = page.getByTestId('ticket-date').first();
    await shown.waitFor({ timeout: 20_000 });
    expect(await shown.textContent()).toContain(String(new Date(second.startsAt).getUTCDate()));
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('the organiser ties a ticket type to one date in the editor ("Sold for"), at phone width', async () => {
    await setAvatar(h, organiser);
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, organiser.user.username);
    await page.goto(`/edit-event/${eventId}`);
    const soldFor = page.locator('select[name="type-0-sold-for"]');
    await soldFor.waitFor();
    expect(await page.locator('label', { has: soldFor }).locator('.field__label').textContent()).toBe(enEvents['events.soldFor']);
    // The buyer's pick, the three dates, every date.
    expect(await soldFor.locator('option').count()).toBe(5);
    expect(await soldFor.inputValue()).toBe('');
    await soldFor.selectOption(second._id);
    await page.getByRole('button', { name: enEvents['events.update'] }).click();
    await expect
      .poll(async () => ((await h.server.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes as Array<{ dateId?: string }>)[0]?.dateId, { timeout: 20_000 })
      .toBe(second._id);
    await page.goto(`/edit-event/${eventId}`);
    await expect.poll(() => page.locator('select[name="type-0-sold-for"]').inputValue()).toBe(second._id);
    // The editor's map tiles are out of reach of the test machine (as in ticket-types.test.ts).
    expect(seriousErrors(errors).filter((error) => !error.includes('ERR_NAME_NOT_RESOLVED'))).toEqual([]);
  });

  it('the organiser moves a date and changes its seats in the editor, and reads why a time in the past is refused, at phone width', async () => {
    await setAvatar(h, organiser);
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, organiser.user.username);
    await page.goto(`/edit-event/${eventId}`);
    const list = page.getByTestId('series-date-list');
    await expect.poll(() => list.locator('li').count()).toBe(3);
    const third = (await h.server.api('GET', `/api/events/${eventId}/dates`)).body.dates[2] as { _id: string; startsAt: string };
    const row = list.locator('li').nth(2);
    await row.getByRole('button', { name: new RegExp(`^${enEvents['events.seriesEditDate']} `) }).click();
    const time = row.getByLabel(enEvents['events.seriesDateTime']);
    expect(await time.inputValue()).toBe(third.startsAt.slice(0, 16));

    // A time in the past: the server's message, and nothing changes.
    await time.fill(`${kenyanDay(-3)}T19:00`);
    await row.getByRole('button', { name: enEvents['events.seriesSaveDate'] }).click();
    await row.getByRole('alert').waitFor();
    await screenshotsAtWidths(page, 'series-date-edit-refused', { element: row });
    expect(((await h.server.api('GET', `/api/events/${eventId}/dates`)).body.dates[2] as { startsAt: string }).startsAt).toBe(third.startsAt);

    await time.fill(`${kenyanDay(25)}T20:30`);
    await row.getByLabel(enEvents['events.seriesCapacity']).fill('40');
    await row.getByRole('button', { name: enEvents['events.seriesSaveDate'] }).click();
    await page.getByText(enEvents['events.seriesDateSaved']).waitFor();
    await expect
      .poll(async () => ((await h.server.api('GET', `/api/events/${eventId}/dates`)).body.dates as Array<{ _id: string; startsAt: string; capacity: number | null }>).find((date) => date._id === third._id))
      .toMatchObject({ startsAt: expect.stringMatching(new RegExp(`^${kenyanDay(25)}T20:30`)), capacity: 40 });
    // Back in the list, with its new seats.
    await list.getByText(/of 40 sold/).waitFor();
    // In Kiswahili too.
    await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
    await row.getByRole('button', { name: new RegExp(`^${swEvents['events.seriesEditDate']} `) }).click();
    await row.getByLabel(swEvents['events.seriesDateTime']).waitFor();
    await screenshotsAtWidths(page, 'series-date-edit-sw', { element: row });
    await row.getByRole('button', { name: swEvents['events.seriesEditClose'] }).click();
    await list.getByText(/40/).waitFor();

    // The same fields add a date below the list (emptied once it is added), and a date nobody bought is removed.
    await page.getByLabel(swEvents['events.seriesNewDate']).fill(`${kenyanDay(31)}T19:00`);
    await page.getByRole('button', { name: swEvents['events.seriesAddDate'] }).click();
    await expect.poll(() => list.locator('li').count()).toBe(4);
    expect(await page.getByLabel(swEvents['events.seriesNewDate']).inputValue()).toBe('');
    const added = ((await h.server.api('GET', `/api/events/${eventId}/dates`)).body.dates as Array<{ _id: string; startsAt: string; capacity: number | null }>).at(-1)!;
    expect(added).toMatchObject({ startsAt: expect.stringMatching(new RegExp(`^${kenyanDay(31)}T19:00`)), capacity: null });
    await list.locator('li').nth(3).getByRole('button', { name: swEvents['events.seriesRemoveDate'] }).click();
    await expect.poll(() => list.locator('li').count()).toBe(3);
    expect(seriousErrors(errors).filter((error) => !error.includes('ERR_NAME_NOT_RESOLVED'))).toEqual([]);
  });

  it('a free series asks which date when registering, and takes a registration for each date, at phone width', async () => {
    const created = await h.server.api('POST', '/api/events/addevnt', {
      token: organiser.token,
      body: { title: 'Karura Saturday Walks', description: 'A free guided walk every Saturday morning.', date: `${kenyanDay(5)}T08:00`, location: 'Karura Forest, Nairobi', ticketPrice: 0, capacity: 30, latitude: null, longitude: null, user: organiser.user._id, image: null, isPaid: false },
    });
    expect(created.status).toBeLessThan(300);
    const freeId = created.body._id as string;
    const admin = await h.server.loginAdmin();
    expect((await h.server.api('PUT', `/api/events/admin/approve/${freeId}`, { token: admin.token, body: {} })).body.status).toBe('approved');
    expect((await h.server.api('POST', `/api/events/${freeId}/dates`, { token: organiser.token, body: { startsAt: `${kenyanDay(12)}T08:00`, capacity: 30 } })).status).toBe(201);
    expect((await h.server.api('POST', `/api/events/${freeId}/dates`, { token: organiser.token, body: { startsAt: `${kenyanDay(19)}T08:00`, capacity: 30 } })).status).toBe(201);
    const [earliest, later, last] = (await h.server.api('GET', `/api/events/${freeId}/dates`)).body.dates as Array<{ _id: string }>;
    const heldOnServer = async () =>
      ((await h.server.api('GET', '/api/tickets/mine', { token: walker.token })).body as Array<{ event: { _id: string }; seriesDate?: { _id: string } }>)
        .filter((ticket) => ticket.event._id === freeId)
        .map((ticket) => ticket.seriesDate?._id)
        .sort();

    const walker = await h.server.createUser('serieswalker');
    await setAvatar(h, walker);
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, walker.user.username);
    await page.goto(`/events/${freeId}`);
    await page.getByRole('heading', { name: 'Karura Saturday Walks', level: 1 }).waitFor();
    const picker = page.getByTestId('series-date');
    const labelOf = async (dateId: string) => (await picker.locator(`option[value="${dateId}"]`).textContent())!;
    const labels = { earliest: await labelOf(earliest!._id), later: await labelOf(later!._id), last: await labelOf(last!._id) };
    await picker.selectOption(later!._id);
    await page.getByRole('button', { name: en['tickets.getTicket'] }).click();
    await expect.poll(heldOnServer, { timeout: 20_000 }).toEqual([later!._id]);

    // Registered for one date, the box names it and offers the other two (not "Already registered").
    const held = page.getByTestId('held-dates');
    await expect.poll(async () => (await held.count()) > 0 && (await held.locator('li').allTextContents()), { timeout: 20_000 }).toEqual([labels.later]);
    expect(await page.getByRole('button', { name: en['tickets.alreadyRegistered'] }).count()).toBe(0);
    expect((await picker.locator('option').allTextContents()).sort()).toEqual([labels.earliest, labels.last].sort());
    await picker.selectOption(last!._id);
    await page.getByRole('button', { name: en['tickets.getTicket'] }).click();
    await expect.poll(heldOnServer, { timeout: 20_000 }).toEqual([later!._id, last!._id].sort());
    await expect.poll(() => held.locator('li').allTextContents(), { timeout: 20_000 }).toEqual([labels.later, labels.last]);

    // After a reload the box still knows both dates and offers the one left; the box fits the phone's width.
    await page.reload();
    await expect.poll(() => page.getByTestId('held-dates').locator('li').allTextContents(), { timeout: 20_000 }).toEqual([labels.later, labels.last]);
    await page.getByText(en['tickets.forDate'].replace('{date}', labels.earliest), { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(seriousErrors(errors)).toEqual([]);
  });
});
