import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/global.css';
import { App } from './app/app';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

const root = createRoot(container);
// As a transition, the first render yields to the browser every few milliseconds instead of being
// one long task: a deep-linked event page (rendered at once from the data embedded in the HTML)
// would otherwise block input for a few hundred milliseconds on a slow phone.
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
