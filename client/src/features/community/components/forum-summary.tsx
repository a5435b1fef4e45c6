/*
 * EVENT PAGE › Forum summary (docs/product.md /events/{id}, shown once the event has taken place): at most
 * three threads, and 'View Available Forums' (to /forums/{id}) for registered users.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useSession } from '../../../hooks/use-session';
import { RichText, useT } from '../../../lib/i18n';
import { getForumSummary } from '../api/forums-api';
import { shownText } from '../lib/placeholders';
import { repliesLabel } from '../lib/time';
import { TimeAgo } from './time-ago';
import '../community.css';
import { displayName } from '../../../lib/display-name';

const SUMMARY_LIMIT = 3;

export function ForumSummary({ eventId, isRegistered }: { eventId: string; isRegistered: boolean }) {
  const t = useT();
  const { isLoggedIn } = useSession();
  const { data, error, isLoading: loading, refetch } = useQuery({ queryKey: ['forum-summary', eventId], queryFn: ({ signal }) => getForumSummary(eventId, signal) });
  const threads = (data ?? []).slice(0, SUMMARY_LIMIT);

  return (
    <section className="community-section card forum-summary" aria-labelledby="forum-summary-heading">
      <h2 id="forum-summary-heading">
        {t('community.forum')} <span className="muted forum-summary__sw" lang="sw">· Majadiliano</span>
      </h2>
      {loading ? (
        <p className="muted" role="status">
          {t('community.loadingDiscussions')}
        </p>
      ) : error ? (
        <div className="community-error" role="alert">
          <p>{t('community.summaryLoadFailed')}</p>
          <Button variant="ghost" className="btn--sm" onClick={() => void refetch()}>
            {t('community.retry')}
          </Button>
        </div>
      ) : threads.length === 0 ? (
        <p className="muted">{t('community.noDiscussions')}</p>
      ) : (
        <ul className="forum-summary__list">
          {threads.map((thread) => (
            <li key={thread._id} className="forum-summary__item">
              <Link className="forum-summary__title" to={paths.forumThread(thread._id)}>
                {shownText(thread.title)}
              </Link>
              <span className="muted forum-summary__meta">
                {t('community.startedBy', { author: displayName(t, thread.user?.username) ?? t('community.unknownAuthor') })} · <TimeAgo value={thread.createdAt} /> ·{' '}
                {repliesLabel(thread.replies ?? 0)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {isRegistered ? (
        <Link className="btn btn--secondary btn--sm forum-summary__cta" to={paths.forums(eventId)}>
          {t('community.viewForums')}
        </Link>
      ) : (
        <p className="muted forum-summary__note">
          {isLoggedIn ? (
            t('community.forumsForAttendees')
          ) : (
            <RichText id="community.loginToJoinForums" parts={{ link: <Link to={paths.login}>{t('community.logIn')}</Link> }} />
          )}
        </p>
      )}
    </section>
  );
}
