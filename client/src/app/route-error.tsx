import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { paths } from '../config/paths';
import { useDocumentTitle } from '../hooks/use-document-title';

/**
 * Shown when rendering a route throws (including a lazily loaded chunk that failed to
 * download, e.g. after a new deploy). `standalone` renders its own <main> landmark because
 * the layout itself is not available.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  useDocumentTitle('Something went wrong');
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;

  const body = (
    <section className="page page--narrow status-page">
      <h1>Something went wrong</h1>
      <p>This page could not be displayed. Please reload and try again.</p>
      {detail ? <p className="muted">{detail}</p> : null}
      <div className="status-page__actions">
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Reload page
        </button>
        <Link className="btn btn--secondary" to={paths.home} reloadDocument>
          Go to Home
        </Link>
      </div>
    </section>
  );

  return standalone ? <main id="main-content">{body}</main> : body;
}
