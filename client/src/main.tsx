import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/global.css';
import { App } from './app/app';
import { earlyCardPainted } from './app/route-code-gate';
import { preloadRoute } from './app/router';
import { catalogsReady } from './lib/i18n';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

const root = createRoot(container);
// As a transition, the first render yields to the browser every few milliseconds instead of being
// one long task: a deep-linked event page (rendered at once from the data embedded in the HTML)
// would otherwise block input for a few hundred milliseconds on a slow phone.
// A Kiswahili reader's texts for the first page (fetched early by src/preload-route.ts) are awaited, so
// React's first render is already in Kiswahili; for English this resolves at once.
// The page's own code too (already fetched: the server named it in the page): React then renders the page at
// once over the server's shell, without a loading indicator in between. A failed download renders anyway:
// the route shows its error and retries.
// A signed-in page whose card the route preloader paints first asks for its code once that card is on the screen.
const routeCode = earlyCardPainted().then(() => preloadRoute(window.location.pathname));
void Promise.all([catalogsReady(), routeCode.catch(() => undefined)]).then(() =>
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }),
);
