import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/global.css';
import { App } from './app/app';
import { preloadRoute } from './app/router';
import { catalogsReady } from './lib/i18n';
import { applyLanguage, initialLanguage } from './lib/i18n/language';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// <html lang> and the cookie the server reads for the next page's shell (a first visit's choice comes
// from the browser's languages and is not yet the device's own: not stored).
applyLanguage(initialLanguage(), false);

const root = createRoot(container);
// As a transition, the first render yields to the browser every few milliseconds instead of being
// one long task. A Kiswahili reader's texts are awaited, so React's first render is already in
// Kiswahili; for English this resolves at once. The page's own code too: React then renders the page
// at once over the server's shell, without a loading indicator in between. A failed download renders
// anyway: the route shows its error and retries.
void Promise.all([catalogsReady(), preloadRoute(window.location.pathname).catch(() => undefined)]).then(() =>
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }),
);
