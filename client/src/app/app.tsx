import { BrowserRouter } from 'react-router-dom';
import { RouteErrorBoundary } from '../components/route-error';
import { AppStatus } from '../features/pwa';
import { AppRoutes } from './router';

/* Toasts have no container here: src/lib/notify.ts loads and mounts it on the first toast. */
export function App() {
  return (
    <RouteErrorBoundary standalone>
      <AppStatus />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </RouteErrorBoundary>
  );
}
