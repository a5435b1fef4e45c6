import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { RouteErrorBoundary } from '../components/route-error';
import { AppStatus } from '../features/pwa';
import { queryClient } from './query-client';
import { AppRoutes } from './router';

/* Toasts have no container here: src/lib/notify.ts loads and mounts it on the first toast. */
export function App() {
  return (
    <RouteErrorBoundary standalone>
      <AppStatus />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </RouteErrorBoundary>
  );
}
