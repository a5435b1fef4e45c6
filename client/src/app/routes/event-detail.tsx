/*
 * EVENT DETAIL (docs/product.md /events/{id}). Layout in features/events/components/event-detail-view.tsx;
 * tickets, comments, reviews and forums plug into features/events/components/event-detail-sections.tsx.
 */
import { Link, useParams } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { getErrorMessage, getErrorStatus } from '../../lib/errors';
import { useSession } from '../../features/auth/hooks/use-session';
import type { EventItem } from '../../features/events/api/events-api';
import { EventDetailView } from '../../features/events/components/event-detail-view';
import { useEventDetail } from '../../features/events/hooks/use-event-detail';
import { hasTakenPlace } from '../../features/events/lib/event-time';
import '../../features/events/event-detail.css';

export default function EventDetailRoute() {
  const { id = '' } = useParams();
  const { user, isLoggedIn } = useSession();
  const { data: event, error, loading, reload, setData } = useEventDetail(id);
  useDocumentTitle(event?.title ?? (loading ? 'Event' : 'Event not found'));

  if (loading) return <PageLoader label="Loading event…" />;

  if (error || !event) {
    const notFound = getErrorStatus(error) === 404;
    return (
      <section className="page page--narrow status-page">
        <h1>{notFound ? 'Event not found' : 'Could not load this event'}</h1>
        {notFound ? (
          <p>This event does not exist, or it is waiting for approval.</p>
        ) : (
          <FormMessage tone="error">{getErrorMessage(error, 'Failed to load the event. Please try again.')}</FormMessage>
        )}
        <div className="status-page__actions">
          {notFound ? null : (
            <Button variant="primary" onClick={reload}>
              Try again
            </Button>
          )}
          <Link className="btn btn--secondary" to={paths.events}>
            Browse events
          </Link>
        </div>
      </section>
    );
  }

  const userId = isLoggedIn && user ? user._id : null;
  return (
    <EventDetailView
      event={event}
      userId={userId}
      isRegistered={Boolean(userId && event.registeredUsers.includes(userId))}
      hasTakenPlace={hasTakenPlace(event.date)}
      onEventChange={(update) => setData((current: EventItem | undefined) => (current ? update(current) : current))}
    />
  );
}
