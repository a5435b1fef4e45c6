import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketTypes, tickets } from '../../server/src/db/schema.js';
import { SIMULATOR_CREDENTIALS } from '../../simulator/src/config.js';
import en from '../src/locales/en/tickets.json' with { type: 'json' };
import sw from '../src/locales/sw/tickets.json' with { type: 'json' };
import { createApprovedPaidEvent, kenyanDay, loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Paying in instalments ("Lipa pole pole", docs/decisions/instalments.md) at phone width, in both languages: a
 * signed-in buyer reads the terms and chooses "Pay in instalments", pays the deposit by the prompt (the simulated
 * phone pays it), sees the reservation on /profile with what is paid and what is left, pays the rest with
 * "Pay now", and finds a valid ticket in My Tickets.
 */

let h: Harness;
let eventId: string;
let organiser: Session;
const buyers: Record<'en' | 'sw', Session | undefined> = { en: undefined, sw: undefined };
const title = 'Safari Rally Gala Dinner';
const catalogs = { en, sw } as const;

beforeAll(async () => {
  h = await startHarness({ PAYBILL_SHORTCODE: SIMULATOR_CREDENTIALS.shortcode }, { payments: { SIMULATOR_DELAY_MS: '500' } });
  organiser = await h.server.createUser('polepoleorganiser');
  await setAvatar(h, organiser);
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Three courses and the rally crews, at the lakeside.',
    date: `${kenyanDay(20)}T19:00`,
    location: 'Lake Naivasha Resort, Naivasha',
    ticketPrice: 1000,
    capacity: 30,
  });
  const [type] = await h.server.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId));
  const plan = await h.server.api('PUT', `/api/events/${eventId}/ticket-types`, {
    token: organiser.token,
    body: { ticketTypes: [{ _id: type!.id, name: 'General admission', price: 1000, capacity: null, instalments: { depositPercent: 30, dueDate: `${kenyanDay(15)}T18:00`, cancellationFee: 50 } }] },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  for (const language of ['en', 'sw'] as const) {
    buyers[language] = await h.server.createUser(`polepole${language}`);
    await setAvatar(h, buyers[language]);
  }
});

afterAll(async () => {
  await h?.close();
});

describe('paying in instalments in the browser', () => {
  it.each(['en', 'sw'] as const)('%s: reserves with a deposit, sees the reservation on /profile, pays the rest and gets a valid ticket', async (language) => {
    const text = catalogs[language];
    const buyer = buyers[language]!;
    const { context, page, errors } = await h.newPage({ width: 390, height: 844 });
    await loginThroughUi(page, buyer.user.username);
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    if (language === 'sw') {
      await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
      await page.waitForFunction(() => document.documentElement.lang === 'sw');
    }

    await page.getByRole('button', { name: text['tickets.getTicket'], disabled: false }).click();
    const confirm = page.getByRole('dialog', { name: text['tickets.confirmPurchase'] });
    // The terms are said before buying: 30% now, the rest by the due date, the fee kept if unpaid.
    await confirm.getByText(/30%/).waitFor();
    await confirm.getByLabel(text['tickets.payInInstalments']).check();
    await confirm.getByRole('button', { name: text['tickets.continueToPayment'] }).click();
    const pay = page.getByRole('dialog', { name: text['tickets.payWithMpesa'] });
    // What this prompt asks for is the deposit, said as such beside the order's whole price.
    const depositLead = text['tickets.depositOfTotal']!.split('{amount}')[0]!.trim();
    expect(await pay.locator('.payment-summary__total').textContent()).toMatch(new RegExp(`^${depositLead}.*300.*1,000`));
    await pay.getByLabel(text['tickets.mpesaPhone']).fill('0110 123 456');
    await pay.getByRole('button', { name: /300/ }).click();
    await pay.getByText(text['tickets.statusReserved'], { exact: true }).waitFor({ timeout: 30_000 });
    // A reservation: no ticket yet.
    const valid = () => h.server.db.select().from(tickets).where(and(eq(tickets.eventId, eventId), eq(tickets.userId, buyer.user._id), isNull(tickets.voidedAt)));
    expect(await valid()).toHaveLength(0);

    await pay.getByRole('link', { name: text['tickets.seeReservation'] }).click();
    const reservation = page.getByTestId('reservation');
    await reservation.waitFor();
    expect(await reservation.getByTestId('reservation-paid').textContent()).toContain('300');
    expect(await reservation.getByTestId('reservation-balance').textContent()).toContain('700');
    expect(await reservation.getByTestId('reservation-code').textContent()).toMatch(/^[2-9A-HJKMNP-Z]{7}$/);

    // The organiser's dashboard shows the reserved seat beside what it has paid so far.
    const desk = await h.newPage({ width: 390, height: 844 });
    await loginThroughUi(desk.page, organiser.user.username);
    await desk.page.goto(`/events/${eventId}/dashboard`);
    await expect.poll(async () => desk.page.getByTestId('dashboard-reserved').first().textContent().catch(() => ''), { timeout: 15_000 }).toMatch(/^1 .*300/);
    await desk.context.close();

    await reservation.getByRole('button', { name: text['tickets.payNow'] }).click();
    expect(await reservation.getByLabel(text['tickets.reservationAmount']).inputValue()).toBe('700');
    await reservation.getByRole('button', { name: text['tickets.payNow'] }).click();
    await reservation.getByText(text['tickets.reservationPaidOff']).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await valid()).length, { timeout: 15_000 }).toBe(1);
    // My Tickets shows the ticket (loaded again once the reservation was paid off).
    await page.getByRole('region', { name: new RegExp(text['tickets.myTickets']) }).getByText(title).first().waitFor({ timeout: 15_000 });
    expect(seriousErrors(errors)).toEqual([]);
    await context.close();
  });
});
