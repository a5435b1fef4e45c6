import { mkdirSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, tickets } from '../../server/src/db/schema.js';
import { waitFor } from '../../server/test/helpers/ops.js';
import { accessibilityProblems, createApprovedPaidEvent, downloadedText, kenyanDay, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * The organiser's dashboard in a real browser against the real API server and the payment service (Daraja
 * simulator): two buyers pay through M-Pesa (three tickets; the first two moved to two days ago, as if sold then)
 * and one is checked in at the door → the organiser
 * opens My Events › Dashboard → the totals (tickets of seats, revenue, check-ins), the sales and check-in charts
 * drawn on their canvases (pixels of the bars' colours), their text summaries and tables, the ticket type →
 * Export CSV downloads the daily sales. Another user gets the server's refusal. The home page's first load
 * stays within the page-weight budget and never downloads the charting library.
 * With SCREENSHOT_DIR set, the dashboard is saved at phone (390×844) and desktop (1280×900) width.
 */

let h: Harness;
let organiser: Session;
let eventId: string;
const title = 'Kisumu Lakeside Food Festival';
const PRICE = 1500;
const SIMULATOR_KEY = 'e2e-simulator-key-0123456789';
/** The home route's first load, JS + CSS, gzip (docs/decisions/page-weight.md). */
const HOME_BUDGET_KB = 110;

const screenshotDir = process.env.SCREENSHOT_DIR;
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

async function screenshots(page: Page, name: string, options: { charts?: boolean } = {}) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    // The charts follow the new width (ResizeObserver) before the picture is taken.
    if (options.charts) {
      await expect
      .poll(() =>
        page.locator('[data-chart="sales"] .time-chart__canvas').evaluate((host) => Math.abs((host.querySelector('.uplot')?.getBoundingClientRect().width ?? 0) - host.clientWidth) < 2),
      )
      .toBe(true);
    }
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${size.name}.png`), fullPage: true, animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
}

/** A paid ticket bought the way the browser buys it (through /pay), paid on the simulated phone by itself. */
async function buyTickets(session: Session, phone: string, quantity: number) {
  const push = await h.server.api('POST', '/pay/stkPush', {
    token: session.token,
    body: { phone, amount: PRICE * quantity, Order_ID: `${eventId}_${phone}`, quantity },
  });
  expect(push.status, JSON.stringify(push.body)).toBe(200);
  const checkoutRequestId = push.body.CheckoutRequestID as string;
  await waitFor(async () => {
    const res = await h.server.api('POST', '/pay/confirmPayment', { token: session.token, body: { CheckoutRequestID: checkoutRequestId } });
    return res.body?.success === true;
  }, `the payment of ${phone} to be confirmed`, 20_000);
}

/** Pixels of the chart's canvas close to `rgb` (the bars' colour): zero until uPlot has drawn its series. */
function pixelsOf(page: Page, chart: string, rgb: [number, number, number]) {
  return page.locator(`[data-chart="${chart}"] canvas`).evaluate((canvas: HTMLCanvasElement, [r, g, b]) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let hits = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! > 200 && Math.abs(data[i]! - r) < 24 && Math.abs(data[i + 1]! - g) < 24 && Math.abs(data[i + 2]! - b) < 24) hits += 1;
    }
    return hits;
  }, rgb);
}

beforeAll(async () => {
  h = await startHarness({}, { payments: { SIMULATOR_DELAY_MS: '300', SIMULATOR_KEY } });
  organiser = await h.server.createUser('otieno');
  const amina = await h.server.createUser('amina');
  const baraka = await h.server.createUser('barasa');
  for (const session of [organiser, amina, baraka]) await setAvatar(h, session);
  eventId = await createApprovedPaidEvent(h, organiser, {
    title,
    description: 'Fish, ugali and live benga by the lake.',
    date: `${kenyanDay(12)}T12:00`,
    location: 'Dunga Beach, Kisumu',
    ticketPrice: PRICE,
    capacity: 40,
  });
  await buyTickets(amina, '254712300001', 2);
  await buyTickets(baraka, '254712300002', 1);
  // Amina's two tickets were sold two days ago: the sales chart spans three days, the quiet one between as a zero.
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
  await h.server.db.update(payments).set({ createdAt: twoDaysAgo }).where(and(eq(payments.eventId, eventId), eq(payments.userId, amina.user._id)));
  await h.server.db.update(tickets).set({ createdAt: twoDaysAgo }).where(and(eq(tickets.eventId, eventId), eq(tickets.userId, amina.user._id)));
  // One holder comes in at the door.
  const [ticket] = ((await h.server.api('GET', '/api/tickets/mine', { token: baraka.token })).body as Array<{ code: string; event: { _id: string } }>).filter(
    (item) => item.event._id === eventId,
  );
  const checkIn = await h.server.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: ticket!.code } });
  expect(checkIn.status, JSON.stringify(checkIn.body)).toBe(200);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('the organiser dashboard in the browser', () => {
  it('opens from My Events with the totals, the charts drawn, their summaries and tables, and exports the daily sales as CSV', async () => {
    const { page, errors } = await h.newPage({ width: 1280, height: 900 });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await signIn(h, page, 'otieno');
    await page.goto('/profile');
    const item = page.getByRole('region', { name: 'My Events' }).getByRole('listitem').filter({ hasText: title });
    await item.getByRole('link', { name: `Dashboard for ${title}` }).click();
    await page.waitForURL((url) => url.pathname === `/events/${eventId}/dashboard`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();

    // The totals, as cards.
    const card = (name: string) => page.getByRole('term').filter({ hasText: name }).locator('xpath=..');
    await expect.poll(() => card('Tickets sold').textContent()).toBe('Tickets sold3of 40 seats · 8%');
    expect(await card('Revenue').textContent()).toBe('RevenueKsh.4,500Ksh.4,500 received · Ksh.0 refunded');
    expect(await card('Checked in').textContent()).toBe('Checked in1of 3 tickets · 33%');

    // Both charts are drawn on their canvas: the sales bars in green, the check-in bars in blue.
    await page.locator('[data-chart="sales"][data-state="drawn"]').waitFor();
    await page.locator('[data-chart="check-ins"][data-state="drawn"]').waitFor();
    await expect.poll(() => pixelsOf(page, 'sales', [0x0a, 0x7d, 0x3e])).toBeGreaterThan(200);
    await expect.poll(() => pixelsOf(page, 'check-ins', [0x1a, 0x56, 0xdb])).toBeGreaterThan(200);
    // The charting library came with this page, in a chunk of its own.
    expect(requested.some((url) => /\/assets\/uPlot[^/]*\.js$/.test(url))).toBe(true);

    // What the charts show, in words and as tables.
    const sales = page.getByRole('region', { name: 'Sales over time' });
    await sales.getByText(/^3 tickets from \d+ \w+ to \d+ \w+, Ksh\.4,500 received\. Best day: \d+ \w+, 2 tickets \(Ksh\.3,000\)\./).waitFor();
    await sales.getByText('Sales by day as a table').click();
    const salesRows = sales.getByRole('row');
    await expect.poll(() => salesRows.count()).toBe(4);
    const cells = await Promise.all([1, 2, 3].map((row) => salesRows.nth(row).getByRole('cell').allTextContents()));
    expect(cells).toEqual([
      ['2', 'Ksh.3,000'],
      ['0', 'Ksh.0'],
      ['1', 'Ksh.1,500'],
    ]);
    await page.getByRole('region', { name: 'Check-ins' }).getByText(/^1 check-in between .+ \(Nairobi time\)\. Busiest hour: .+, 1 check-in\.$/).waitFor();
    const types = page.getByRole('region', { name: 'Ticket types' });
    expect(await types.getByRole('row', { name: /General/ }).getByRole('cell').allTextContents()).toEqual(['Ksh.1,500', '3 / 40', 'Ksh.4,500']);
    expect(await page.getByRole('region', { name: 'Promo codes' }).count()).toBe(0);

    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshots(page, 'event-dashboard', { charts: true });

    // Export CSV: the server's daily sales, as a file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('sales-kisumu-lakeside-food-festival.csv');
    const lines = (await downloadedText(download)).trim().split(/\r?\n/);
    expect(lines).toEqual(['"Day","Tickets","Revenue (KES)"', `"${kenyanDay(-2)}","2","3000"`, `"${kenyanDay(-1)}","0","0"`, `"${kenyanDay(0)}","1","1500"`]);

    // The event page's organiser panels lead here too.
    await page.goto(`/events/${eventId}`);
    const panel = page.getByRole('region', { name: 'Sales and check-ins' });
    await panel.waitFor();
    await screenshots(page, 'event-page-dashboard-link');
    await panel.getByRole('link', { name: 'Open the dashboard' }).click();
    await page.waitForURL((url) => url.pathname === `/events/${eventId}/dashboard`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('shows another user the refusal, and a visitor the login page', async () => {
    const { page } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'amina');
    await page.goto(`/events/${eventId}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Not your event' }).waitFor();
    await page.getByRole('alert').getByText('Only the organiser of this event or an administrator can see its dashboard.').waitFor();
    expect(await page.locator('.time-chart').count()).toBe(0);

    const visitor = await h.newPage({ width: 390, height: 844 });
    await visitor.page.goto(`/events/${eventId}/dashboard`);
    await visitor.page.waitForURL((url) => url.pathname === '/login');
  });

  it("keeps the home page's first load within the page-weight budget, without the charting library", async () => {
    const { page, errors } = await h.newPage({ width: 412, height: 823 });
    const files: Array<{ url: string; gzip: number; uplot: boolean }> = [];
    page.on('response', async (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      const body = await response.body().catch(() => null);
      if (body) files.push({ url: response.url(), gzip: zlib.gzipSync(body).length, uplot: body.includes('u-legend') });
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => file.uplot).map((file) => file.url)).toEqual([]);
    const totalKb = files.reduce((sum, file) => sum + file.gzip, 0) / 1024;
    expect(totalKb, files.map((file) => `${file.url} ${(file.gzip / 1024).toFixed(1)} KB`).join('\n')).toBeLessThanOrEqual(HOME_BUDGET_KB);
    expect(seriousErrors(errors)).toEqual([]);
  });
});
