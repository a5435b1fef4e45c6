/*
 * EVENT DETAIL (docs/product.md /events/{id}). The events feature owns the layout (EventDetailView); this
 * route plugs the other features' parts into its slots: the tickets feature's ticket box, the community
 * feature's comments, and (once the event has taken place) its forum summary and reviews. The organiser
 * and admins (tickets' staff check) also get the events feature's tools: edit, cancel.
 * On an event with a seat limit the waitlist feature reads the signed-in person's place: its seatsAvailable
 * tells the ticket box what they can buy (a seat held for them included), its part sits in the ticket box,
 * and the organiser gets its panel. On a paid event the organiser also gets the tickets feature's promo codes
 * panel, and once it is approved the widget feature's "Sell on your website" snippet. The organiser's panels also
 * link to the event's dashboard (its own route).
 */
import { Link, useParams } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { useSession } from '../../hooks/use-session';
import { CommentsSection, ForumSummary, ReviewsSection } from '../../features/community';
import { EventDetailView, EventLoadFailure, useEventDetail } from '../../features/events';
import { CheckoutQuestionsPanel, PromoCodesPanel, TicketBox, useStaffAccess, type TicketBoxProps } from '../../features/tickets';
import { useWaitlistPlace, WaitlistBox, WaitlistPanel } from '../../features/waitlist';
import { WidgetSnippetBox } from '../../features/widget';
import { hasStarted } from '../../lib/event-clock';
import '../../features/events/event-detail.css';

export default function EventDetailRoute() {
  const t = useT();
  const { id = '' } = useParams();
  const { user, isLoggedIn } = useSession();
  const { data: event, error, loading, reload, setData } = useEventDetail(id);
  useDocumentTitle(event?.title ?? (loading ? t('events.eventTitle') : t('events.notFoundTitle')));
  const userId = isLoggedIn && user ? user._id : null;
  // The organiser and admins manage the event (edit, cancel): the same rule as the door check-in.
  const access = useStaffAccess(event ? userId : null, event?.user);
  const isRegistered = Boolean(userId && event?.registeredUsers.includes(userId));
  // A waitlist exists only for an upcoming, live event with a seat limit.
  const waitlistOpen = Boolean(event && typeof event.seatsLeft === 'number' && event.status === 'approved' && !hasStarted(event.date));
  const place = useWaitlistPlace({ eventId: event?._id, userId, enabled: waitlistOpen, version: isRegistered ? 'registered' : 'not-registered' });

  if (loading) return <PageLoader label={t('events.loadingEvent')} />;

  if (error || !event) return <EventLoadFailure error={error} onRetry={reload} back={{ to: paths.events, label: t('events.browseEvents') }} />;

  const ticketProps: TicketBoxProps = {
    event,
    userId,
    isRegistered,
    // A series is over once no date is ahead (its `date` is its first one).
    hasTakenPlace: hasStarted(event.nextDate?.startsAt ?? event.date),
    onEventChange: setData,
    // Only once read for this person; until then the event's own count.
    ...(waitlistOpen && userId && place.data ? { seatsAvailable: place.data.seatsAvailable } : {}),
    waitlist: waitlistOpen ? (
      <WaitlistBox eventId={event._id} signedIn={Boolean(userId)} soldOut={event.seatsLeft === 0} isRegistered={isRegistered} isPaid={event.isPaid && event.ticketPrice > 0} place={place} />
    ) : null,
  };
  return (
    <EventDetailView
      event={event}
      hasTakenPlace={ticketProps.hasTakenPlace}
      canManage={access === 'allowed'}
      onCancelled={(cancelled) => setData((current) => ({ ...current, ...cancelled }))}
      ticketBox={<TicketBox {...ticketProps} />}
      organiserPanels={
        <>
          {/* The look of the events feature's organiser tools: it sits under them. */}
          <section className="event-manage" aria-labelledby="event-dashboard-link-title">
            <h2 id="event-dashboard-link-title" className="event-manage__title">
              {t('events.salesAndCheckIns')}
            </h2>
            <div className="button-row">
              <Link className="btn btn--secondary" to={paths.eventDashboard(event._id)}>
                {t('events.openDashboard')}
              </Link>
            </div>
          </section>
          {event.isPaid && event.ticketPrice > 0 && event.status !== 'cancelled' ? <PromoCodesPanel eventId={event._id} /> : null}
          {event.isPaid && event.ticketPrice > 0 && event.status === 'approved' ? <WidgetSnippetBox eventId={event._id} /> : null}
          {event.isPaid && event.ticketPrice > 0 && event.status !== 'cancelled' ? <CheckoutQuestionsPanel eventId={event._id} /> : null}
          {typeof event.capacity === 'number' ? <WaitlistPanel eventId={event._id} /> : null}
        </>
      }
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
