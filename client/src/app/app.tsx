import { BrowserRouter } from 'react-router-dom';
import { RouteErrorBoundary } from '../components/route-error';
import { AppRoutes } from './router';

/* Toasts have no container here: src/lib/notify.ts loads and mounts it on the first toast. */
export function App() {
  return (
    <RouteErrorBoundary standalone>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </RouteErrorBoundary>
  );
}
