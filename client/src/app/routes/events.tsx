/*
 * EVENTS (docs/product.md /events). Server-side search: the query, location and "free only" filter live in
 * the URL and each URL downloads exactly one page of results.
 */
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { getErrorMessage } from '../../lib/errors';
import { EventFilters, EventGrid, EventGridSkeleton, eventsSearch, PAGE_SIZE, Pagination, useEventSearch } from '../../features/events';
import '../../features/events/events-page.css';

export default function EventsRoute() {
  const t = useT();
  useDocumentTitle(t('events.pageTitle'));
  const search = useEventSearch();
  const { applied, draft, result } = search;
  const data = result.data;
  const filtered = Boolean(applied.q || applied.location || applied.free);

  let summary = '';
  if (!result.loading && !result.error && data) {
    summary =
      data.total === 0
        ? t('events.noneFound')
        : applied.q
          ? t('events.countMatching', { count: data.total, query: applied.q })
          : t('events.count', { count: data.total });
  }

  return (
    <div className="page">
      <header className="page-hero">
        <h1>{t('events.pageTitle')}</h1>
        <p className="lead">{t('events.pageLead')}</p>
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
            {t('events.clearFilters')}
          </Button>
        ) : null}
      </div>

      <h2 className="visually-hidden">{t('events.results')}</h2>
      {result.loading ? (
        <EventGridSkeleton count={PAGE_SIZE} />
      ) : result.error ? (
        <div className="button-row">
          <FormMessage tone="error">{getErrorMessage(result.error, t('events.loadFailed'))}</FormMessage>
          <Button variant="secondary" onClick={result.reload}>
            {t('events.tryAgain')}
          </Button>
        </div>
      ) : data && data.items.length > 0 ? (
        <>
          <EventGrid events={data.items} priority={2} />
          <Pagination page={data.page} pages={data.pages} hrefFor={(page) => `${paths.events}?${eventsSearch({ ...applied, page })}`} />
        </>
      ) : data && applied.page > 1 && data.total > 0 ? (
        <p className="empty-state">
          {t('events.pageEmpty')} <Link to={`${paths.events}?${eventsSearch({ ...applied, page: 1 })}`}>{t('events.firstPage')}</Link>
        </p>
      ) : (
        <p className="empty-state">
          {filtered ? t('events.noMatch') : t('events.noUpcoming')}{' '}
          <Link to={paths.plan}>{t('events.postEvent')}</Link>
        </p>
      )}
    </div>
  );
}
