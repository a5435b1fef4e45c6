/*
 * HOME (docs/product.md /). Kept light on purpose: only the event cards and the API client, no maps,
 * QR codes or emoji. "Explore All Events" reuses the upcoming list (first 10 by date), so the page
 * makes two requests.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ComponentProps } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { getErrorMessage } from '../../lib/errors';
import { useT } from '../../lib/i18n';
import { byDateAscending, EventSection, getPopularEvents, getUpcomingEvents, type EventItem } from '../../features/events';
import '../../features/events/home.css';

const EXPLORE_COUNT = 10;

type EventRowProps = Omit<ComponentProps<typeof EventSection>, 'events' | 'loading' | 'skeletons' | 'variant'> & {
  /** The request whose events the row shows. */
  source: { data: EventItem[] | undefined; isLoading: boolean };
};

/** One of the home page's rows of event cards (four placeholders while its request loads). */
function EventRow({ source, ...section }: EventRowProps) {
  return <EventSection {...section} events={source.data} loading={source.isLoading} skeletons={4} variant="row" />;
}

export default function HomeRoute() {
  useDocumentTitle(null);
  const t = useT();
  const popular = useQuery({ queryKey: ['events', 'popular'], queryFn: ({ signal }) => getPopularEvents(signal) });
  const upcoming = useQuery({ queryKey: ['events', 'upcoming'], queryFn: ({ signal }) => getUpcomingEvents(signal) });

  const explore = useMemo(
    () => (upcoming.data ? [...upcoming.data].sort(byDateAscending).slice(0, EXPLORE_COUNT) : undefined),
    [upcoming.data],
  );
  const error = popular.error ?? upcoming.error;

  const retry = () => {
    if (popular.error) void popular.refetch();
    if (upcoming.error) void upcoming.refetch();
  };

  return (
    <div className="page">
      <section className="home-hero" aria-labelledby="home-title">
        <span className="eyebrow">{t('home.eyebrow')}</span>
        <h1 id="home-title">{t('home.title')}</h1>
        <p className="lead">
          {t('home.lead')}
        </p>
        <div className="button-row">
          <Link className="btn btn--primary" to={paths.events}>
            {t('layout.browseEvents')}
          </Link>
          <Link className="btn btn--secondary" to={paths.plan}>
            {t('layout.postEvent')}
          </Link>
        </div>
      </section>

      {error ? (
        <div className="home-error">
          <FormMessage tone="error">{getErrorMessage(error, t('home.loadFailed'))}</FormMessage>
          <Button variant="secondary" onClick={retry}>
            {t('home.tryAgain')}
          </Button>
        </div>
      ) : (
        <>
          <EventRow
            title={t('home.trendingTitle')}
            intro={t('home.trendingIntro')}
            source={popular}
            priority={2}
            empty={t('home.trendingEmpty')}
          />
          <EventRow
            title={t('home.upcomingTitle')}
            intro={t('home.upcomingIntro')}
            source={upcoming}
            empty={t('home.upcomingEmpty')}
          />
        </>
      )}

      <section className="card home-create" aria-labelledby="home-create-title">
        <div>
          <h2 id="home-create-title">{t('home.createTitle')}</h2>
          <p className="muted">
            {t('home.createText')}
          </p>
        </div>
        <Link className="btn btn--primary" to={paths.plan}>
          {t('home.planEvent')}
        </Link>
      </section>

      {error ? null : (
        <EventSection
          title={t('home.exploreTitle')}
          intro={t('home.exploreIntro')}
          action={
            <Link className="btn btn--secondary btn--sm" to={paths.events}>
              {t('home.seeAll')}
            </Link>
          }
          events={explore}
          loading={upcoming.isLoading}
          skeletons={6}
          empty={
            <>
              {t('home.exploreEmpty')} <Link to={paths.plan}>{t('home.beFirst')}</Link>
            </>
          }
        />
      )}
    </div>
  );
}
