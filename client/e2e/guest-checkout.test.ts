import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../server/src/db/schema.js';
import { accessibilityProblems, createApprovedPaidEvent, kenyanDay, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Guest checkout in a real browser against the real API server, the payment service (Daraja simulator) and
 * the SMS simulator: a signed-out visitor picks a VIP ticket, applies a promo code and buys as a guest with
 * a phone number → pays on the simulated phone → "sent by SMS" with a link → the SMS simulator page shows
 * the message → its link opens the ticket page with the QR code.
 */

let h: Harness;
let organiser: Session;
let eventId: string;
let vipId: string;
const title = 'Koroga Festival Guest Night';

beforeAll(async () => {
  h = await startHarness({ SMS_POLL_MS: '200' }, { payments: { SIMULATOR_DELAY_MS: '1000' } });
  organiser = await h.server.createUser('guestfestival');
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Afro-jazz and food under the stars.',
    date: `${kenyanDay(20)}T18:00`,
    location: 'Laureate Gardens, Nairobi',
    ticketPrice: 1500,
    capacity: 100,
  });
  const [regular] = (await h.server.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes;
  const types = await h.server.api('PUT', `/api/events/${eventId}/ticket-types`, {
    token: organiser.token,
    body: { ticketTypes: [{ _id: regular._id, name: 'Regular', price: 1500 }, { name: 'VIP', price: 6000, capacity: 10 }] },
  });
  expect(types.status, JSON.stringify(types.body)).toBe(200);
  const vip = types.body.ticketTypes[1];
  vipId = vip._id;
  const code = await h.server.api('POST', `/api/events/${eventId}/promo-codes`, { token: organiser.token, body: { code: 'KOROGA20', kind: 'percent', value: 20, ticketTypeIds: [vip._id] } });
  expect(code.status).toBe(201);
});

afterAll(async () => {
  await h?.close();
});

function smsSimulatorKey(): string {
  const gateway = h.server.config.sms.gateway;
  if (gateway.kind !== 'simulator') throw new Error('this test runs on the SMS simulator');
  return gateway.key;
}

describe('guest checkout in the browser', () => {
  it('a signed-out visitor buys a VIP ticket with a promo code by phone, gets the SMS and opens the QR ticket page', async () => {
    const { context, page, errors } = await h.newPage({ width: 1280, height: 900 });
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();

    // One action per way to buy, both usable at once: one ticket of the first type is already chosen.
    const box = page.getByRole('region', { name: 'Tickets' });
    await box.getByRole('button', { name: 'Buy as guest with M-Pesa', disabled: false }).waitFor();
    await box.getByRole('button', { name: 'Log in to buy', disabled: false }).waitFor();
    expect(await box.getByRole('button', { name: 'Get Ticket' }).count()).toBe(0);
    expect(await box.getByLabel('Regular tickets').inputValue()).toBe('1');

    await page.getByLabel('Regular tickets').fill('0');
    await page.getByLabel('VIP tickets').fill('1');
    await page.getByLabel(/Promo code/).fill('koroga20');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('KOROGA20', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Buy as guest' }).click();

    const dialog = page.getByRole('dialog', { name: 'Confirm your purchase' });
    await dialog.waitFor();
    // 6,000 less 20 %: the server's price.
    await dialog.getByText('Ksh.4,800', { exact: true }).first().waitFor();
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();

    const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
    await pay.getByLabel('M-Pesa phone number').fill('0700 000 005');
    await pay.getByLabel('Email (optional)').fill('guest.fan@example.com');
    await pay.getByRole('button', { name: 'Pay Ksh.4,800' }).click();
    await pay.getByText('Payment initiated. Please complete the payment on your phone.').waitFor();
    const [simulatedPhone] = await Promise.all([context.waitForEvent('page'), pay.getByRole('link', { name: 'Open the simulated M-Pesa phone' }).click()]);
    await simulatedPhone.getByText('Do you want to pay KSh 4800', { exact: false }).waitFor();
    await simulatedPhone.getByLabel('Enter M-PESA PIN').fill('1234');
    await simulatedPhone.getByRole('button', { name: 'Pay' }).click();
    await simulatedPhone.getByText('This prompt was answered').waitFor();
    await simulatedPhone.close();

    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 20_000 });
    await pay.getByText('Your ticket was sent by SMS to 254700000005.').waitFor();
    const dialogLink = await pay.getByRole('link', { name: 'Open your ticket' }).getAttribute('href');
    expect(dialogLink).toMatch(/^\/t\/[0-9a-f]{24}\.[\w-]+$/);
    const mail = await h.server.smtp.waitFor('guest.fan@example.com', new RegExp(title));
    expect(mail.text).toContain('Ksh.4,800');

    // The SMS goes out through the outbox after the payment; then the simulator's page (as a developer
    // opens it, with its key) shows the message and its link.
    const key = smsSimulatorKey();
    await expect
      .poll(async () => (await h.server.api('GET', '/simulator/sms/messages?phone=254700000005', { headers: { 'x-simulator-key': key } })).body.length, { timeout: 20_000 })
      .toBe(1);
    const sms = await context.newPage();
    await sms.goto(`/simulator/sms?key=${encodeURIComponent(key)}`);
    await sms.getByText(new RegExp(`Your Tukio ticket for ${title}`)).waitFor();
    const ticketLink = sms.getByRole('link', { name: /\/t\// });
    const href = (await ticketLink.getAttribute('href'))!;
    expect(new URL(href).pathname).toBe(dialogLink);
    await ticketLink.click();

    await sms.getByRole('heading', { name: title, level: 1 }).waitFor();
    await sms.getByText('Guest 2547…005').waitFor();
    const qr = sms.getByRole('img', { name: `QR code for ${title}, ticket 1 of 1` });
    await qr.waitFor();
    await expect.poll(() => sms.locator('.ticket-qr svg path').count()).toBeGreaterThanOrEqual(1);
    expect(await accessibilityProblems(sms)).toEqual([]);

    // The ticket is the VIP one, at its share of the discounted price.
    const [ticket] = await h.server.db.select().from(tickets).where(eq(tickets.eventId, eventId));
    expect(ticket).toMatchObject({ ticketTypeId: vipId, pricePaid: 4800 });
    expect(seriousErrors(errors)).toEqual([]);
    await context.close();
  });
});
