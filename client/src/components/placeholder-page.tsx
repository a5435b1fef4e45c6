import type { ReactNode } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { PageLoader } from './ui/spinner';

/**
 * TEMPORARY stand-in for routes that later work will build out.
 * Renders the page heading and a short loading/empty state so the router works end to end.
 */
export function PlaceholderPage({
  title,
  intro,
  status = 'loading',
  children,
}: {
  title: string;
  intro?: ReactNode;
  status?: 'loading' | 'empty';
  children?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <section className="page">
      <h1>{title}</h1>
      {intro ? <p className="lead">{intro}</p> : null}
      {status === 'loading' ? <PageLoader /> : <p className="muted">Nothing to show yet.</p>}
      {children}
    </section>
  );
}
