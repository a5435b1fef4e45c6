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

/** Comments around the shell inside <div id="root">, so the server can swap in an event's shell. */
export const SHELL_START = '<!--app-shell-->';
export const SHELL_END = '<!--/app-shell-->';

/** No page's link is shown as the current one in the generic shell. */
const NEUTRAL_LOCATION = '/_shell';

export function renderAppShell(event?: EventHeroProps['event'] & { _id: string }): string {
  const body = event ? (
    <article className="event-detail">
      <EventHero event={event} />
    </article>
  ) : (
    <PageLoader />
  );
  return renderToStaticMarkup(
    <StaticRouter location={event ? paths.event(event._id) : NEUTRAL_LOCATION}>
      {/* The footer comes with the page: in the shell it would sit right under the header. */}
      <AppShell footer={false}>{body}</AppShell>
    </StaticRouter>,
  );
}
