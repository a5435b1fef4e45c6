/*
 * EVENT PAGE › Forum summary (docs/product.md /events/{id}, shown once the event has taken place): at most
 * three threads, and 'View Available Forums' (to /forums/{id}) for registered users.
 */
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useFetch } from '../../../hooks/use-fetch';
import { useSession } from '../../../hooks/use-session';
import { getForumSummary } from '../api/forums-api';
import { repliesLabel } from '../lib/time';
import { TimeAgo } from './time-ago';
import '../community.css';

const SUMMARY_LIMIT = 3;

export function ForumSummary({ eventId, isRegistered }: { eventId: string; isRegistered: boolean }) {
  const { isLoggedIn } = useSession();
  const { data, error, loading, reload } = useFetch(`forum-summary:${eventId}`, (signal) =>
    getForumSummary(eventId, signal),
  );
  const threads = (data ?? []).slice(0, SUMMARY_LIMIT);

  return (
    <section className="community-section card forum-summary" aria-labelledby="forum-summary-heading">
      <h2 id="forum-summary-heading">
        Forum <span className="muted forum-summary__sw" lang="sw">· Majadiliano</span>
      </h2>
      {loading ? (
        <p className="muted" role="status">
          Loading discussions…
        </p>
      ) : error ? (
        <div className="community-error" role="alert">
          <p>Failed to load the forum discussions. Please try again later.</p>
          <Button variant="ghost" className="btn--sm" onClick={reload}>
            Retry
          </Button>
        </div>
      ) : threads.length === 0 ? (
        <p className="muted">No discussions yet for this event.</p>
      ) : (
        <ul className="forum-summary__list">
          {threads.map((thread) => (
            <li key={thread._id} className="forum-summary__item">
              <Link className="forum-summary__title" to={paths.forumThread(thread._id)}>
                {thread.title}
              </Link>
              <span className="muted forum-summary__meta">
                Started by {thread.user?.username ?? 'Unknown'} · <TimeAgo value={thread.createdAt} /> ·{' '}
                {repliesLabel(thread.replies ?? 0)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {isRegistered ? (
        <Link className="btn btn--secondary btn--sm forum-summary__cta" to={paths.forums(eventId)}>
          View Available Forums
        </Link>
      ) : (
        <p className="muted forum-summary__note">
          {isLoggedIn ? (
            'Forums are open to attendees registered for this event.'
          ) : (
            <>
              <Link to={paths.login}>Log in</Link> to join the forums of events you are registered for.
            </>
          )}
        </p>
      )}
    </section>
  );
}
