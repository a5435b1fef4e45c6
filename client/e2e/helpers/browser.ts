import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Download, Frame, Locator, Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import type { Harness } from './harness.js';

/*
 * What the browser tests do again and again: users with an avatar, logging in through the form,
 * and axe-core's serious and critical findings.
 */

export type Session = Awaited<ReturnType<Harness['server']['createUser']>>;

/** The password `h.server.createUser` gives every user. */
export const PASSWORD = 'secret123';

/** A small SVG avatar (base64) in the given colour. */
export const avatar = (fill = '#0a7d3e') =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${fill}"/><circle cx="32" cy="26" r="12" fill="#fff"/><rect x="14" y="42" width="36" height="22" rx="11" fill="#fff"/></svg>`,
  ).toString('base64');

/** Sets the user's avatar through the API: with one, logging in lands on / instead of /setAvatar. */
export async function setAvatar(h: Harness, session: Session, fill?: string) {
  const res = await h.server.api('POST', `/api/auth/setavatar/${session.user._id}`, {
    token: session.token,
    body: { image: avatar(fill) },
  });
  expect(res.body).toMatchObject({ isSet: true });
}

/** Fills in and sends the login form the page is on. */
export async function submitLogin(page: Page, username: string, password = PASSWORD) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** Logs in on /login and waits for the home page (the user has an avatar). */
export async function loginThroughUi(page: Page, username: string, password = PASSWORD) {
  await page.goto('/login');
  await submitLogin(page, username, password);
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * Starts the page signed in as `username` without going through the login form: the session the form would
 * store (token, user record, avatar flag in localStorage; docs/product.md) from the API's own login, written on a
 * same-origin page that loads no app (/robots.txt). For tests whose subject is not logging in: the form itself
 * is tested in accounts, first-load-and-session and accessibility. Loading /login, logging in and rendering the
 * home page cost about a second of a test's time each (docs/decisions/test-speed.md). The page is left on
 * /robots.txt: the caller goes where the test starts.
 */
export async function signIn(h: Harness, page: Page, username: string, password = PASSWORD) {
  const { token, user } = (await h.server.login(username, password)) as { token: string; user: Record<string, unknown> };
  const stored: Record<string, unknown> = { _id: user._id, username: user.username, isAvatarImageSet: Boolean(user.isAvatarImageSet) };
  if (typeof user.avatarImage === 'string' && user.avatarImage !== '') stored.avatarImage = user.avatarImage;
  await page.goto('/robots.txt');
  await page.evaluate(
    (session) => {
      localStorage.setItem('token', session.token);
      localStorage.setItem('tukio-user', session.record);
      localStorage.setItem('isAvatarImageSet', session.flag);
    },
    { token, record: JSON.stringify(stored), flag: String(stored.isAvatarImageSet) },
  );
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe-core violations on the page (the script is evaluated, not injected, because of the CSP). */
export async function accessibilityProblems(page: Page | Frame): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Result = { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Days from now as YYYY-MM-DD on the Kenyan calendar (UTC+3). */
export function kenyanDay(offsetDays: number): string {
  return new Date(Date.now() + 3 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** A paid event posted by `organiser` through the API and approved by the admin; returns its id. */
export async function createApprovedPaidEvent(
  h: Harness,
  organiser: Session,
  event: { title: string; description: string; date: string; location: string; ticketPrice: number; capacity: number },
): Promise<string> {
  const created = await h.server.api('POST', '/api/events/addevnt', {
    token: organiser.token,
    body: { ...event, latitude: null, longitude: null, user: organiser.user._id, image: null, isPaid: true },
  });
  expect(created.status).toBeLessThan(300);
  const admin = await h.server.loginAdmin();
  const approved = await h.server.api('PUT', `/api/events/admin/approve/${created.body._id}`, { token: admin.token, body: {} });
  expect(approved.body.status).toBe('approved');
  return created.body._id as string;
}

/**
 * A paid ticket bought the way the browser buys it (POST /pay/stkPush through the payment service), paid on the
 * simulated phone by itself; resolves once the server confirms the payment. Needs a harness with `payments`.
 */
export async function buyPaidTicket(h: Harness, buyer: Session, order: { eventId: string; phone: string; amount: number }) {
  const push = await h.server.api('POST', '/pay/stkPush', {
    token: buyer.token,
    body: { phone: order.phone, amount: order.amount, Order_ID: `${order.eventId}_${order.phone}`, quantity: 1 },
  });
  expect(push.status, JSON.stringify(push.body)).toBe(200);
  const checkoutRequestId = push.body.CheckoutRequestID as string;
  await waitForValue(async () => {
    const confirmed = await h.server.api('POST', '/pay/confirmPayment', { token: buyer.token, body: { CheckoutRequestID: checkoutRequestId } });
    return confirmed.body?.success === true ? true : undefined;
  }, `the payment of ${order.phone} to be confirmed`);
}

/** Polls `check` until it answers something other than undefined (usable in beforeAll, unlike expect.poll). */
export function waitForValue<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 250 },
  );
}

/**
 * With SCREENSHOT_DIR set, saves the page at phone (390×844) and desktop (1280×900) width as
 * `<name>-phone.png` and `<name>-desktop.png` (the whole page with `fullPage`, one part with `element`), then restores its size.
 */
export async function screenshotsAtWidths(page: Page, name: string, options: { fullPage?: boolean; element?: Locator } = {}) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const original = page.viewportSize();
  for (const size of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 900 },
  ]) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const file = path.join(dir, `${name}-${size.name}.png`);
    // `element`: just that part of the page (one section of a long one), whatever the scroll position.
    if (options.element) await options.element.screenshot({ path: file, animations: 'disabled' });
    else await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * The bytes of a finished download. Read as a stream: the tests share one Chromium over a connection
 * (client/e2e/global-setup.ts), and a remote browser's download has no local path.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A finished download as text (UTF-8). */
export const downloadedText = async (download: Download) => (await downloadedBytes(download)).toString('utf8');
