import { Suspense, useLayoutEffect, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router-dom';
import { RouteErrorBoundary } from '../../../components/route-error';
import { PageLoader } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { Header } from './header';
import { Footer } from './footer';

/**
 * A new page starts at the top (or at its #hash target); back/forward keeps the browser's own
 * scroll restoration. Changing only the query (search filters, pagination) keeps the position.
 */
function ScrollOnNavigate() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType === 'POP') return;
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new path or hash scrolls
  }, [pathname, hash]);
  return null;
}

/** Header, main area and (unless left out) footer around a page. */
export function AppShell({ children, footer = true }: { children: ReactNode; footer?: boolean }) {
  const t = useT();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        {t('layout.skipToContent')}
      </a>
      <Header />
      <main id="main-content" className="app-main" tabIndex={-1}>
        {children}
      </main>
      {footer ? <Footer /> : null}
    </div>
  );
}

export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <AppShell>
      <ScrollOnNavigate />
      {/* Errors thrown while rendering a page (e.g. a chunk that failed to load) keep the layout. */}
      <RouteErrorBoundary resetKey={pathname}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
    </AppShell>
  );
}
