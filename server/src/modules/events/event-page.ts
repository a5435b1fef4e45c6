import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { isId } from '../../db/ids.js';
import { escapeHtml } from '../../lib/html.js';
import type { Logger } from '../../lib/logger.js';
import type { Language } from '@tukio/shared/languages';
import { shellLanguage, withinHead, type AppShellSource } from '../../lib/app-shell.js';
import { lazyEventShellRenderer } from './app-shell-renderer.js';
import type { EventDto, EventsService } from './events.service.js';

const DESCRIPTION_MAX = 300;
/** The client build's empty root, where the rendered header and hero go. */
const EMPTY_ROOT = '<div id="root"></div>';
/** The element id the client reads the embedded event from (features/events/api/initial-event.ts). */
export const INITIAL_EVENT_ELEMENT_ID = 'initial-event';

/** JSON inside <script>: `<`, `>`, `&` and the JS line separators escaped, so no text can close the tag. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function summary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > DESCRIPTION_MAX ? `${flat.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…` : flat;
}

/** Stored dates are Kenyan wall-clock times kept in UTC fields; outside readers get the real offset (EAT, UTC+3). */
export const kenyanTime = (isoUtc: string) => `${isoUtc.slice(0, 19)}+03:00`;

/** The schema.org Event search engines and chat apps read. */
export function eventJsonLd(event: EventDto, pageUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    description: event.description,
    startDate: kenyanTime(event.date),
    eventStatus: event.status === 'cancelled' ? 'https://schema.org/EventCancelled' : 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    url: pageUrl,
    ...(event.image ? { image: [event.image] } : {}),
    location: {
      '@type': 'Place',
      name: event.location,
      address: { '@type': 'PostalAddress', streetAddress: event.location, addressCountry: 'KE' },
      ...(event.latitude !== null && event.longitude !== null
        ? { geo: { '@type': 'GeoCoordinates', latitude: event.latitude, longitude: event.longitude } }
        : {}),
    },
    offers: {
      '@type': 'Offer',
      url: pageUrl,
      price: event.ticketPrice,
      priceCurrency: 'KES',
      availability: event.seatsLeft === 0 ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
    },
  };
}

/** Open Graph, Twitter card and JSON-LD tags for one approved event; every value HTML-escaped. */
export function eventHeadTags(event: EventDto, pageUrl: string): string {
  const description = summary(event.description);
  const meta = (attribute: 'property' | 'name', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" data-tukio-event />`;
  return [
    `<meta name="description" content="${escapeHtml(description)}" data-tukio-event />`,
    `<link rel="canonical" href="${escapeHtml(pageUrl)}" />`,
    // The page's largest image: fetched while the app's code loads instead of after the event's API call.
    ...(event.image ? [`<link rel="preload" as="image" href="${escapeHtml(event.image)}" fetchpriority="high" />`] : []),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'Tukio'),
    meta('property', 'og:title', event.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', pageUrl),
    ...(event.image ? [meta('property', 'og:image', event.image), meta('property', 'og:image:alt', event.title)] : []),
    meta('name', 'twitter:card', event.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', event.title),
    meta('name', 'twitter:description', description),
    ...(event.image ? [meta('name', 'twitter:image', event.image)] : []),
    `<script type="application/ld+json">${jsonForScript(eventJsonLd(event, pageUrl))}</script>`,
    // The same body GET /api/events/:id answers: the page renders it on its first paint instead of
    // asking again after the code loads (client: features/events/api/initial-event.ts).
    `<script type="application/json" id="${INITIAL_EVENT_ELEMENT_ID}">${jsonForScript(event)}</script>`,
  ].join('\n    ');
}

/** Puts the event's title and tags into the app shell's <head>. */
export function injectEventHead(html: string, event: EventDto, pageUrl: string): string {
  const title = `<title>${escapeHtml(`${event.title} | Tukio`)}</title>`;
  const withTitle = /<title>[\s\S]*?<\/title>/i.test(html) ? html.replace(/<title>[\s\S]*?<\/title>/i, () => title) : html;
  const tags = `${withTitle === html ? `${title}\n    ` : ''}${eventHeadTags(event, pageUrl)}\n  `;
  // Existing generic description / og tags would contradict ours; drop them.
  const cleaned = withTitle.replace(/<meta\s+(?:name|property)="(?:description|og:[^"]*|twitter:[^"]*)"[^>]*>\s*/gi, '');
  return /<\/head>/i.test(cleaned) ? cleaned.replace(/<\/head>/i, () => `${tags}</head>`) : `${tags}${cleaned}`;
}

/** The event route's own stylesheets, as the client build's manifest (Vite's `build.manifest`) lists them. */
async function eventRouteStylesheets(clientDist: string): Promise<string> {
  const manifest = await readFile(path.join(clientDist, '.vite', 'manifest.json'), 'utf8').then(
    (text) => JSON.parse(text) as Record<string, { css?: string[] } | undefined>,
    () => ({}) as Record<string, undefined>,
  );
  const files = manifest['src/app/routes/event-detail.tsx']?.css ?? [];
  return files.filter((file) => /^[\w./-]+\.css$/.test(file)).map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join('');
}

/**
 * GET /events/:id (the client route): the app shell with the event's share tags, so links pasted into WhatsApp
 * or X show a rich preview, the event's data, so the page renders without asking for it, and (with the
 * client's renderer, dist-ssr/prerender.js beside `clientDist`) its header and hero already rendered and styled, so the page paints
 * before the app's code runs. Anything else (unknown, pending) gets the plain shell.
 */
export function createEventPageHandler(deps: {
  events: EventsService;
  /** The client build's index.html (shared with the history fallback, lib/app-shell.ts). */
  shell: AppShellSource;
  clientDist: string;
  publicUrl: string;
  logger: Logger;
}): RequestHandler {
  const renderer = lazyEventShellRenderer(path.join(deps.clientDist, '..', 'dist-ssr', 'prerender.js'), deps.logger);
  let stylesheets: { html: string; links: Promise<string> } | undefined;

  /**
   * The whole page per event body, shell and language. Keyed by the events service's cached body: a shared
   * link opened many times renders once, and an edit (a new body) or a new client build renders again.
   */
  const pages: Record<Language, WeakMap<EventDto, { shell: string; page: string }>> = { en: new WeakMap(), sw: new WeakMap() };
  async function page(event: EventDto, pageUrl: string, language: Language): Promise<string> {
    const shell = await deps.shell.current();
    const known = pages[language].get(event);
    if (known?.shell === shell) return known.page;
    const rendered = await render(shell, event, pageUrl, language);
    pages[language].set(event, { shell, page: rendered });
    return rendered;
  }

  async function render(shell: string, event: EventDto, pageUrl: string, language: Language): Promise<string> {
    const withHead = injectEventHead(shell, event, pageUrl).replace(/<html lang="[^"]*"/, `<html lang="${language}"`);
    const shellRenderer = await renderer();
    if (!shellRenderer || !withHead.includes(EMPTY_ROOT)) return withHead;
    try {
      const hero = shellRenderer.renderEventShell(event, language);
      if (stylesheets?.html !== shell) stylesheets = { html: shell, links: eventRouteStylesheets(deps.clientDist) };
      return withinHead(withHead.replace(EMPTY_ROOT, () => `<div id="root">${hero}</div>`), await stylesheets.links);
    } catch (error) {
      deps.logger.error(`event page ${event._id}: shell not rendered`, error);
      return withHead;
    }
  }

  return async (req, res, next) => {
    const id = req.params.id;
    if (!isId(id)) return next();
    try {
      const event = await deps.events.get(id, undefined);
      const html = await page(event, `${deps.publicUrl}/events/${id}`, shellLanguage(req));
      res.setHeader('Cache-Control', 'no-cache');
      res.vary('Cookie');
      res.vary('Accept-Language');
      res.type('html').send(html);
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      if (status !== 404) deps.logger.error(`event page ${id}: share tags skipped`, error);
      next();
    }
  };
}
