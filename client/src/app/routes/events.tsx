/*
 * EVENTS (docs/product.md /events). Server-side search: the query, location and "free only" filter live in
 * the URL and each URL downloads exactly one page of results.
 */
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { getErrorMessage } from '../../lib/errors';
import { EventFilters, EventGrid, EventGridSkeleton, eventsSearch, PAGE_SIZE, Pagination, useEventSearch } from '../../features/events';
import '../../features/events/events-page.css';

export default function EventsRoute() {
  useDocumentTitle('Events');
  const search = useEventSearch();
  const { applied, draft, result } = search;
  const data = result.data;
  const filtered = Boolean(applied.q || applied.location || applied.free);

  let summary = '';
  if (!result.loading && !result.error && data) {
    summary =
      data.total === 0
        ? 'No events found'
        : `${data.total} ${data.total === 1 ? 'event' : 'events'}${applied.q ? ` matching “${applied.q}”` : ''}`;
  }

  return (
    <div className="page">
      <header className="page-hero">
        <h1>Events</h1>
        <p className="lead">Upcoming events across Kenya, from today onwards.</p>
      </header>

      <EventFilters
        q={draft.q}
        location={draft.location}
        free={applied.free}
        onQueryChange={search.setQuery}
        onLocationChange={search.setLocation}
        onFreeChange={search.setFree}
        onSubmit={search.submit}
      />

      <div className="events-summary">
        <p role="status" aria-live="polite">
          {summary}
        </p>
        {filtered ? (
          <Button variant="ghost" className="btn--sm" onClick={search.clear}>
            Clear filters
          </Button>
        ) : null}
      </div>

      <h2 className="visually-hidden">Results</h2>
      {result.loading ? (
        <EventGridSkeleton count={PAGE_SIZE} />
      ) : result.error ? (
        <div className="button-row">
          <FormMessage tone="error">{getErrorMessage(result.error, 'Failed to load events. Please try again.')}</FormMessage>
          <Button variant="secondary" onClick={result.reload}>
            Try again
          </Button>
        </div>
      ) : data && data.items.length > 0 ? (
        <>
          <EventGrid events={data.items} priority={2} />
          <Pagination page={data.page} pages={data.pages} hrefFor={(page) => `${paths.events}?${eventsSearch({ ...applied, page })}`} />
        </>
      ) : data && applied.page > 1 && data.total > 0 ? (
        <p className="empty-state">
          This page is empty. <Link to={`${paths.events}?${eventsSearch({ ...applied, page: 1 })}`}>Go to the first page</Link>
        </p>
      ) : (
        <p className="empty-state">
          {filtered ? 'No events match your search. Try other words or clear the filters.' : 'No upcoming events yet.'}{' '}
          <Link to={paths.plan}>Post an event</Link>
        </p>
      )}
    </div>
  );
}
