/*
 * EVENT DETAIL (docs/product.md /events/{id}). Layout in features/events/components/event-detail-view.tsx;
 * tickets, comments, reviews and forums plug into features/events/components/event-detail-sections.tsx.
 */
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useSession } from '../../features/auth/hooks/use-session';
import { EventLoadFailure } from '../../features/events/components/event-load-failure';
import type { EventItem } from '../../features/events/api/events-api';
import { EventDetailView } from '../../features/events/components/event-detail-view';
import { useEventDetail } from '../../features/events/hooks/use-event-detail';
import { hasStarted } from '../../lib/event-clock';
import '../../features/events/event-detail.css';

export default function EventDetailRoute() {
  const { id = '' } = useParams();
  const { user, isLoggedIn } = useSession();
  const { data: event, error, loading, reload, setData } = useEventDetail(id);
  useDocumentTitle(event?.title ?? (loading ? 'Event' : 'Event not found'));

  if (loading) return <PageLoader label="Loading event…" />;

  if (error || !event) return <EventLoadFailure error={error} onRetry={reload} back={{ to: paths.events, label: 'Browse events' }} />;

  const userId = isLoggedIn && user ? user._id : null;
  return (
    <EventDetailView
      event={event}
      userId={userId}
      isRegistered={Boolean(userId && event.registeredUsers.includes(userId))}
      hasTakenPlace={hasStarted(event.date)}
      onEventChange={(update) => setData((current: EventItem | undefined) => (current ? update(current) : current))}
    />
  );
}
