import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, tickets } from '../../server/src/db/schema.js';
import { SIMULATOR_CREDENTIALS } from '../../simulator/src/config.js';
import en from '../src/locales/en/tickets.json' with { type: 'json' };
import sw from '../src/locales/sw/tickets.json' with { type: 'json' };
import { createApprovedPaidEvent, kenyanDay, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Paying from the M-Pesa menu when the prompt fails (docs/decisions/paybill.md), at phone width, in both languages:
 * a guest's prompt is dismissed on the phone (the simulator's cancelling number) → the dialog shows the Paybill
 * number, the order number as the account and the amount → the customer pays from the simulated M-Pesa menu (its
 * C2B API: validation, then confirmation) → the dialog turns to the ticket. Meanwhile the order keeps its seats held
 * until the "pay before" time the dialog shows (docs/decisions/paybill.md, "Seats after a failed prompt"); the event
 * has exactly the two seats the two languages buy, so nothing is oversold.
 */

let h: Harness;
let organiser: Session;
let eventId: string;
const title = 'Nyege Nyege Paybill Night';
const catalogs = { en, sw } as const;

beforeAll(async () => {
  h = await startHarness({ PAYBILL_SHORTCODE: SIMULATOR_CREDENTIALS.shortcode }, { payments: { SIMULATOR_DELAY_MS: '800' } });
  organiser = await h.server.createUser('paybillfestival');
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Bands from all over East Africa.',
    date: `${kenyanDay(15)}T19:00`,
    location: 'KICC Grounds, Nairobi',
    ticketPrice: 1200,
    capacity: 2,
  });
});

afterAll(async () => {
  await h?.close();
});

describe('Paybill fallback in the browser', () => {
  it.each(['en', 'sw'] as const)('%s: a dismissed prompt shows the Paybill details, and paying from the menu brings the ticket', async (language) => {
    const text = catalogs[language];
    const { context, page, errors } = await h.newPage({ width: 390, height: 844 });
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    if (language === 'sw') {
      await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
      await page.waitForFunction(() => document.documentElement.lang === 'sw');
    }

    await page.getByRole('button', { name: text['tickets.buyAsGuest'], disabled: false }).click();
    await page.getByRole('dialog', { name: text['tickets.confirmPurchase'] }).getByRole('button', { name: text['tickets.continueToPayment'] }).click();
    const pay = page.getByRole('dialog', { name: text['tickets.payWithMpesa'] });
    await pay.getByLabel(text['tickets.mpesaPhone']).fill('0700 000 001');
    await pay.getByRole('button', { name: /1,200/ }).click();

    // The simulated customer presses Cancel (1032): the dialog offers the M-Pesa menu instead.
    await pay.getByRole('heading', { name: text['tickets.paybillTitle'] }).waitFor({ timeout: 20_000 });
    expect(await pay.getByTestId('paybill-shortcode').textContent()).toBe(SIMULATOR_CREDENTIALS.shortcode);
    const account = (await pay.getByTestId('paybill-account').textContent())!;
    expect(account).toMatch(/^[2-9A-HJKMNP-Z]{7}$/);
    expect(await pay.getByTestId('paybill-amount').textContent()).toContain('1,200');
    // "Pay before <time> (<left> left)": the end of the order's hold, which the dismissed prompt did not release.
    const payBefore = text['tickets.paybillHeldUntil'].split('{time}')[0]!;
    const heldUntil = pay.getByText(payBefore, { exact: false });
    await heldUntil.waitFor();
    expect(await heldUntil.textContent()).toMatch(/\d{1,2}[:.]\d{2}/);
    const [order] = await h.server.db.select().from(orders).where(eq(orders.orderCode, account));
    expect(order).toMatchObject({ status: 'pending' });
    expect(order!.holdExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, `paybill-details-${language}-390.png`), animations: 'disabled' });

    // Paid from the simulated M-Pesa menu (Pay Bill): validation accepts the order number, the confirmation settles it.
    const paid = await fetch(`${h.simulator!.url}/simulator/menu/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '254700000001', account: account.toLowerCase(), amount: 1200 }),
    });
    expect(await paid.json()).toMatchObject({ status: 'completed', resultCode: '0', confirmationSent: true });

    await pay.getByText(text['tickets.statusSuccess'], { exact: true }).waitFor({ timeout: 20_000 });
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, `paybill-paid-${language}-390.png`), animations: 'disabled' });
    const issued = await h.server.db.select().from(tickets).where(eq(tickets.eventId, eventId));
    expect(issued.length).toBe(language === 'en' ? 1 : 2);
    expect(issued.length).toBeLessThanOrEqual(2);
    expect(seriousErrors(errors)).toEqual([]);
    await context.close();
  });
});
