import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';

export const FORUM_LOGIN_MESSAGE = 'Please log in to view the forum threads.';

/** Shown on the forum pages to visitors without a session (the API refuses them with 401). */
export function ForumLoginNotice() {
  return (
    <div className="notice" role="status">
      <p>{FORUM_LOGIN_MESSAGE}</p>
      <Link className="btn btn--primary btn--sm" to={paths.login}>
        Login
      </Link>
    </div>
  );
}

/** Shown instead of a posting form to signed-in users without a ticket for the event. */
export function ForumRegisterNotice({ eventId }: { eventId: string }) {
  return (
    <div className="notice">
      <p>You can only post in the forum if you&apos;ve registered for the event.</p>
      <Link className="btn btn--secondary btn--sm" to={paths.event(eventId)}>
        Go to the event
      </Link>
    </div>
  );
}
