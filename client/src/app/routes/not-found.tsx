import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';

export default function NotFoundRoute() {
  useDocumentTitle('Page Not Found');
  return (
    <section className="page page--narrow status-page">
      <p className="status-page__code" aria-hidden="true">
        404
      </p>
      <h1>Page Not Found</h1>
      <p>Sorry, the page you are looking for does not exist.</p>
      <div className="status-page__actions">
        <Link className="btn btn--primary" to={paths.home}>
          Go to Home
        </Link>
        <Link className="btn btn--secondary" to={paths.events}>
          Browse events
        </Link>
      </div>
    </section>
  );
}
