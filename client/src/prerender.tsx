/*
 * Server-side rendering of the app shell, built as its own module (`vite build --ssr`, into
 * dist-ssr/). Two users:
 *   - the client build (vite.config.ts `prerenderShell`) puts `renderAppShell()` into index.html,
 *     so every page paints its header before the app's JavaScript has loaded;
 *   - the API server (server/src/modules/events/event-page.ts) calls `renderAppShell(event)` for a
 *     deep link to /events/{id}: the header plus the event's image, title, date and venue.
 * The browser does not hydrate this markup: React renders the same components over it
 * (src/main.tsx), so what the shell shows must not depend on the visitor (see useIsServerRender).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { PageLoader } from './components/ui/spinner';
import { paths } from './config/paths';
import { EventHero, type EventHeroProps } from './features/events';
import { AppShell } from './features/layout';
import { t, type Language } from './lib/i18n';
import { addKiswahiliCatalog, setServerRenderLanguage } from './lib/i18n/runtime';

// Every Kiswahili catalog, at once: the shell is rendered in either language on demand (English ones
// come with the components, see client/build/catalogs-plugin.ts).
const kiswahili = import.meta.glob<Record<string, never>>('./locales/sw/*.json', { eager: true, import: 'default' });
for (const [file, messages] of Object.entries(kiswahili)) addKiswahiliCatalog(/([^/]+)\.json$/.exec(file)![1]!, messages);

/** Comments around the shell inside <div id="root">, so the server can swap in an event's shell. */
export const SHELL_START = '<!--app-shell-->';
export const SHELL_END = '<!--/app-shell-->';

/** No page's link is shown as the current one in the generic shell. */
const NEUTRAL_LOCATION = '/_shell';

/** The shell in `language` ('sw' for a reader whose `lang` cookie or browser says so: no English flash). */
export function renderAppShell(event?: EventHeroProps['event'] & { _id: string }, language: Language = 'en'): string {
  setServerRenderLanguage(language);
  const body = event ? (
    <article className="event-detail">
      <EventHero event={event} />
    </article>
  ) : (
    <PageLoader />
  );
  const shell = renderToStaticMarkup(
    <StaticRouter location={event ? paths.event(event._id) : NEUTRAL_LOCATION}>
      {/* The footer comes with the page: in the shell it would sit right under the header. */}
      <AppShell footer={false}>{body}</AppShell>
    </StaticRouter>,
  );
  return shell;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * index.html's document-level texts in `language`: <html lang>, the generic <title>, the meta
 * description and the <noscript> note (the build writes dist/index.sw.html with it).
 */
export function localizeDocument(html: string, language: Language): string {
  setServerRenderLanguage(language);
  return html
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(t('document.title'))}</title>`)
    .replace(/(<meta name="description" content=")[^"]*"/, (_match, start: string) => `${start}${escapeHtml(t('document.description'))}"`)
    .replace(/<noscript>[^<]*<\/noscript>/, () => `<noscript>${escapeHtml(t('document.noscript'))}</noscript>`);
}
