import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, createApprovedPaidEvent, downloadedText, kenyanDay, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Paid tickets in a real browser against the real API server and the payment service (Daraja
 * simulator): a cancelled M-Pesa payment issues nothing → the retry is paid on the simulated phone (the
 * dialog links the buyer to their own prompt) and followed to the end
 * without pressing Confirm → 2 tickets with QR codes on /profile → transactions.csv →
 * the organiser checks a ticket in at /checkin (once; the second scan is refused, an offline scan
 * waits and syncs when the connection returns).
 */

let h: Harness;
let organiser: Session;
let buyer: Session;
let eventId: string;
const title = 'Nyama Choma Jazz Night';

/** Only our server (which forwards the payment service under /pay) is reachable; anything else gets an empty answer. */
async function keepOffline(context: BrowserContext) {
  const allowed = [h.server.url];
  await context.route(
    (url) => !allowed.some((origin) => url.href.startsWith(origin)),
    (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: '' }),
  );
}

beforeAll(async () => {
  h = await startHarness({}, { payments: { SIMULATOR_DELAY_MS: '1000' } });
  organiser = await h.server.createUser('wanjiku');
  buyer = await h.server.createUser('otieno');
  await setAvatar(h, organiser);
  await setAvatar(h, buyer);

  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Live jazz, nyama choma and good company by the lake.',
    date: `${kenyanDay(14)}T19:00`,
    location: 'Kisumu Yacht Club, Kisumu',
    ticketPrice: 500,
    capacity: 40,
  });
});

afterAll(async () => {
  await h?.close();
});

async function myTickets(session: Session) {
  const res = await h.server.api('GET', '/api/tickets/mine', { token: session.token });
  expect(res.status).toBe(200);
  return res.body as Array<{ _id: string; code: string; checkedInAt: string | null; event: { _id: string } }>;
}

describe('paid tickets in the browser', () => {
  it('cancelled payment issues nothing → paid retry followed to the end → QR tickets on /profile → transactions.csv', async () => {
    const { context, page, errors } = await h.newPage({ width: 1280, height: 900 });
    await keepOffline(context);
    await signIn(h, page, 'otieno');

    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByLabel('Number of tickets').fill('2');
    await page.getByRole('button', { name: 'Get Ticket' }).click();

    // The price is confirmed first, in an accessible modal dialog.
    const dialog = page.getByRole('dialog', { name: 'Confirm your purchase' });
    await dialog.waitFor();
    await dialog.getByText('Ksh.1,000', { exact: true }).first().waitFor();
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();

    const pay = page.getByRole('dialog', { name: 'Pay with M-Pesa' });
    const phone = pay.getByLabel('M-Pesa phone number');
    await expect.poll(() => phone.evaluate((input) => input === document.activeElement)).toBe(true);
    const status = pay.getByRole('status').first();
    await expect.poll(() => status.textContent()).toContain('Not yet paid');
    expect(await accessibilityProblems(page)).toEqual([]);

    // The simulated customer cancels on the phone (ResultCode 1032).
    await phone.fill('0700 000 001');
    await pay.getByRole('button', { name: 'Pay Ksh.1,000' }).click();
    await pay.getByText('Payment initiated. Please complete the payment on your phone.').waitFor();
    await pay.getByText('Payment failed or cancelled').waitFor({ timeout: 20_000 });
    await pay.getByText(/cancelled on the phone/i).waitFor();
    expect(await myTickets(buyer)).toHaveLength(0);

    // Retry with the number that waits for a person: the buyer pays on the simulated phone through
    // the dialog's link to this prompt; the dialog follows the payment without pressing Confirm.
    await pay.getByRole('button', { name: 'Try again' }).click();
    await phone.fill('0700 000 005');
    await pay.getByRole('button', { name: 'Pay Ksh.1,000' }).click();
    await pay.getByText('Payment initiated. Please complete the payment on your phone.').waitFor();
    const [simulatedPhone] = await Promise.all([context.waitForEvent('page'), pay.getByRole('link', { name: 'Open the simulated M-Pesa phone' }).click()]);
    await simulatedPhone.getByText('Do you want to pay KSh 1000', { exact: false }).waitFor();
    expect(new URL(simulatedPhone.url()).pathname).toMatch(/^\/simulator\/prompt\/[\w-]{32}$/);
    await simulatedPhone.getByLabel('Enter M-PESA PIN').fill('1234');
    await simulatedPhone.getByRole('button', { name: 'Pay' }).click();
    await simulatedPhone.getByText('This prompt was answered').waitFor();
    await simulatedPhone.close();
    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await pay.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    await page.getByText('Payment successful. Registered successfully.').waitFor();
    await expect.poll(() => pay.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Already Registered' }).waitFor();
    expect(await page.getByRole('button', { name: 'Already Registered' }).isDisabled()).toBe(true);

    const tickets = await myTickets(buyer);
    expect(tickets).toHaveLength(2);
    expect(tickets.every((ticket) => ticket.event._id === eventId && /^TK1\.[\w-]+\.[\w-]+$/.test(ticket.code))).toBe(true);

    // Profile: the two tickets, each with its QR code.
    await page.goto('/profile');
    const section = page.getByRole('region', { name: /My Tickets/ });
    await section.getByRole('listitem').first().waitFor();
    expect(await section.getByRole('listitem').count()).toBe(2);
    const qrs = section.getByRole('img', { name: new RegExp(`^QR code for ${title}, ticket [12] of 2$`) });
    expect(await qrs.count()).toBe(2);
    await expect.poll(() => section.locator('.ticket-qr svg path').count()).toBeGreaterThanOrEqual(2);
    await section.getByPlaceholder('Search tickets...').fill('JAZZ');
    expect(await section.getByRole('listitem').count()).toBe(2);
    await section.getByPlaceholder('Search tickets...').fill('benga');
    await section.getByText('No tickets match').waitFor();
    await section.getByPlaceholder('Search tickets...').fill('');
    expect(await accessibilityProblems(page)).toEqual([]);

    // Transactions: both attempts as the server recorded them, exported as CSV.
    await page.getByRole('button', { name: 'Transaction History' }).click();
    const overlay = page.getByRole('dialog', { name: 'Transaction History' });
    await overlay.getByRole('row').nth(2).waitFor();
    expect(await overlay.getByRole('row').count()).toBe(3);
    await overlay.getByText('Paid', { exact: true }).waitFor();
    await overlay.getByText('Cancelled', { exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), overlay.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('transactions.csv');
    const csv = (await downloadedText(download)).replace(/^\ufeff/, '');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe('"Event Name","Transaction ID","Phone Number","Amount","Date","Status","Time","Refund Status","Refund Amount","Refund Receipt","M-Pesa Receipt"');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^"${title}","ws_CO_[^"]+","254700000005","1000","\\d{4}-\\d{2}-\\d{2}","success","\\d{2}:\\d{2}:\\d{2}","","","","[A-Z0-9]{10}"$`));
    expect(lines[2]).toContain('"cancelled"');
    await overlay.getByRole('button', { name: 'Close' }).click();

    // Somebody else's door is not theirs to run.
    await page.goto(`/checkin/${eventId}`);
    await page.getByText('Only the organiser can check in tickets.').waitFor();

    expect(seriousErrors(errors)).toEqual([]);
  });

  it('the organiser checks a ticket in once; a second scan is refused; an offline scan syncs when back online', async () => {
    const [first, second] = await myTickets(buyer);
    expect(first && second).toBeTruthy();

    const { context, page, errors } = await h.newPage({ width: 360, height: 740 });
    await keepOffline(context);
    await signIn(h, page, 'wanjiku');

    // The event page and My Events lead the organiser to the door.
    await page.goto(`/events/${eventId}`);
    await page.getByRole('link', { name: 'Check in tickets' }).click();
    await page.waitForURL(`**/checkin/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const attendees = page.getByRole('region', { name: /Attendees/ });
    await attendees.getByRole('heading', { name: 'Attendees (2)' }).waitFor();
    await attendees.getByText('0 of 2 checked in').waitFor();

    const code = page.getByLabel('Ticket code');
    const result = page.locator('.checkin__result-area');
    await code.fill(first!.code);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await result.getByText('Checked in', { exact: true }).waitFor();
    await result.getByText(/genuine ticket for this event/).waitFor();
    await attendees.getByText('1 of 2 checked in').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    await code.fill(first!.code);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await result.getByText('Already used', { exact: true }).waitFor();
    await result.getByText(/This ticket was already used at .+\./).waitFor();
    expect((await myTickets(buyer)).find((ticket) => ticket._id === first!._id)?.checkedInAt).toBeTruthy();

    // A forged code is refused by the offline signature check.
    const forged = `${first!.code.slice(0, -4)}${first!.code.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    await code.fill(forged);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await result.getByText('This ticket code is not valid.').waitFor();

    // Offline: the scan waits in localStorage and is sent when the connection returns.
    await context.setOffline(true);
    await page.getByText('Offline', { exact: true }).waitFor();
    await code.fill(second!.code);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await result.getByText('Saved offline', { exact: true }).waitFor();
    await page.getByText('1 scan waiting to sync').waitFor();
    await context.setOffline(false);
    await result.getByText('Synced: Checked in', { exact: true }).waitFor();
    await attendees.getByText('2 of 2 checked in').waitFor();
    expect(await page.getByText(/waiting to sync/).count()).toBe(0);
    expect((await myTickets(buyer)).every((ticket) => ticket.checkedInAt)).toBe(true);

    // The attendee list downloads as CSV (with the token, as a file).
    const [download] = await Promise.all([page.waitForEvent('download'), attendees.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`attendees-${eventId}.csv`);
    expect((await downloadedText(download)).split(/\r?\n/)[0]).toContain('"Username"');

    await page.goto('/profile');
    await page.getByRole('link', { name: `Check in tickets for ${title}` }).waitFor();

    expect(seriousErrors(errors).filter((error) => !/ERR_INTERNET_DISCONNECTED/.test(error))).toEqual([]);
  });
});
