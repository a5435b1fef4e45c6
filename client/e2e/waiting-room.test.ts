import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovedPaidEvent, kenyanDay, loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * A busy sale (docs/decisions/waiting-room.md): the buyer presses Pay while others are ahead in the
 * event's line. The payment dialog shows their place, waits for their turn and then sends the M-Pesa
 * prompt by itself; leaving the line closes the dialog without a prompt.
 */

let h: Harness;
let eventId: string;
let crowd: Session[];
const title = 'Sauti Sol Farewell, Kasarani';
const screenshotDir = process.env.SCREENSHOT_DIR;

beforeAll(async () => {
  // One buyer at once, then one every 2 s.
  h = await startHarness({ WAITING_ROOM_RATE: '0.5', WAITING_ROOM_BURST: '1', WAITING_ROOM_ADAPTIVE: 'false' }, { payments: { SIMULATOR_DELAY_MS: '300' } });
  const organiser = await h.server.createUser('wrorganiser');
  crowd = await Promise.all(['wrcrowda', 'wrcrowdb', 'wrcrowdc', 'wrcrowdd'].map((name) => h.server.createUser(name)));
  // Signed-in buyers with an avatar (without one, login leads to /setAvatar first).
  for (const name of ['wrbuyer', 'wrleaver']) await setAvatar(h, await h.server.createUser(name));
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'The last night of the tour: 60,000 seats and one line.',
    date: `${kenyanDay(20)}T19:00`,
    location: 'Moi International Sports Centre, Kasarani, Nairobi',
    ticketPrice: 2500,
    capacity: 500,
  });
});

afterAll(async () => {
  await h?.close();
});

/** Two of the crowd hold seats the payment service's way: the first takes the free turn, the second waits. */
async function crowdArrives(first: Session, second: Session) {
  for (const buyer of [first, second]) {
    await h.server.api('POST', '/api/internal/payments/orders', {
      token: buyer.token,
      headers: { 'x-internal-key': h.server.config.internalApiKey },
      body: { eventId, quantity: 1, phone: '254712345678' },
    });
  }
}

const ordersOf = async (token: string) =>
  ((await h.server.api('GET', '/api/tickets/mine', { token })).body as Array<{ event: { _id: string } }>).filter((ticket) => ticket.event._id === eventId).length;

async function openPayment(page: Awaited<ReturnType<Harness['newPage']>>['page']) {
  await page.goto(`/events/${eventId}`);
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Get Ticket' }).click();
  await page.getByRole('dialog', { name: 'Confirm your purchase' }).getByRole('button', { name: 'Continue to payment' }).click();
  const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
  await pay.getByLabel('M-Pesa phone number').fill('0712 345 678');
  return pay;
}

describe('the line of a busy sale', () => {
  it('shows the buyer their place, then sends the prompt by itself at their turn', async () => {
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await loginThroughUi(page, 'wrbuyer');
    const pay = await openPayment(page);
    await crowdArrives(crowd[0]!, crowd[1]!);
    await pay.getByRole('button', { name: 'Pay Ksh.2,500' }).click();

    const status = pay.getByRole('status');
    await status.getByText('You are in the line').waitFor();
    await expect.poll(() => status.textContent()).toMatch(/You are number [12] in the line/);
    await pay.getByRole('button', { name: 'Leave the line' }).waitFor();
    if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/waiting-room-phone.png` });

    // Admitted: the prompt goes out without another press, and the simulator pays it.
    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 30_000 });
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await expect.poll(() => ordersOf(token!), { timeout: 15_000 }).toBe(1);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('leaves the line without a prompt when the buyer closes it', async () => {
    const { page, errors } = await h.newPage({ width: 1280, height: 800 });
    await loginThroughUi(page, 'wrleaver');
    const pay = await openPayment(page);
    await crowdArrives(crowd[2]!, crowd[3]!);
    await pay.getByRole('button', { name: 'Pay Ksh.2,500' }).click();
    await pay.getByText('You are in the line').waitFor();
    await pay.getByRole('button', { name: 'Leave the line' }).click();
    await expect.poll(() => pay.isVisible()).toBe(false);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    // Long after its turn would have come, nothing was bought.
    const place = async () => (await h.server.api('GET', `/api/events/${eventId}/queue`, { token: token! })).body as { admitted: boolean };
    await expect.poll(async () => (await place()).admitted, { timeout: 15_000 }).toBe(true);
    expect(await ordersOf(token!)).toBe(0);
    await page.getByRole('button', { name: 'Get Ticket' }).waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });
});
