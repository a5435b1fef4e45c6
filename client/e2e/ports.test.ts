import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovedPaidEvent, kenyanDay, loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Configuration that survives a change: the API server and the payment service on ports that are
 * neither 5000 nor 27684. The browser buys a paid ticket talking to one origin only (the API
 * server forwards /pay and /simulator to wherever PAYMENT_PORT puts the payment service), so the
 * page's CSP stays 'self' and nothing on the default ports is ever asked.
 */

let h: Harness;
let buyer: Session;
let eventId: string;
const title = 'Lamu Dhow Sunset Cruise';

beforeAll(async () => {
  h = await startHarness({}, { payments: { SIMULATOR_DELAY_MS: '300' } });
  const organiser = await h.server.createUser('amina');
  buyer = await h.server.createUser('baraka');
  await setAvatar(h, organiser);
  await setAvatar(h, buyer);
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Sail out of Lamu old town at sunset.',
    date: `${kenyanDay(20)}T17:00`,
    location: 'Lamu Old Town, Lamu',
    ticketPrice: 750,
    capacity: 20,
  });
});

afterAll(async () => {
  await h?.close();
});

/** Every request the browser makes, and an empty answer for anything that is not our one origin. */
async function recordRequests(context: BrowserContext): Promise<URL[]> {
  const seen: URL[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'http:' || url.protocol === 'https:') seen.push(url);
  });
  await context.route(
    (url) => url.origin !== h.server.url,
    (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: '' }),
  );
  return seen;
}

describe('non-default ports', () => {
  it('buys a paid ticket end to end with PORT and PAYMENT_PORT both moved, through one origin', async () => {
    const apiPort = Number(new URL(h.server.url).port);
    const paymentPort = h.payments!.port;
    expect(apiPort).not.toBe(5000);
    expect(paymentPort).not.toBe(27684);
    expect(paymentPort).not.toBe(apiPort);

    const { context, page, errors } = await h.newPage({ width: 1280, height: 900 });
    const requests = await recordRequests(context);
    await loginThroughUi(page, 'baraka');
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Get Ticket' }).click();
    await page.getByRole('dialog', { name: 'Confirm your purchase' }).getByRole('button', { name: 'Continue to payment' }).click();

    // A number the simulated customer pays on their own, after the delay.
    const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
    await pay.getByLabel('M-Pesa phone number').fill('0712 345 678');
    await pay.getByRole('button', { name: 'Pay Ksh.750' }).click();
    await pay.getByText('Payment initiated. Please complete the payment on your phone.').waitFor();
    // The dialog's link to the simulated phone is on this same origin too.
    const phoneLink = await pay.getByRole('link', { name: 'Open the simulated M-Pesa phone' }).getAttribute('href');
    expect(new URL(phoneLink!).origin).toBe(h.server.url);
    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Already Registered' }).waitFor();

    const tickets = await h.server.api('GET', '/api/tickets/mine', { token: buyer.token });
    expect(tickets.body).toHaveLength(1);

    // The payment calls went to /pay on the page's own origin; nothing asked the payment service's port or 27684.
    expect(requests.some((url) => url.origin === h.server.url && url.pathname === '/pay/stkPush')).toBe(true);
    expect(requests.some((url) => url.origin === h.server.url && url.pathname === '/pay/confirmPayment')).toBe(true);
    expect(requests.filter((url) => [String(paymentPort), '27684'].includes(url.port)).map(String)).toEqual([]);
    // No Content-Security-Policy refusal, no script error.
    expect(seriousErrors(errors)).toEqual([]);
  });
});
