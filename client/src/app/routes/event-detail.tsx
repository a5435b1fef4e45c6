/*
 * EVENT DETAIL (docs/product.md /events/{id}). The events feature owns the layout (EventDetailView); this
 * route plugs the other features' parts into its slots: the tickets feature's ticket box, the community
 * feature's comments, and (once the event has taken place) its forum summary and reviews. The organiser
 * and admins (tickets' staff check) also get the events feature's tools: edit, cancel.
 */
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useSession } from '../../hooks/use-session';
import { CommentsSection, ForumSummary, ReviewsSection } from '../../features/community';
import { EventDetailView, EventLoadFailure, useEventDetail, type EventItem } from '../../features/events';
import { TicketBox, useStaffAccess, type TicketBoxProps } from '../../features/tickets';
import { hasStarted } from '../../lib/event-clock';
import '../../features/events/event-detail.css';

export default function EventDetailRoute() {
  const { id = '' } = useParams();
  const { user, isLoggedIn } = useSession();
  const { data: event, error, loading, reload, setData } = useEventDetail(id);
  useDocumentTitle(event?.title ?? (loading ? 'Event' : 'Event not found'));
  const userId = isLoggedIn && user ? user._id : null;
  // The organiser and admins manage the event (edit, cancel): the same rule as the door check-in.
  const access = useStaffAccess(event ? userId : null, event?.user);

  if (loading) return <PageLoader label="Loading event…" />;

  if (error || !event) return <EventLoadFailure error={error} onRetry={reload} back={{ to: paths.events, label: 'Browse events' }} />;

  const ticketProps: TicketBoxProps = {
    event,
    userId,
    isRegistered: Boolean(userId && event.registeredUsers.includes(userId)),
    hasTakenPlace: hasStarted(event.date),
    onEventChange: (update) => setData((current: EventItem | undefined) => (current ? update(current) : current)),
  };
  return (
    <EventDetailView
      event={event}
      hasTakenPlace={ticketProps.hasTakenPlace}
      canManage={access === 'allowed'}
      onCancelled={(cancelled) => setData((current: EventItem | undefined) => (current ? { ...current, ...cancelled } : current))}
      ticketBox={<TicketBox {...ticketProps} />}
      comments={<CommentsSection eventId={event._id} />}
      afterEvent={
        <>
          <ForumSummary eventId={event._id} isRegistered={ticketProps.isRegistered} />
          <ReviewsSection eventId={event._id} />
        </>
      }
    />
  );
}
