import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../../simulator/src/config.js';
import { accessibilityProblems, createApprovedPaidEvent, kenyanDay, loginThroughUi, setAvatar, type Session } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * The ticket widget (docs/decisions/widget.md) on someone else's website: the demo page deploy/widget-demo
 * is served by a tiny HTTP server of its own at http://localhost:<port>, another origin (and site) than
 * Tukio's http://127.0.0.1:<port>, with its snippet pointing at this run's Tukio and event. A visitor buys a
 * ticket inside the frame, pays on the simulated phone and sees the confirmation in the frame; the host page
 * never gets more than heights. Then the same in Kiswahili (data-lang="sw"). Build first: `npm run build -w client`.
 */

const demoFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../deploy/widget-demo/index.html');
const title = 'Kilifi Sound Weekend';

let h: Harness;
let organiser: Session;
let eventId: string;
let demo: http.Server;
let demoOrigin: string;

beforeAll(async () => {
  h = await startHarness({ PAYBILL_SHORTCODE: SIMULATOR_CREDENTIALS.shortcode }, { payments: { SIMULATOR_DELAY_MS: '1000' } });
  organiser = await h.server.createUser('kilifisound');
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Two days of music by the ocean.',
    date: `${kenyanDay(30)}T16:00`,
    location: 'Distant Relatives, Kilifi',
    ticketPrice: 2500,
    capacity: 200,
  });
  // The organiser's website: the demo page, its snippet naming this run's Tukio and event (and ?lang= a language).
  const page = readFileSync(demoFile, 'utf8');
  demo = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/') {
      res.writeHead(404).end();
      return;
    }
    const lang = url.searchParams.get('lang');
    const html = page
      .replace('http://localhost:5000/widget.js', `${h.server.url}/widget.js`)
      .replace('data-event="TUKIO_EVENT_ID"', `data-event="${eventId}"${lang ? ` data-lang="${lang}"` : ''}`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => demo.listen(0, resolve));
  demoOrigin = `http://localhost:${(demo.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => demo?.close(resolve));
  await h?.close();
});

/** Opens the demo site with every message its window receives recorded (to check that only heights arrive). */
async function openDemo(width: number, query = ''): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await h.newPage({ width, height: 844 });
  await opened.page.addInitScript(() => {
    const received: unknown[] = [];
    (window as unknown as { received: unknown[] }).received = received;
    window.addEventListener('message', (event) => received.push({ origin: event.origin, data: event.data as unknown }));
  });
  await opened.page.goto(`${demoOrigin}/${query}`);
  return opened;
}

/** With SCREENSHOT_DIR set, the host page with the widget as a visitor sees it. */
async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** The widget's frame, once its page has loaded. */
async function widgetFrame(page: Page): Promise<Frame> {
  await page.locator('iframe.tukio-widget').waitFor();
  const handle = await page.locator('iframe.tukio-widget').elementHandle();
  const frame = await handle!.contentFrame();
  await frame!.waitForLoadState();
  return frame!;
}

// The simulator's waiting number (0700 000 005): its prompt stays open until the phone page answers it. Any other
// paying number pays on its own after the simulator's delay, which could come before a busy machine opens the page.
async function payOnSimulatedPhone(context: BrowserContext, open: () => Promise<void>, amount: string): Promise<void> {
  const [phone] = await Promise.all([context.waitForEvent('page'), open()]);
  await phone.getByText(`Do you want to pay KSh ${amount}`, { exact: false }).waitFor();
  await phone.getByLabel('Enter M-PESA PIN').fill('1234');
  await phone.getByRole('button', { name: 'Pay' }).click();
  await phone.getByText('This prompt was answered').waitFor();
  await phone.close();
}

/** The host page learnt nothing but heights, from Tukio's origin only, and cannot reach into the frame. */
async function expectOnlyHeights(page: Page): Promise<void> {
  const received = await page.evaluate(() => (window as unknown as { received: Array<{ origin: string; data: unknown }> }).received);
  expect(received.length).toBeGreaterThan(0);
  for (const message of received) {
    expect(message.origin).toBe(h.server.url);
    expect(message.data).toEqual({ channel: 'tukio-widget', type: 'height', height: expect.any(Number) });
  }
  expect(await page.evaluate(() => document.querySelector('iframe')!.contentDocument)).toBeNull();
}

describe('the ticket widget on another website', () => {
  it('a visitor on a phone buys a ticket inside the widget and sees the confirmation there', async () => {
    const { context, page, errors } = await openDemo(390);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const iframe = page.locator('iframe.tukio-widget');
    expect(await iframe.getAttribute('title')).toBe('Tukio tickets');
    expect(new URL((await iframe.getAttribute('src'))!).origin).toBe(h.server.url);
    const frame = await widgetFrame(page);

    // The event and its ticket box, as a guest: no log-in offer in someone else's page.
    await frame.getByRole('heading', { name: title, level: 1 }).waitFor();
    const box = frame.getByRole('region', { name: 'Tickets' });
    await box.getByRole('button', { name: 'Buy as guest with M-Pesa', disabled: false }).waitFor();
    expect(await box.getByRole('button', { name: 'Log in to buy' }).count()).toBe(0);
    expect(await frame.getByRole('link', { name: /See this event on Tukio/ }).getAttribute('target')).toBe('_blank');
    // The frame is as tall as its page (widget.js follows the height messages): nothing scrolls inside it.
    const frameHeight = () => iframe.evaluate((element) => element.getBoundingClientRect().height);
    const pageHeight = () => frame.evaluate(() => document.body.getBoundingClientRect().height);
    await expect.poll(async () => Math.abs((await frameHeight()) - (await pageHeight()))).toBeLessThanOrEqual(1);
    const boxOnly = await frameHeight();
    await screenshot(page, 'widget-box-390');
    // The host page (the frame has its title) and the framed page pass axe.
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await accessibilityProblems(frame)).toEqual([]);

    // Keyboard only: focus the buy button and press Enter.
    await box.getByRole('button', { name: 'Buy as guest' }).focus();
    await page.keyboard.press('Enter');
    const confirm = frame.getByRole('dialog', { name: 'Confirm your purchase' });
    await confirm.waitFor();
    await confirm.getByText('Ksh.2,500', { exact: true }).first().waitFor();
    await confirm.getByRole('button', { name: 'Continue to payment' }).click();

    const pay = frame.getByRole('dialog', { name: 'Pay with M-Pesa' });
    await pay.getByLabel('M-Pesa phone number').fill('0700 000 005');
    await pay.getByRole('button', { name: 'Pay Ksh.2,500' }).click();
    await pay.getByText('Payment initiated. Please complete the payment on your phone.').waitFor();
    await payOnSimulatedPhone(context, () => pay.getByRole('link', { name: 'Open the simulated M-Pesa phone' }).click(), '2500');

    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 20_000 });
    await pay.getByText('Your ticket was sent by SMS to 254700000005.').waitFor();
    // The ticket's link opens a new tab: the host page stays, and the link never crosses to it.
    const ticketLink = pay.getByRole('link', { name: 'Open your ticket' });
    expect(await ticketLink.getAttribute('target')).toBe('_blank');
    expect(await ticketLink.getAttribute('href')).toMatch(/^\/t\/[0-9a-f]{24}\.[\w-]+$/);
    // The dialog fits: the frame grew to hold it.
    await expect.poll(async () => (await frameHeight()) >= (await pay.evaluate((element) => element.scrollHeight))).toBe(true);
    const withDialog = await frameHeight();
    await screenshot(page, 'widget-paid-390');
    expect(withDialog).toBeGreaterThan(boxOnly);
    expect(page.url()).toBe(`${demoOrigin}/`);
    // Closed, the frame shrinks back to the ticket box.
    await pay.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(frameHeight).toBeLessThan(withDialog);
    await expect.poll(async () => Math.abs((await frameHeight()) - (await pageHeight()))).toBeLessThanOrEqual(1);

    await expectOnlyHeights(page);
    expect(seriousErrors(errors)).toEqual([]);
    await context.close();
  });

  it('speaks Kiswahili with data-lang="sw", whatever the browser says', async () => {
    const { context, page, errors } = await openDemo(1280, '?lang=sw');
    const iframe = page.locator('iframe.tukio-widget');
    await iframe.waitFor();
    expect(await iframe.getAttribute('title')).toBe('Tiketi za Tukio');
    const frame = await widgetFrame(page);
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe('sw');
    const box = frame.getByRole('region', { name: 'Tiketi' });
    await box.getByRole('button', { name: 'Nunua bila akaunti kwa M-Pesa', disabled: false }).click();
    const confirm = frame.getByRole('dialog', { name: 'Thibitisha ununuzi wako' });
    await confirm.getByRole('button', { name: 'Endelea kulipa' }).click();
    const pay = frame.getByRole('dialog', { name: 'Lipa kwa M-Pesa' });
    await pay.getByLabel('Namba ya simu ya M-Pesa').fill('0700 000 005');
    await pay.getByRole('button', { name: /^Lipa / }).click();
    await pay.getByText('Malipo yameanzishwa. Tafadhali kamilisha malipo kwenye simu yako.').waitFor();
    await payOnSimulatedPhone(context, () => pay.getByRole('link', { name: 'Fungua simu ya M-Pesa ya majaribio' }).click(), '2500');
    await pay.getByText('Malipo yamefanikiwa', { exact: true }).waitFor({ timeout: 20_000 });
    await pay.getByText('Tiketi yako imetumwa kwa SMS kwenda 254700000005.').waitFor();
    expect(await pay.getByRole('link', { name: 'Fungua tiketi yako' }).getAttribute('target')).toBe('_blank');
    await screenshot(page, 'widget-paid-sw-1280');

    await expectOnlyHeights(page);
    expect(seriousErrors(errors)).toEqual([]);
    await context.close();
  });

  it('a dismissed prompt turns to the Paybill with the order code inside the widget, and paying from the menu brings the ticket', async () => {
    const { context, page, errors } = await openDemo(390);
    const frame = await widgetFrame(page);
    await frame.getByRole('button', { name: 'Buy as guest with M-Pesa', disabled: false }).click();
    await frame.getByRole('dialog', { name: 'Confirm your purchase' }).getByRole('button', { name: 'Continue to payment' }).click();
    const pay = frame.getByRole('dialog', { name: 'Pay with M-Pesa' });
    // The simulator's cancelling number: the customer dismisses the prompt (1032).
    await pay.getByLabel('M-Pesa phone number').fill('0700 000 001');
    await pay.getByRole('button', { name: 'Pay Ksh.2,500' }).click();
    await pay.getByRole('heading', { name: 'Pay from the M-Pesa menu' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'widget-paybill-390');
    expect(await pay.getByTestId('paybill-shortcode').textContent()).toBe(SIMULATOR_CREDENTIALS.shortcode);
    const account = (await pay.getByTestId('paybill-account').textContent())!;
    expect(account).toMatch(/^[2-9A-HJKMNP-Z]{7}$/);

    const paid = await fetch(`${h.simulator!.url}/simulator/menu/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '254700000001', account, amount: 2500 }),
    });
    expect(await paid.json()).toMatchObject({ status: 'completed', resultCode: '0', confirmationSent: true });
    await pay.getByText('Payment successful', { exact: true }).waitFor({ timeout: 20_000 });
    // The order code stayed in the frame: the host page got heights only.
    await expectOnlyHeights(page);
    expect(seriousErrors(errors)).toEqual([]);
    await context.close();
  });

  it('the organiser copies the snippet from "Sell on your website" on the event page, in either language', async () => {
    await setAvatar(h, organiser);
    const { context, page, errors } = await h.newPage({ width: 390, height: 844 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.server.url });
    await loginThroughUi(page, organiser.user.username);
    await page.goto(`/events/${eventId}`);
    const box = page.getByRole('region', { name: 'Sell on your website' });
    const snippet = box.getByTestId('widget-snippet');
    expect(await snippet.textContent()).toBe(`<script src="${h.server.url}/widget.js" data-event="${eventId}"></script>`);
    await box.getByLabel('Language of the widget').selectOption('sw');
    expect(await snippet.textContent()).toBe(`<script src="${h.server.url}/widget.js" data-event="${eventId}" data-lang="sw"></script>`);
    await box.getByRole('button', { name: 'Copy the code' }).click();
    await box.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`<script src="${h.server.url}/widget.js" data-event="${eventId}" data-lang="sw"></script>`);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(seriousErrors(errors)).toEqual([]);
    await context.close();
  });
});
