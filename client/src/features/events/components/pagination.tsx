import { Link } from 'react-router-dom';

interface PaginationProps {
  page: number;
  pages: number;
  /** Address of a page. */
  hrefFor: (page: number) => string;
}

/** Previous / next links with the current position; links keep the search filters. */
export function Pagination({ page, pages, hrefFor }: PaginationProps) {
  if (pages <= 1) return null;
  const previous = page > 1 ? page - 1 : null;
  const next = page < pages ? page + 1 : null;
  return (
    <nav className="pagination" aria-label="Pagination">
      {previous ? (
        <Link className="btn btn--secondary btn--sm" to={hrefFor(previous)} rel="prev">
          <span aria-hidden="true">←</span> Previous<span className="visually-hidden"> page</span>
        </Link>
      ) : (
        <span className="btn btn--ghost btn--sm" aria-disabled="true">
          <span aria-hidden="true">←</span> Previous<span className="visually-hidden"> page</span>
        </span>
      )}
      <span className="pagination__status" aria-current="page">
        Page {page} of {pages}
      </span>
      {next ? (
        <Link className="btn btn--secondary btn--sm" to={hrefFor(next)} rel="next">
          Next<span className="visually-hidden"> page</span> <span aria-hidden="true">→</span>
        </Link>
      ) : (
        <span className="btn btn--ghost btn--sm" aria-disabled="true">
          Next<span className="visually-hidden"> page</span> <span aria-hidden="true">→</span>
        </span>
      )}
    </nav>
  );
}
