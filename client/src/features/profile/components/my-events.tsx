/*
 * PROFILE › "My Events" (docs/product.md /profile). GET /api/events/user/:userId/paged, a page at a
 * time (soonest first, "Load more" below); each event links to
 * its page and to /edit-event/:id, and can be deleted after confirmation (one with ticket sales is
 * cancelled instead: the server decides and says so). `eventActions` adds buttons from other features
 * (app/routes/profile.tsx puts the events feature's "Cancel event" there).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { LoadMore } from '../../../components/ui/load-more';
import { usePagedList } from '../../../hooks/use-paged-list';
import { getErrorMessage } from '../../../lib/errors';
import { deleteEventOutcome, deleteEventQuestion } from '../../../lib/event-deletion';
import { formatEventDate, formatEventTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import type { ListedEvent } from '../../../types/api';
import { deleteEvent, getOwnEvent, getUserEventPage } from '../api/profile-api';

const STATUS_BADGE: Record<string, { tone: string; label: string }> = {
  approved: { tone: 'success', label: 'profile.statusApproved' },
  cancelled: { tone: 'cancelled', label: 'profile.statusCancelled' },
};
const PENDING_BADGE = { tone: 'pending', label: 'profile.statusPending' };

export interface MyEventsProps {
  userId: string;
  /** More buttons for one event; `onChange` puts the server's new copy of it in the list. */
  eventActions?: (event: ListedEvent, onChange: (updated: ListedEvent) => void) => ReactNode;
}

export function MyEvents({ userId, eventActions }: MyEventsProps) {
  const t = useT();
  const list = usePagedList(`my-events:${userId}`, (cursor, signal) => getUserEventPage(userId, cursor, signal));
  const { error, loading, update } = list;
  const [deleting, setDeleting] = useState<string | null>(null);
  // After an action removed the button that had focus, focus goes to the event's title once it rendered.
  const focusAfterRender = useRef<string | null>(null);
  useEffect(() => {
    if (!focusAfterRender.current) return;
    document.getElementById(`my-event-${focusAfterRender.current}`)?.focus();
    focusAfterRender.current = null;
  });

  const replace = (updated: ListedEvent) => {
    focusAfterRender.current = updated._id;
    update((events) => events.map((event) => (event._id === updated._id ? { ...event, ...updated } : event)));
  };

  const handleDelete = async (event: ListedEvent) => {
    if (!window.confirm(deleteEventQuestion(event))) return;
    setDeleting(event._id);
    try {
      const outcome = deleteEventOutcome(await deleteEvent(event._id));
      if (outcome.cancelled) {
        notify.info(outcome.message);
        // The server's copy (status, reason, date), in place: the list stays where it is.
        const fresh = await getOwnEvent(event._id).catch(() => null);
        replace(fresh ?? { ...event, status: 'cancelled' });
      } else {
        notify.success(outcome.message);
        update((events) => events.filter((item) => item._id !== event._id), -1);
      }
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('profile.deleteFailed')));
    } finally {
      setDeleting(null);
    }
  };

  const events = list.items;

  return (
    <section className="profile-section" aria-labelledby="my-events-heading">
      <div className="profile-section__header">
        <h2 id="my-events-heading">{t('profile.myEvents')}</h2>
        <div className="profile-section__actions">
          {events.length > 0 ? (
            <Link className="btn btn--ghost btn--sm" to={paths.payouts}>
              {t('profile.payouts')}
            </Link>
          ) : null}
          <Link className="btn btn--secondary btn--sm" to={paths.plan}>
            {t('profile.postEvent')}
          </Link>
        </div>
      </div>
      {loading ? (
        <p className="muted" role="status">
          {t('profile.loadingEvents')}
        </p>
      ) : error ? (
        <p className="form-message form-message--error">{t('profile.eventsLoadFailed')}</p>
      ) : events.length === 0 ? (
        <p className="empty-state">
          {t('profile.noEvents')} <Link to={paths.plan}>{t('profile.createFirstEvent')}</Link>
        </p>
      ) : (
        <ul className="my-events">
          {events.map((event) => (
            <li key={event._id} className="my-events__item card">
              <div className="my-events__info">
                <h3 className="my-events__title">
                  <Link id={`my-event-${event._id}`} to={paths.event(event._id)}>
                    {event.title}
                  </Link>
                </h3>
                <p className="muted">
                  {formatEventDate(event.date)} · {formatEventTime(event.date)} · {event.location}
                </p>
                <StatusBadge status={event.status} />
                {event.status === 'cancelled' && event.cancelReason ? <p className="my-events__reason">{event.cancelReason}</p> : null}
              </div>
              {/* A cancelled event is final: nothing left to edit, check in or cancel. */}
              {event.status === 'cancelled' ? null : (
                <div className="button-row">
                  {event.status === 'approved' ? (
                    <Link className="btn btn--secondary btn--sm" to={paths.checkin(event._id)} aria-label={t('profile.checkInFor', { title: event.title })}>
                      {t('profile.checkIn')}
                    </Link>
                  ) : null}
                  <Link
                    className="btn btn--secondary btn--sm"
                    to={paths.editEvent(event._id)}
                    aria-label={t('profile.editEvent', { title: event.title })}
                  >
                    {t('profile.edit')}
                  </Link>
                  {eventActions?.(event, replace)}
                  <Button
                    variant="danger"
                    className="btn--sm"
                    loading={deleting === event._id}
                    loadingText={t('profile.deleting')}
                    aria-label={t('profile.deleteEvent', { title: event.title })}
                    onClick={() => void handleDelete(event)}
                  >
                    {t('profile.delete')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <LoadMore shown={events.length} total={list.total} hasMore={list.hasMore} loading={list.loadingMore} error={list.loadMoreError} onLoadMore={list.loadMore} />
    </section>
  );
}

function StatusBadge({ status }: { status: string }) {
  const t = useT();
  const { tone, label } = STATUS_BADGE[status] ?? PENDING_BADGE;
  return <span className={`badge badge--${tone}`}>{t(label)}</span>;
}
