import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../server/src/db/schema.js';
import { giveTicket } from '../../server/test/helpers/community.js';
import { insertEventRow } from '../../server/test/helpers/events.js';
import { internalHeaders, payFor, receiptNo } from '../../server/test/helpers/refunds.js';
import { loginThroughUi, screenshotsAtWidths, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Rough edges an organiser, a guest buyer and a visitor hit (issue 34), each in both languages:
 * - an organiser cannot cancel an event that has started (the button is disabled and says why);
 * - a guest's ticket page after a cancellation says so, with the reason and the refund's state and receipt,
 *   and nothing that contradicts it (no QR code, no "Show the QR code at the door").
 * - a visitor and a signed-in person without a ticket read why they cannot review instead of the review form;
 * - a user whose session a suspension ended reads that the account is suspended, until when (Nairobi time)
 *   and the moderators' reason, instead of "Your session has expired";
 * - asking for more tickets than remain says the number was lowered, instead of changing it silently;
 * - /admpst without imported events says how to import them;
 * With SCREENSHOT_DIR set, each screen is saved at phone (390×844) and desktop (1280×900) width.
 */

let h: Harness;
let organiser: Session;

const screenshots = (page: Page, name: string) => screenshotsAtWidths(page, name, { fullPage: true });

/** Switches the page to Kiswahili the way the header's switch remembers it, and reloads. */
async function inKiswahili(page: Page) {
  await page.evaluate(() => localStorage.setItem('tukio-language', 'sw'));
  await page.reload();
  await page.waitForFunction(() => document.documentElement.lang === 'sw');
}

const internal = (method: string, pathname: string, body: unknown) => h.server.api(method, `/api/internal${pathname}`, { headers: internalHeaders(h.server), body });

beforeAll(async () => {
  h = await startHarness({ SMS_POLL_MS: '200' });
  organiser = await h.server.createUser('roughorganiser');
  await setAvatar(h, organiser);
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('an organiser and a started event', () => {
  it('shows Cancel disabled with the reason once the event has started, in English and Kiswahili', async () => {
    const title = 'Kilimani Book Swap';
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 5, title, price: 300, capacity: 40 });
    // It started an hour ago on the Nairobi wall clock.
    await h.server.db.update(events).set({ startsAt: new Date(Date.now() + 2 * 3600_000) }).where(eq(events.id, eventId));

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'roughorganiser');
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const cancel = page.getByRole('button', { name: 'Cancel event' });
    await cancel.waitFor();
    expect(await cancel.isDisabled()).toBe(true);
    const why = page.getByText(/This event has started, so you can no longer cancel it\. If it did not take place, ask an administrator/);
    await why.waitFor();
    expect(await cancel.getAttribute('aria-describedby')).toBe(await why.getAttribute('id'));
    await screenshots(page, 'started-event-cancel-en');

    await inKiswahili(page);
    const ghairi = page.getByRole('button', { name: /Ghairi tukio/ });
    await ghairi.waitFor();
    expect(await ghairi.isDisabled()).toBe(true);
    await page.getByText(/Tukio hili limeshaanza, kwa hiyo huwezi kulighairi tena/).waitFor();
    await screenshots(page, 'started-event-cancel-sw');

    // The profile's list says the same.
    await page.goto('/profile');
    await page.getByText('Limeshaanza: sasa ni msimamizi pekee anayeweza kulighairi.').waitFor();
    expect(await page.getByRole('button', { name: /Ghairi/ }).first().isDisabled()).toBe(true);
    await screenshots(page, 'started-event-profile-sw');
    expect(seriousErrors(errors)).toEqual([]);
  });
});

describe("a guest's ticket page after a cancellation", () => {
  it('says the event is cancelled, why, and where the refund stands (with the receipt once paid); no QR code, no door', async () => {
    const title = 'Nairobi Street Food Fair';
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 9, title, price: 900, capacity: 60 });
    const paid = await payFor(h.server, undefined, eventId, { phone: '254722333111', quantity: 2 });
    const status = await internal('GET', `/payments/guest-status/${paid.checkoutRequestId}`, undefined);
    const ticketToken = status.body.ticketToken as string;
    expect(ticketToken).toBeTruthy();

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await page.goto(`/t/${ticketToken}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText('Show the QR code at the door', { exact: false }).waitFor();

    const reason = 'The county closed the grounds for repairs.';
    const cancelled = await h.server.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

    await page.reload();
    await page.getByRole('heading', { name: 'This event is cancelled' }).waitFor();
    await page.getByText(reason).waitFor();
    await page.getByText('Ksh.1,800: on its way back to the M-Pesa number you paid with.').waitFor();
    expect(await page.getByText('Void: the event was cancelled').count()).toBe(2);
    const body = await page.locator('main').innerText();
    expect(body).not.toMatch(/Show the QR code at the door|Checked in|This ticket is void/);
    expect(await page.getByRole('img', { name: /QR code/ }).count()).toBe(0);
    await screenshots(page, 'guest-ticket-cancelled-due-en');

    // M-Pesa pays the refund: the page shows its receipt.
    // The refunds job's claim (no payment service here): the attempt the result is about.
    const claimed = await h.server.services.refunds.claim(50);
    const mine = claimed.find((item) => item.amount === 1800)!;
    const transactionId = receiptNo('R');
    const result = await internal('POST', '/refunds/result', {
      originatorConversationId: mine.originatorConversationId,
      resultCode: 0,
      resultDesc: 'The service request is processed successfully.',
      transactionId,
      amount: 1800,
      source: 'callback',
    });
    expect(result.body).toMatchObject({ status: 'succeeded' });
    await page.reload();
    await page.getByText(`Ksh.1,800: refunded to your M-Pesa, receipt ${transactionId}.`).waitFor();
    await screenshots(page, 'guest-ticket-cancelled-paid-en');

    await inKiswahili(page);
    await page.getByRole('heading', { name: 'Tukio hili limeghairiwa' }).waitFor();
    await page.getByText(`Ksh.1,800: zimerudishwa kwenye M-Pesa yako, risiti ${transactionId}.`).waitFor();
    expect(await page.getByText('Imebatilishwa: tukio lilighairiwa').count()).toBe(2);
    expect(await page.locator('main').innerText()).not.toMatch(/Onyesha msimbo wa QR mlangoni|Ameingia/);
    await screenshots(page, 'guest-ticket-cancelled-paid-sw');
    expect(seriousErrors(errors)).toEqual([]);
  });
});

describe('the review form', () => {
  it('is replaced by the reason for a visitor (with Log in) and for someone without a ticket; an attendee gets the form', async () => {
    const title = 'Karura Forest Night Walk';
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: -2, title });
    const stranger = await h.server.createUser('roughstranger');
    const attendee = await h.server.createUser('roughattendee');
    await setAvatar(h, stranger);
    await setAvatar(h, attendee);
    await giveTicket(h.server, eventId, attendee.user._id);

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: 'Reviews' }).waitFor();
    await page.getByText('Reviews are written by people who held a ticket to this event. If you did, log in to write yours.').waitFor();
    expect(await page.getByRole('heading', { name: 'Write a review' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Submit Review' }).count()).toBe(0);
    await screenshots(page, 'reviews-visitor-en');
    await inKiswahili(page);
    await page.getByText('Tathmini huandikwa na watu waliokuwa na tiketi ya tukio hili. Kama ulikuwa nayo, ingia ili uandike yako.').waitFor();

    const other = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, other.page, 'roughstranger');
    await other.page.goto(`/events/${eventId}`);
    await other.page.getByText('Only people who held a ticket to this event can review it.').waitFor();
    expect(await other.page.getByRole('heading', { name: 'Write a review' }).count()).toBe(0);
    await screenshots(other.page, 'reviews-no-ticket-en');
    await inKiswahili(other.page);
    await other.page.getByText('Ni watu waliokuwa na tiketi ya tukio hili pekee wanaoweza kulitathmini.').waitFor();

    const going = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, going.page, 'roughattendee');
    await going.page.goto(`/events/${eventId}`);
    await going.page.getByRole('heading', { name: 'Write a review' }).waitFor();
    expect(seriousErrors([...errors, ...other.errors, ...going.errors])).toEqual([]);
  });
});

describe('a suspended user', () => {
  it("is told the account is suspended, until when (Nairobi time) and why, not that the session expired", async () => {
    const admin = await h.server.loginAdmin();
    for (const [username, language] of [['roughsuspended', 'en'], ['roughsimamishwa', 'sw']] as const) {
      const member = await h.server.createUser(username);
      await setAvatar(h, member);
      const { page, errors } = await h.newPage({ width: 390, height: 844 });
      await loginThroughUi(page, username);
      if (language === 'sw') await inKiswahili(page);
      const res = await h.server.api('POST', `/api/moderation/items/user/${member.user._id}/actions`, {
        token: admin.token,
        body: { action: 'suspend', days: 3, reason: 'Repeated spam in the forums.' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const until = new Date(new Date(res.body.action.suspendedUntil as string).getTime() + 3 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');

      await page.goto('/profile');
      const expected =
        language === 'en'
          ? `Your account is suspended until ${until} (Nairobi time), so you were signed out. You may log in again to read, but not to post, chat, buy tickets or publish events until then. The moderators' reason: Repeated spam in the forums.`
          : `Akaunti yako imesimamishwa hadi ${until} (saa za Nairobi), kwa hiyo umetolewa. Unaweza kuingia tena ili kusoma, lakini si kuandika, kupiga gumzo, kununua tiketi wala kuchapisha matukio hadi wakati huo. Sababu ya wasimamizi: Repeated spam in the forums.`;
      await page.getByRole('alert').filter({ hasText: expected }).waitFor();
      expect(await page.getByText(/Your session has expired|Muda wa kuingia kwako umeisha|User not found/).count()).toBe(0);
      // The login page goes on saying it after the toast is gone.
      await page.goto('/login');
      await page.getByRole('status').filter({ hasText: expected }).waitFor();
      await screenshots(page, `suspended-session-${language}`);
      expect(seriousErrors(errors)).toEqual([]);
    }
  });
});

describe('the ticket quantity', () => {
  it('says so when more tickets are asked for than remain, in English and Kiswahili', async () => {
    const title = 'Lake Naivasha Boat Race';
    const eventId = await insertEventRow(h.server.db, { ownerId: organiser.user._id, days: 6, title, price: 500, capacity: 2 });
    const buyer = await h.server.createUser('roughbuyer');
    await setAvatar(h, buyer);
    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'roughbuyer');
    await page.goto(`/events/${eventId}`);
    const quantity = page.getByLabel('Number of tickets');
    await quantity.fill('3');
    await page.getByText('You asked for 3, but only 2 can be bought now: the number was lowered to 2.').waitFor();
    expect(await quantity.inputValue()).toBe('2');
    await screenshots(page, 'quantity-lowered-en');
    await quantity.fill('1');
    expect(await page.getByText(/You asked for/).count()).toBe(0);

    await inKiswahili(page);
    const idadi = page.getByRole('spinbutton').first();
    await idadi.fill('5');
    await page.getByText('Uliomba 5, lakini ni 2 tu zinazoweza kununuliwa sasa: idadi imepunguzwa hadi 2.').waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });
});

describe('/admpst before any import', () => {
  it('says how to import events, in English and Kiswahili', async () => {
    await setAvatar(h, await h.server.loginAdmin(), '#c8102e');
    const { page, errors } = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, page, 'admin', 'admin-password');
    await page.goto('/admpst');
    await page.getByText('npm run import:events -- path/to/calendar.ics', { exact: false }).first().waitFor();
    await screenshots(page, 'admpst-empty-en');
    await inKiswahili(page);
    await page.getByText('Matukio hufika hapa kalenda inapoingizwa kwenye seva', { exact: false }).waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });
});
