import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';

export default function NotFoundRoute() {
  const t = useT();
  useDocumentTitle(t('ui.notFoundTitle'));
  return (
    <section className="page page--narrow status-page">
      <p className="status-page__code" aria-hidden="true">
        404
      </p>
      <h1>{t('ui.notFoundTitle')}</h1>
      <p>{t('ui.notFoundText')}</p>
      <div className="status-page__actions">
        <Link className="btn btn--primary" to={paths.home}>
          {t('ui.goHome')}
        </Link>
        <Link className="btn btn--secondary" to={paths.events}>
          {t('ui.browseEvents')}
        </Link>
      </div>
    </section>
  );
}
