import { Link } from 'react-router-dom';
import { useT } from '../../../lib/i18n';

interface PaginationProps {
  page: number;
  pages: number;
  /** Address of a page. */
  hrefFor: (page: number) => string;
}

/** Previous / next links with the current position; links keep the search filters. */
export function Pagination({ page, pages, hrefFor }: PaginationProps) {
  const t = useT();
  if (pages <= 1) return null;
  const previous = page > 1 ? page - 1 : null;
  const next = page < pages ? page + 1 : null;
  return (
    <nav className="pagination" aria-label={t('events.pagination')}>
      {previous ? (
        <Link className="btn btn--secondary btn--sm" to={hrefFor(previous)} rel="prev">
          <span aria-hidden="true">←</span> {t('events.previous')}<span className="visually-hidden"> {t('events.pageWord')}</span>
        </Link>
      ) : (
        <span className="btn btn--ghost btn--sm" aria-disabled="true">
          <span aria-hidden="true">←</span> {t('events.previous')}<span className="visually-hidden"> {t('events.pageWord')}</span>
        </span>
      )}
      <span className="pagination__status" aria-current="page">
        {t('events.pageOf', { page, pages })}
      </span>
      {next ? (
        <Link className="btn btn--secondary btn--sm" to={hrefFor(next)} rel="next">
          {t('events.next')}<span className="visually-hidden"> {t('events.pageWord')}</span> <span aria-hidden="true">→</span>
        </Link>
      ) : (
        <span className="btn btn--ghost btn--sm" aria-disabled="true">
          {t('events.next')}<span className="visually-hidden"> {t('events.pageWord')}</span> <span aria-hidden="true">→</span>
        </span>
      )}
    </nav>
  );
}
