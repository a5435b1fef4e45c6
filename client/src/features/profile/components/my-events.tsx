/*
 * PROFILE › "My Events" (docs/product.md /profile). GET /api/events/user/:userId; each event links to
 * its page and to /edit-event/:id, and can be deleted after confirmation.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useFetch } from '../../../hooks/use-fetch';
import { formatEventDate, formatEventTime } from '../../../lib/format';
import { deleteEvent, getUserEvents } from '../api/profile-api';

export function MyEvents({ userId }: { userId: string }) {
  const { data, error, loading, setData } = useFetch(`my-events:${userId}`, (signal) => getUserEvents(userId, signal));
  const [deleting, setDeleting] = useState<string | null>(null);

  const handleDelete = async (eventId: string) => {
    if (!window.confirm('Are you sure you want to delete this event?')) return;
    setDeleting(eventId);
    try {
      await deleteEvent(eventId);
      setData((events) => events?.filter((event) => event._id !== eventId));
    } catch {
      notify.error('Failed to delete event. Please try again.');
    } finally {
      setDeleting(null);
    }
  };

  const events = data ?? [];

  return (
    <section className="profile-section" aria-labelledby="my-events-heading">
      <div className="profile-section__header">
        <h2 id="my-events-heading">My Events</h2>
        <Link className="btn btn--secondary btn--sm" to={paths.plan}>
          Post an event
        </Link>
      </div>
      {loading ? (
        <p className="muted" role="status">
          Loading your events…
        </p>
      ) : error ? (
        <p className="form-message form-message--error">Failed to fetch user events. Please try again later.</p>
      ) : events.length === 0 ? (
        <p className="empty-state">
          No events posted yet. <Link to={paths.plan}>Create your first event!</Link>
        </p>
      ) : (
        <ul className="my-events">
          {events.map((event) => (
            <li key={event._id} className="my-events__item card">
              <div className="my-events__info">
                <h3 className="my-events__title">
                  <Link to={paths.event(event._id)}>{event.title}</Link>
                </h3>
                <p className="muted">
                  {formatEventDate(event.date)} · {formatEventTime(event.date)} · {event.location}
                </p>
                <span className={`badge badge--${event.status === 'approved' ? 'success' : 'pending'}`}>
                  {event.status === 'approved' ? 'Approved' : 'Pending approval'}
                </span>
              </div>
              <div className="button-row">
                {event.status === 'approved' ? (
                  <Link className="btn btn--secondary btn--sm" to={paths.checkin(event._id)} aria-label={`Check in tickets for ${event.title}`}>
                    Check in
                  </Link>
                ) : null}
                <Link
                  className="btn btn--secondary btn--sm"
                  to={paths.editEvent(event._id)}
                  aria-label={`Edit ${event.title}`}
                >
                  Edit
                </Link>
                <Button
                  variant="danger"
                  className="btn--sm"
                  loading={deleting === event._id}
                  loadingText="Deleting…"
                  aria-label={`Delete ${event.title}`}
                  onClick={() => void handleDelete(event._id)}
                >
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
