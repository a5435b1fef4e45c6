import { Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router-dom';
import { RouteErrorBoundary } from '../../../components/route-error';
import { dropEarlyReads } from '../../../lib/early-reads';
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

/** Answers fetched early belong to the page the tab opened with (src/lib/early-reads.ts): leaving it drops the rest. */
function DropEarlyReadsOnNavigate() {
  const { pathname } = useLocation();
  const [firstPathname] = useState(pathname);
  useEffect(() => {
    if (pathname !== firstPathname) dropEarlyReads();
  }, [pathname, firstPathname]);
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
      <DropEarlyReadsOnNavigate />
      {/* Errors thrown while rendering a page (e.g. a chunk that failed to load) keep the layout. */}
      <RouteErrorBoundary resetKey={pathname}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
    </AppShell>
  );
}
