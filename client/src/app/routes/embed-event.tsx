/*
 * The ticket widget's page (/embed/events/:id), framed on organisers' websites by /widget.js
 * (docs/decisions/widget.md). Outside the app's layout: the widget feature's compact frame around the
 * tickets feature's box, run as a guest checkout (no account, no token: the frame's storage is the host
 * site's partition anyway). The language comes from the frame's address (?lang=, src/lib/i18n/language.ts).
 */
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { EventLoadFailure, useEventDetail } from '../../features/events';
import { TicketBox } from '../../features/tickets';
import { EmbeddedEvent, EmbeddedFrame } from '../../features/widget';
import { hasStarted } from '../../lib/event-clock';
import { useT } from '../../lib/i18n';

export default function EmbedEventRoute() {
  const t = useT();
  const { id = '' } = useParams();
  const { data: event, error, loading, reload, setData } = useEventDetail(id);
  useDocumentTitle(event?.title ?? t('events.eventTitle'));

  if (loading) {
    return (
      <EmbeddedFrame>
        <PageLoader label={t('events.loadingEvent')} />
      </EmbeddedFrame>
    );
  }
  if (error || !event) {
    return (
      <EmbeddedFrame>
        <EventLoadFailure error={error} onRetry={reload} />
      </EmbeddedFrame>
    );
  }
  const paid = event.isPaid && event.ticketPrice > 0;
  return (
    <EmbeddedEvent
      event={event}
      ticketBox={
        paid ? (
          <TicketBox event={event} userId={null} isRegistered={false} hasTakenPlace={hasStarted(event.nextDate?.startsAt ?? event.date)} onEventChange={setData} embedded />
        ) : (
          // Registering for a free event needs an account: on Tukio itself.
          <p>
            <a href={paths.event(event._id)} target="_blank" rel="noopener noreferrer">
              {t('widget.freeEvent')}
            </a>
          </p>
        )
      }
    />
  );
}
