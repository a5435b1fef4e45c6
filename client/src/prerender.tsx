/*
 * The event page's first paint, rendered on the server: built as its own module (`vite build --ssr`, into
 * dist-ssr/), which the API server (server/src/modules/events/event-page.ts) calls for a deep link to
 * /events/{id}: the header plus the event's image, title, date and venue, in the page's HTML, so the page
 * paints before the app's code has loaded (Lighthouse on /events/:id: first paint 3.1 → 2.2 s, largest 3.6 → 2.2 s;
 * docs/decisions/page-weight.md). The browser does not hydrate this markup: React renders the same components
 * over it (src/main.tsx), so what it shows must not depend on the visitor (see useIsServerRender).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { paths } from './config/paths';
import { EventHero, type EventHeroProps } from './features/events';
import { AppShell } from './features/layout';
import type { Language } from './lib/i18n';
import { addKiswahiliCatalog, setServerRenderLanguage } from './lib/i18n/runtime';

// Every Kiswahili catalog, at once: the page is rendered in either language on demand (English ones
// come with the components, see client/build/catalogs-plugin.ts).
const kiswahili = import.meta.glob<Record<string, never>>('./locales/sw/*.json', { eager: true, import: 'default' });
for (const [file, messages] of Object.entries(kiswahili)) addKiswahiliCatalog(/([^/]+)\.json$/.exec(file)![1]!, messages);

/** The event page's header and hero in `language` ('sw' for a reader whose `lang` cookie or browser says so). */
export function renderEventShell(event: EventHeroProps['event'] & { _id: string }, language: Language = 'en'): string {
  setServerRenderLanguage(language);
  return renderToStaticMarkup(
    <StaticRouter location={paths.event(event._id)}>
      {/* The footer comes with the page: in the shell it would sit right under the header. */}
      <AppShell footer={false}>
        <article className="event-detail">
          <EventHero event={event} />
        </article>
      </AppShell>
    </StaticRouter>,
  );
}
