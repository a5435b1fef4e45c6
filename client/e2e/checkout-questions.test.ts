import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, createApprovedPaidEvent, kenyanDay, loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Checkout questions in a real browser at phone width (docs/decisions/checkout-questions.md), against the real API
 * server and the payment service (Daraja simulator): the organiser adds a required "name on each ticket" question
 * and a choice question on the event page; a buyer answers them in the payment dialog, is told of a missing name
 * before anything is sent, pays for two tickets on the simulated phone; the organiser finds each ticket's name and
 * the choice on the attendee list. Once in English and once in Kiswahili.
 */

let h: Harness;
let organiser: Session;
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  h = await startHarness({}, { payments: { SIMULATOR_DELAY_MS: '500' } });
  organiser = await h.server.createUser('cqorganiser');
  const buyers = [await h.server.createUser('cqbuyer'), await h.server.createUser('cqmnunuzi')];
  await Promise.all([organiser, ...buyers].map((session) => setAvatar(h, session)));
});

afterAll(async () => {
  await h?.close();
});

const newEvent = (title: string) =>
  createApprovedPaidEvent(h, organiser, { title, description: 'Music, food and dance by the lake.', date: `${kenyanDay(14)}T18:00`, location: 'Naivasha Lakeside, Naivasha', ticketPrice: 500, capacity: 100 });

describe('checkout questions', () => {
  it('in English: the organiser asks, the buyer answers in the payment dialog and pays, the organiser sees the answers', async () => {
    const eventId = await newEvent('Koroga Lake Festival');

    // The organiser adds the questions on the event page, on a phone.
    const own = await h.newPage(PHONE);
    await loginThroughUi(own.page, 'cqorganiser');
    await own.page.goto(`/events/${eventId}`);
    await own.page.getByRole('button', { name: 'Show checkout questions' }).click();
    const panel = own.page.getByRole('region', { name: 'Checkout questions' });
    await panel.getByText('No questions yet: buyers pay without being asked anything.').waitFor();
    await panel.getByLabel('Question', { exact: true }).fill('Name on ticket');
    await panel.getByLabel('Asked').selectOption('attendee');
    await panel.getByLabel('Buyers must answer').check();
    await panel.getByRole('button', { name: 'Add question' }).click();
    await panel.getByText('Name on ticket', { exact: true }).waitFor();
    await panel.getByLabel('Question', { exact: true }).fill('T-shirt size');
    await panel.getByLabel('Kind of answer').selectOption('choice');
    await panel.getByLabel('Options').fill('S\nM\nL');
    await panel.getByRole('button', { name: 'Add question' }).click();
    await panel.getByText('T-shirt size', { exact: true }).waitFor();
    expect(await accessibilityProblems(own.page)).toEqual([]);
    const stored = await h.server.api('GET', `/api/events/${eventId}/questions`);
    expect(stored.body).toMatchObject([
      { label: 'Name on ticket', kind: 'text', required: true, per: 'attendee' },
      { label: 'T-shirt size', kind: 'choice', options: ['S', 'M', 'L'], required: false, per: 'order' },
    ]);

    // The buyer, on a phone: two tickets, a name for each.
    const { page, errors } = await h.newPage(PHONE);
    await loginThroughUi(page, 'cqbuyer');
    await page.goto(`/events/${eventId}`);
    await page.getByLabel('Number of tickets').fill('2');
    await page.getByRole('button', { name: 'Get Ticket' }).click();
    await page.getByRole('dialog', { name: 'Confirm your purchase' }).getByRole('button', { name: 'Continue to payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
    await dialog.getByText('The organiser asks a few questions.', { exact: false }).waitFor();
    await dialog.getByLabel('Name on ticket · ticket 1 of 2').fill('Achieng Odhiambo');
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    // The second name is missing: said at its field, nothing sent.
    await dialog.getByText('Please answer “Name on ticket”.').waitFor();
    await dialog.getByLabel('Name on ticket · ticket 2 of 2').fill('Baraka Mwangi');
    await dialog.getByLabel('T-shirt size (optional)').selectOption('M');
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await dialog.getByLabel('M-Pesa phone number').fill('0712 345 678');
    await dialog.getByRole('button', { name: 'Pay Ksh.1,000' }).click();
    await dialog.getByText('Payment successful', { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(false);
    await page.getByRole('button', { name: 'Already Registered' }).waitFor();
    expect(seriousErrors(errors)).toEqual([]);

    // The organiser's attendee list shows each ticket's name and the order's size.
    await own.page.goto(`/checkin/${eventId}`);
    const attendees = own.page.getByRole('region', { name: /Attendees/ });
    await attendees.getByText('Name on ticket: Achieng Odhiambo').waitFor();
    await attendees.getByText('Name on ticket: Baraka Mwangi').waitFor();
    expect(await attendees.getByText('T-shirt size: M').count()).toBe(2);
    expect(seriousErrors(own.errors)).toEqual([]);
  });

  it('in Kiswahili: the same questions asked and answered in Kiswahili', async () => {
    const eventId = await newEvent('Tamasha la Ziwa');
    const { page: own, errors: ownErrors } = await h.newPage(PHONE);
    await loginThroughUi(own, 'cqorganiser');
    // Kiswahili from here on, as the header's switch keeps it.
    await own.evaluate(() => localStorage.setItem('tukio-language', 'sw'));
    await own.goto(`/events/${eventId}`);
    await own.getByRole('button', { name: 'Onyesha maswali ya malipo' }).click();
    const panel = own.getByRole('region', { name: 'Maswali ya malipo' });
    await panel.getByLabel('Swali', { exact: true }).fill('Jina kwenye tiketi');
    await panel.getByLabel('Linaulizwa').selectOption('attendee');
    await panel.getByLabel('Wanunuzi lazima wajibu').check();
    await panel.getByRole('button', { name: 'Ongeza swali' }).click();
    await panel.getByText('Jina kwenye tiketi', { exact: true }).waitFor();
    await panel.getByLabel('Swali', { exact: true }).fill('Chakula');
    await panel.getByLabel('Aina ya jibu').selectOption('choice');
    await panel.getByLabel('Chaguo').fill('Nyama\nMboga');
    await panel.getByRole('button', { name: 'Ongeza swali' }).click();
    await panel.getByText('Chakula', { exact: true }).waitFor();

    const { page, errors } = await h.newPage(PHONE);
    await loginThroughUi(page, 'cqmnunuzi');
    await page.evaluate(() => localStorage.setItem('tukio-language', 'sw'));
    await page.goto(`/events/${eventId}`);
    await page.getByLabel('Idadi ya tiketi').fill('2');
    await page.getByRole('button', { name: 'Pata Tiketi' }).click();
    await page.getByRole('dialog', { name: 'Thibitisha ununuzi wako' }).getByRole('button', { name: 'Endelea kulipa' }).click();
    const dialog = page.getByRole('dialog', { name: 'Lipa kwa M-Pesa' });
    await dialog.getByText('Mwandaaji ana maswali machache. Majibu yako yanaenda pamoja na oda yako.').waitFor();
    await dialog.getByLabel('Jina kwenye tiketi · tiketi 1 kati ya 2').fill('Wanjiru Kamau');
    await dialog.getByRole('button', { name: 'Endelea', exact: true }).click();
    await dialog.getByText('Tafadhali jibu “Jina kwenye tiketi”.').waitFor();
    await dialog.getByLabel('Jina kwenye tiketi · tiketi 2 kati ya 2').fill('Otieno Ouma');
    await dialog.getByLabel('Chakula (si lazima)').selectOption('Mboga');
    await dialog.getByRole('button', { name: 'Endelea', exact: true }).click();
    await dialog.getByLabel('Namba ya simu ya M-Pesa').fill('0712 345 679');
    await dialog.getByRole('button', { name: /^Lipa / }).click();
    await dialog.getByText('Malipo yamefanikiwa', { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(false);
    expect(seriousErrors(errors)).toEqual([]);

    await own.goto(`/checkin/${eventId}`);
    const attendees = own.getByRole('region', { name: /Wahudhuriaji/ });
    await attendees.getByText('Jina kwenye tiketi: Wanjiru Kamau').waitFor();
    await attendees.getByText('Jina kwenye tiketi: Otieno Ouma').waitFor();
    expect(await attendees.getByText('Chakula: Mboga').count()).toBe(2);
    expect(seriousErrors(ownErrors)).toEqual([]);
  });
});
