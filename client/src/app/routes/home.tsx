/*
 * HOME (docs/product.md /). Kept light on purpose: only the event cards and the API client, no maps,
 * QR codes or emoji. "Explore All Events" reuses the upcoming list (first 10 by date), so the page
 * makes two requests.
 */
import { useMemo, type ComponentProps } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useFetch } from '../../hooks/use-fetch';
import { getErrorMessage } from '../../lib/errors';
import { byDateAscending, EventSection, getPopularEvents, getUpcomingEvents, type EventItem } from '../../features/events';
import '../../features/events/home.css';

const EXPLORE_COUNT = 10;

type EventRowProps = Omit<ComponentProps<typeof EventSection>, 'events' | 'loading' | 'skeletons' | 'variant'> & {
  /** The request whose events the row shows. */
  source: { data: EventItem[] | undefined; loading: boolean };
};

/** One of the home page's rows of event cards (four placeholders while its request loads). */
function EventRow({ source, ...section }: EventRowProps) {
  return <EventSection {...section} events={source.data} loading={source.loading} skeletons={4} variant="row" />;
}

export default function HomeRoute() {
  useDocumentTitle(null);
  const popular = useFetch('events:popular', getPopularEvents);
  const upcoming = useFetch('events:upcoming', getUpcomingEvents);

  const explore = useMemo(
    () => (upcoming.data ? [...upcoming.data].sort(byDateAscending).slice(0, EXPLORE_COUNT) : undefined),
    [upcoming.data],
  );
  const error = popular.error ?? upcoming.error;

  const retry = () => {
    if (popular.error) popular.reload();
    if (upcoming.error) upcoming.reload();
  };

  return (
    <div className="page">
      <section className="home-hero" aria-labelledby="home-title">
        <span className="eyebrow">Karibu · Nairobi · Mombasa · Kisumu</span>
        <h1 id="home-title">Welcome to Tukio</h1>
        <p className="lead">
          Discover concerts, festivals, tech meetups and community gatherings across Kenya. Get your tickets, join the
          conversation and never miss what&apos;s happening near you.
        </p>
        <div className="button-row">
          <Link className="btn btn--primary" to={paths.events}>
            Browse events
          </Link>
          <Link className="btn btn--secondary" to={paths.plan}>
            Post an event
          </Link>
        </div>
      </section>

      {error ? (
        <div className="home-error">
          <FormMessage tone="error">{getErrorMessage(error, 'We could not load events right now. Please try again.')}</FormMessage>
          <Button variant="secondary" onClick={retry}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <EventRow
            title="What's Trending Now"
            intro="The events everyone is opening and sharing."
            source={popular}
            priority={2}
            empty="Nothing is trending yet. Check back soon!"
          />
          <EventRow
            title="Upcoming Experiences"
            intro="Coming up soon, across the country."
            source={upcoming}
            empty="No upcoming events yet."
          />
        </>
      )}

      <section className="card home-create" aria-labelledby="home-create-title">
        <div>
          <h2 id="home-create-title">Create Your Own Event</h2>
          <p className="muted">
            Hosting a meetup, a concert or a harambee? Posting is free; your event goes live once it is approved.
          </p>
        </div>
        <Link className="btn btn--primary" to={paths.plan}>
          Plan an event
        </Link>
      </section>

      {error ? null : (
        <EventSection
          title="Explore All Events"
          intro="The next events on the calendar."
          action={
            <Link className="btn btn--secondary btn--sm" to={paths.events}>
              See all events
            </Link>
          }
          events={explore}
          loading={upcoming.loading}
          skeletons={6}
          empty={
            <>
              No events yet. <Link to={paths.plan}>Be the first to post one!</Link>
            </>
          }
        />
      )}
    </div>
  );
}
