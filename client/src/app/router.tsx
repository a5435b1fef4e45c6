import { Suspense } from 'react';
import { matchRoutes, useRoutes, type RouteObject } from 'react-router-dom';
import { RouteErrorBoundary } from '../components/route-error';
import { paths, routePatterns } from '../config/paths';
import { RootLayout } from '../features/layout';
import { lazyWithTexts, type PreloadableComponent } from '../lib/i18n';
// The landing page is part of the entry: its code downloads in parallel with React instead of
// after it (one round trip less before the largest paint on '/'; ~4 KB gzip on other routes).
import Home from './routes/home';

/*
 * One lazily loaded chunk per route (except Home), shown once its texts are here in the reader's
 * language (lazyWithTexts). Heavy libraries (leaflet, emoji picker, qrcode) must only be imported
 * from inside the route modules (or features) that need them, never from here or the layout.
 *
 * Route objects with useRoutes (no data router: createBrowserRouter/RouterProvider would add ~17 KB gzip
 * to every first load); pages read their data with TanStack Query (./query-client). Render errors are
 * caught by RouteErrorBoundary in the layout; scrolling on navigation by ScrollOnNavigate.
 */
const page = (load: () => Promise<{ default: () => React.JSX.Element }>, path?: string): RouteObject => {
  const Page = lazyWithTexts(load);
  return { ...(path ? { path } : {}), element: <Page />, handle: Page };
};

const EmbedEvent = lazyWithTexts(() => import('./routes/embed-event'));

const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    children: [
      { index: true, element: <Home /> },
      page(() => import('./routes/events'), paths.events),
      page(() => import('./routes/event-detail'), routePatterns.event),
      page(() => import('./routes/event-dashboard'), routePatterns.eventDashboard),
      page(() => import('./routes/plan'), paths.plan),
      page(() => import('./routes/payouts'), paths.payouts),
      page(() => import('./routes/organiser-payouts'), routePatterns.organiserPayouts),
      page(() => import('./routes/login'), paths.login),
      page(() => import('./routes/register'), paths.register),
      page(() => import('./routes/set-avatar'), paths.setAvatar),
      page(() => import('./routes/profile'), paths.profile),
      page(() => import('./routes/chat'), paths.chat),
      page(() => import('./routes/contact'), paths.contact),
      page(() => import('./routes/about'), paths.about),
      page(() => import('./routes/privacy'), paths.privacy),
      page(() => import('./routes/forgot-password'), paths.forgotPassword),
      page(() => import('./routes/reset-password'), routePatterns.resetPassword),
      page(() => import('./routes/verify-email'), routePatterns.verifyEmail),
      page(() => import('./routes/forum-threads'), routePatterns.forums),
      page(() => import('./routes/forum-thread'), routePatterns.forumThread),
      page(() => import('./routes/edit-event'), routePatterns.editEvent),
      page(() => import('./routes/admin'), paths.admin),
      page(() => import('./routes/admin-scraped'), paths.adminScraped),
      page(() => import('./routes/checkin'), routePatterns.checkin),
      page(() => import('./routes/guest-tickets'), routePatterns.guestTickets),
      page(() => import('./routes/data-export'), routePatterns.dataExport),
      page(() => import('./routes/delete-account'), routePatterns.deleteAccountUndo),
      page(() => import('./routes/delete-account'), routePatterns.deleteAccount),
      page(() => import('./routes/not-found'), '*'),
    ],
  },
  // The ticket widget's page, framed on other websites by /widget.js: no header, menu or footer.
  {
    path: routePatterns.embedEvent,
    element: (
      <RouteErrorBoundary standalone>
        <Suspense fallback={null}>
          <EmbedEvent />
        </Suspense>
      </RouteErrorBoundary>
    ),
    handle: EmbedEvent,
  },
];

/**
 * Loads the code of the page at `pathname` (src/main.tsx, before the first render): React then renders
 * that page at once, over the shell the server sent, instead of a loading indicator first.
 */
export function preloadRoute(pathname: string): Promise<void> {
  const handle: unknown = matchRoutes(routes, pathname)?.at(-1)?.route.handle;
  return (handle as PreloadableComponent<() => React.JSX.Element> | undefined)?.preload() ?? Promise.resolve();
}

export function AppRoutes() {
  return useRoutes(routes);
}
