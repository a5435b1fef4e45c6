import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovedPaidEvent, kenyanDay, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * A ticket holder buys more tickets of the same paid event: 'Already Registered' stays (disabled), and
 * 'Buy more tickets' beside it runs the ordinary M-Pesa purchase again (the Daraja simulator pays).
 */

let h: Harness;
let buyer: Session;
let eventId: string;
const title = 'Lamu Dhow Sunset Cruise';

beforeAll(async () => {
  h = await startHarness({}, { payments: { SIMULATOR_DELAY_MS: '500' } });
  const organiser = await h.server.createUser('bmorganiser');
  buyer = await h.server.createUser('bmbuyer');
  await setAvatar(h, buyer);
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Sail past the old town at sunset, with chai and mahamri on board.',
    date: `${kenyanDay(10)}T17:30`,
    location: 'Lamu Old Town Jetty, Lamu',
    ticketPrice: 1500,
    capacity: 20,
  });
});

afterAll(async () => {
  await h?.close();
});

const ticketCount = async () => ((await h.server.api('GET', '/api/tickets/mine', { token: buyer.token })).body as Array<{ event: { _id: string } }>).filter((ticket) => ticket.event._id === eventId).length;

async function payInDialog(page: Awaited<ReturnType<Harness['newPage']>>['page'], total: string) {
  const confirm = page.getByRole('dialog', { name: 'Confirm your purchase' });
  await confirm.getByRole('button', { name: 'Continue to payment' }).click();
  const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
  await pay.getByLabel('M-Pesa phone number').fill('0110 123 456');
  await pay.getByRole('button', { name: `Pay ${total}` }).click();
  await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 30_000 });
  await expect.poll(() => pay.isVisible(), { timeout: 15_000 }).toBe(false);
}

describe('buying more tickets', () => {
  it("keeps 'Already Registered' and buys more beside it", async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'bmbuyer');
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Get Ticket' }).click();
    // A Safaricom 01x number pays like a 07x one.
    await payInDialog(page, 'Ksh.1,500');
    await page.getByRole('button', { name: 'Already Registered' }).waitFor();
    expect(await page.getByRole('button', { name: 'Already Registered' }).isDisabled()).toBe(true);
    await expect.poll(ticketCount).toBe(1);

    await page.getByRole('button', { name: 'Buy more tickets' }).click();
    await page.getByLabel('Number of tickets').fill('2');
    await page.getByRole('button', { name: 'Get Ticket' }).click();
    await payInDialog(page, 'Ksh.3,000');
    await expect.poll(ticketCount).toBe(3);
    await page.getByRole('button', { name: 'Buy more tickets' }).waitFor();
    expect(await page.getByRole('button', { name: 'Already Registered' }).isDisabled()).toBe(true);
    expect(seriousErrors(errors)).toEqual([]);
  });
});
