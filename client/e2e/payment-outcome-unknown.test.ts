import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovedPaidEvent, kenyanDay, loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * The payment service died after sending the prompt: the buyer's stkPush reached it, the prompt went to the phone,
 * and the answer was lost (the API server's /pay says `payment_outcome_unknown`). The dialog must not say the
 * payment failed: it says the prompt may have been sent, looks for the payment among the buyer's transactions and
 * follows it to the end as any other push.
 */

let h: Harness;
let organiser: Session;
let buyer: Session;
let eventId: string;
const title = 'Lost Answer Benga Night';

beforeAll(async () => {
  h = await startHarness({}, { payments: { SIMULATOR_DELAY_MS: '1500' } });
  organiser = await h.server.createUser('akinyi');
  buyer = await h.server.createUser('kamau');
  // Without an avatar a login lands on /setAvatar first.
  await setAvatar(h, organiser);
  await setAvatar(h, buyer);
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Benga all night long.',
    date: `${kenyanDay(10)}T20:00`,
    location: 'Carnivore, Nairobi',
    ticketPrice: 300,
    capacity: 20,
  });
});

afterAll(async () => {
  await h?.close();
});

describe('the payment service loses the answer to a push', () => {
  it('the dialog says the prompt may have been sent, finds the payment and follows it to the end', async () => {
    const { page, errors } = await h.newPage({ width: 1280, height: 900 });
    await loginThroughUi(page, 'kamau');
    // The push really goes through (the prompt is sent), but its answer is replaced by what /pay says when the
    // payment service dies before answering.
    let pushes = 0;
    await page.route('**/pay/stkPush', async (route) => {
      pushes += 1;
      await route.fetch();
      await route.fulfill({
        status: 502,
        contentType: 'application/json',
        body: JSON.stringify({ msg: 'Your M-Pesa prompt may have been sent: watch your phone. If you pay, your tickets will follow.', code: 'payment_outcome_unknown' }),
      });
    });

    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Get Ticket' }).click();
    await page.getByRole('dialog', { name: 'Confirm your purchase' }).getByRole('button', { name: 'Continue to payment' }).click();
    const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
    await pay.getByLabel('M-Pesa phone number').fill('0712 345 601');
    await pay.getByRole('button', { name: 'Pay Ksh.300' }).click();

    await pay.getByText('Your M-Pesa prompt may have been sent: watch your phone.', { exact: false }).waitFor();
    expect(await pay.getByText('Payment failed or cancelled').count()).toBe(0);
    expect(await pay.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    // Found among the transactions and followed: the simulated customer pays, the tickets are registered.
    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText('Payment successful. Registered successfully.').waitFor();
    expect(pushes).toBe(1);
    const mine = await h.server.api('GET', '/api/tickets/mine', { token: buyer.token });
    expect((mine.body as Array<{ event: { _id: string } }>).filter((ticket) => ticket.event._id === eventId)).toHaveLength(1);
    expect(seriousErrors(errors).filter((error) => !/502/.test(error))).toEqual([]);
  });
});
