import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, comments, events, forumPosts, forumThreads, reviews, ticketTypes, users } from '../../server/src/db/schema.js';
import type { Session } from './helpers/browser.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { ADMIN_ROUTES, seedRouteWalkData, userRoutes, visitorRoutes, type RouteWalkData } from './helpers/route-walk-data.js';

/*
 * The whole app in Kiswahili (docs/decisions/languages.md): Kiswahili is chosen with the header's switch,
 * then every route is walked as a visitor, a signed-in organiser and the admin, and no English UI word may
 * be left on the page: its visible text, its labels (aria-label, title, placeholder, alt) and its title.
 * User content (the seed's and this test's events, names, comments, messages) and brand names are taken out
 * first. Also: <html lang="sw">, the choice survives a reload, the server's first HTML is already in
 * Kiswahili, and a date reads with a Kiswahili month. Build first: `npm run build -w client`.
 */

let h: Harness;
let data: RouteWalkData;
let akinyi: Session; // organiser of the events below
let demoEventId: string;
/** Every text users wrote (seed and ours): never translated, so never searched for English. */
let userContent: string[] = [];

const OURS = ['A test event'];

beforeAll(async () => {
  h = await startHarness({ SEED_DEMO: 'true' });
  data = await seedRouteWalkData(h);
  ({ akinyi, demoEventId } = data);

  // Everything people wrote, the seed's included: events, ticket types, names, comments, reviews, forums, chat.
  const db = h.server.db;
  const written = [
    ...(await db.select({ a: events.title, b: events.description, c: events.location }).from(events)).flatMap((row) => [row.a, row.b, row.c]),
    ...(await db.select({ a: ticketTypes.name }).from(ticketTypes)).map((row) => row.a),
    ...(await db.select({ a: users.username }).from(users)).map((row) => row.a),
    ...(await db.select({ a: comments.content }).from(comments)).map((row) => row.a),
    ...(await db.select({ a: reviews.content }).from(reviews)).map((row) => row.a),
    ...(await db.select({ a: forumThreads.title }).from(forumThreads)).map((row) => row.a),
    ...(await db.select({ a: forumPosts.content }).from(forumPosts)).map((row) => row.a),
    ...(await db.select({ a: chatMessages.text }).from(chatMessages)).map((row) => row.a),
  ];
  userContent = [...new Set([...written, ...OURS])].filter((text) => typeof text === 'string' && text.trim() !== '').sort((a, b) => b.length - a.length);
});
afterAll(async () => {
  await h?.close();
});

/** Names that stay as they are in every language. */
const BRANDS = ['Tukio', 'M-Pesa', 'Safaricom', "Africa's Talking", 'STOP', 'Google Maps', 'WhatsApp', 'X (Twitter)', 'Instagram', 'Facebook', 'LinkedIn', 'OpenStreetMap', 'English', 'Kiswahili'];

/**
 * Common English interface words, matched whole (case-insensitive) after user content and brands are
 * taken out: none of them is a Kiswahili word.
 */
const ENGLISH_WORDS = [
  'login', 'log in', 'logout', 'sign', 'signup', 'register', 'events', 'event', 'ticket', 'tickets', 'buy', 'search', 'profile',
  'submit', 'save', 'cancel', 'cancelled', 'delete', 'loading', 'price', 'date', 'time', 'venue', 'email', 'password', 'username', 'forum',
  'forums', 'chat', 'message', 'messages', 'send', 'reply', 'comments', 'comment', 'reviews', 'review', 'about', 'contact', 'dashboard',
  'admin', 'approve', 'approved', 'reject', 'home', 'next', 'previous', 'back', 'close', 'more', 'free', 'paid', 'sold out', 'upcoming',
  'trending', 'welcome', 'language', 'menu', 'edit', 'update', 'remove', 'show', 'hide', 'refund', 'refunds', 'status', 'pending',
  'location', 'description', 'title', 'share', 'calendar', 'attendees', 'scan', 'camera', 'device', 'offline', 'online', 'discover',
  'explore', 'browse', 'post', 'create', 'plan', 'the', 'and', 'you', 'your', 'with', 'please', 'not', 'this', 'for', 'are', 'has',
  'been', 'will', 'page', 'found', 'yet', 'error', 'failed', 'try again', 'report', 'block', 'blocked', 'users', 'user', 'transfer',
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const englishPattern = new RegExp(`(?<![\\p{L}\\d])(${ENGLISH_WORDS.map(escapeRegExp).join('|')})(?![\\p{L}\\d])`, 'giu');

/** The page's visible text and its labels, the switch and explicitly English parts (lang="en") left out. */
async function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // The language switch names both languages; lang="en" marks English on purpose; codes; the map's own credits.
    const skipped = (element: Element | null) =>
      !element || Boolean(element.closest('.language-switch, body [lang="en"], script, style, noscript, template, .mono, .leaflet-control-attribution'));
    const visible = (element: Element) => element.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true }) || element.closest('.visually-hidden') !== null;
    const texts: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || skipped(parent) || !visible(parent)) continue;
      const text = node.textContent?.trim();
      if (text) texts.push(text);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
      if (skipped(element) || !visible(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.push(value);
      }
    }
    return texts;
  });
}

/** English words left on the page, with the text they were found in. */
async function englishOnPage(page: Page): Promise<string[]> {
  const found = new Set<string>();
  for (const original of await pageTexts(page)) {
    let text = original;
    for (const content of [...userContent, ...BRANDS]) text = text.split(content).join(' ');
    for (const match of text.matchAll(englishPattern)) found.add(`"${match[1]}" in "${original.slice(0, 120)}"`);
  }
  return [...found];
}

/** Waits until the route has rendered its data: no loaders, skeletons or busy regions, one h1 in main. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page
    .waitForFunction(() => !document.querySelector('.page-loader, .skeleton, [aria-busy="true"]') && document.querySelector('main h1') !== null, undefined, {
      timeout: 20_000,
      polling: 100,
    })
    .catch(() => undefined);
}

/** Picks Kiswahili in the header's switch (labelled in both languages) and waits for the page to be in it. */
async function chooseKiswahili(page: Page) {
  await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
  await page.waitForFunction(() => document.documentElement.lang === 'sw' && document.querySelector('.site-header__toggle')?.textContent?.includes('Menyu'));
}

async function loginInKiswahili(page: Page, username: string, password = 'secret123') {
  await page.goto('/login');
  await page.getByLabel('Jina la mtumiaji').fill(username);
  await page.getByLabel('Nenosiri').fill(password);
  await page.getByRole('button', { name: 'Ingia', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Visits each route in Kiswahili; returns what English is left, per route (and any key no catalog has). */
async function walk(page: Page, routes: string[]): Promise<string[]> {
  const problems: string[] = [];
  let route = '';
  const missingKey = (message: { text(): string }) => {
    if (message.text().startsWith('[i18n] missing')) problems.push(`${route}: ${message.text()}`);
  };
  page.on('console', missingKey);
  for (route of routes) {
    await page.goto(route);
    await settle(page);
    expect(await page.evaluate(() => document.documentElement.lang), route).toBe('sw');
    for (const finding of await englishOnPage(page)) problems.push(`${route}: ${finding}`);
  }
  page.off('console', missingKey);
  if (problems.length > 0) console.log(`English left in Kiswahili:\n${problems.join('\n')}`);
  return problems;
}

const KISWAHILI_MONTH = /\b(Januari|Februari|Machi|Aprili|Mei|Juni|Julai|Agosti|Septemba|Oktoba|Novemba|Desemba)\b/;

describe('Kiswahili', () => {
  it('the header switch turns the app to Kiswahili, <html lang> follows, and a reload keeps it', async () => {
    const { page } = await h.newPage({ width: 360, height: 740 });
    await page.goto('/');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('heading', { name: 'Welcome to Tukio' }).waitFor();
    // The detector sees English where there is English (so an empty finding below means something).
    const english = await englishOnPage(page);
    expect(english.join('\n')).toMatch(/"Welcome" in "Welcome to Tukio"/);
    expect(english.length).toBeGreaterThan(10);
    await chooseKiswahili(page);
    await page.getByRole('heading', { name: 'Karibu Tukio' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
    expect(await page.evaluate(() => localStorage.getItem('tukio-language'))).toBe('sw');

    await page.reload();
    await page.getByRole('heading', { name: 'Karibu Tukio' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');

    // Back to English: every English text as before.
    await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('en');
    await page.getByRole('heading', { name: 'Welcome to Tukio' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });

  it('a browser that prefers Kiswahili opens in Kiswahili, its first render already so (no English flash)', async () => {
    const { context, page } = await h.newPage();
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'languages', { get: () => ['sw-KE', 'en'] });
      // The page's first text, whenever the app first puts any into #root.
      const firstText = new MutationObserver(() => {
        const text = document.getElementById('root')?.innerText.trim();
        if (!text) return;
        (window as unknown as { firstText: string }).firstText = text;
        firstText.disconnect();
      });
      document.addEventListener('DOMContentLoaded', () => firstText.observe(document.getElementById('root')!, { childList: true, subtree: true, characterData: true }));
    });
    await page.goto('/about');
    await page.getByRole('heading', { name: 'Lengo letu' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
    const first = await page.evaluate(() => (window as unknown as { firstText: string }).firstText);
    expect(first).toContain('Matukio');
    expect(first).not.toMatch(/\bEvents\b|Contact|Loading/);

    // A shared event link, which the server renders before any script runs: in Kiswahili for this browser (its
    // cookie), date included.
    const eventPage = await (await context.request.get(`${h.server.url}/events/${demoEventId}`)).text();
    expect(eventPage).toMatch(/<html lang="sw"/);
    expect(eventPage).toMatch(KISWAHILI_MONTH);
  });

  it('dates read in Kiswahili', async () => {
    const { page } = await h.newPage();
    await page.goto('/');
    await chooseKiswahili(page);
    await page.goto(`/events/${demoEventId}`);
    await settle(page);
    expect(await page.locator('.event-hero__when').innerText()).toMatch(KISWAHILI_MONTH);
  });

  it('no English is left on any route (visitor, organiser, admin)', async () => {
    const { page } = await h.newPage();
    await page.goto('/');
    await chooseKiswahili(page);
    const problems = await walk(page, visitorRoutes(data));

    const savedOnAccount = page.waitForResponse((response) => response.url().endsWith(`/api/auth/user/${akinyi.user._id}/language`) && response.request().method() === 'PUT');
    await loginInKiswahili(page, 'akinyi');
    // The account keeps the choice made on the device.
    expect((await savedOnAccount).status()).toBe(200);
    problems.push(
      ...(await walk(page, userRoutes(data))),
    );
    const me = await h.server.api('GET', `/api/auth/user/${akinyi.user._id}`, { token: akinyi.token });
    expect(JSON.stringify(me.body)).toContain('"language":"sw"');

    const { page: adminPage } = await h.newPage();
    await adminPage.goto('/');
    await chooseKiswahili(adminPage);
    await loginInKiswahili(adminPage, 'admin', 'admin-password');
    problems.push(...(await walk(adminPage, ADMIN_ROUTES)));

    expect(problems).toEqual([]);
  });
});
