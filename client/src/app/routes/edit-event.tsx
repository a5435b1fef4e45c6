/* EDIT EVENT (SPEC §2 /edit-event/{id}): organisers and admins; no stored user goes to /login. */
import { Link, Navigate, useParams } from 'react-router-dom';
import { FormMessage } from '../../components/ui/form-message';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useFetch } from '../../hooks/use-fetch';
import { getErrorMessage, getErrorStatus } from '../../lib/errors';
import { useSession } from '../../features/auth/hooks/use-session';
import { getEvent } from '../../features/events/api/events-api';
import { EditEventForm } from '../../features/events/components/edit-event-form';
import '../../features/events/event-form.css';

export default function EditEventRoute() {
  useDocumentTitle('Edit Event');
  const { id = '' } = useParams();
  const { user, isLoggedIn } = useSession();
  const signedIn = Boolean(isLoggedIn && user);
  const { data: event, error, loading } = useFetch(signedIn ? `events:edit:${id}` : null, (signal) => getEvent(id, signal));

  if (!signedIn) return <Navigate to={paths.login} replace state={{ from: paths.editEvent(id) }} />;

  return (
    <div className="page page--narrow">
      <header className="page-hero">
        <h1>Edit Event</h1>
        {event ? (
          <p className="lead">
            Editing <Link to={paths.event(event._id)}>{event.title}</Link>
          </p>
        ) : null}
      </header>
      {loading ? (
        <PageLoader label="Loading event…" />
      ) : error || !event ? (
        <FormMessage tone="error">
          {getErrorStatus(error) === 404
            ? 'Event not found.'
            : getErrorMessage(error, 'Failed to load the event. Please try again.')}
        </FormMessage>
      ) : (
        <EditEventForm key={event._id} event={event} />
      )}
    </div>
  );
}
