/*
 * /forums/{eventId} (docs/product.md): the event's threads, newest first a page at a time, and a form to start one.
 * Reading needs a login; starting a thread needs a ticket for the event (the server decides,
 * the page only hides the form when it already knows the user is not registered).
 */
import { useQuery } from '@tanstack/react-query';
import { THREAD_TITLE_MAX_LENGTH } from '@tukio/shared/limits';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { PageLoader } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { usePagedList } from '../../../hooks/use-paged-list';
import { LoadMore } from '../../../components/ui/load-more';
import { getErrorMessage, getErrorStatus } from '../../../lib/errors';
import { useSession } from '../../../hooks/use-session';
import { RichText, useT } from '../../../lib/i18n';
import { addThread, getEventRef, getThreadPage } from '../api/forums-api';
import { isRegisteredFor } from '../lib/event-status';
import type { ForumThreadListItem } from '../types';
import { ForumLoginNotice, ForumRegisterNotice } from './forum-login-notice';
import { shownText } from '../lib/placeholders';
import { repliesLabel } from '../lib/time';
import { TimeAgo } from './time-ago';
import '../community.css';
import { displayName } from '../../../lib/display-name';

export function ForumThreadsPage({ eventId }: { eventId: string }) {
  const t = useT();
  const { user, isLoggedIn } = useSession();
  const userId = isLoggedIn && user ? user._id : null;
  const event = useQuery({ queryKey: ['event-ref', eventId], queryFn: ({ signal }) => getEventRef(eventId, signal) });
  const threads = usePagedList(userId ? `forum-threads:${eventId}:${userId}` : null, (cursor, signal) => getThreadPage(eventId, cursor, signal));
  useDocumentTitle(event.data?.title ? t('community.forumDocumentTitle', { title: event.data.title }) : t('community.eventForumTitle'));

  const threadsStatus = getErrorStatus(threads.error);
  // The threads call answers 404 for an unknown event (400 for a malformed id).
  const missing = threadsStatus === 404 || threadsStatus === 400;
  // Unknown registration (event not loaded) → show the form and let the server decide.
  const canStart = !event.data || isRegisteredFor(event.data, userId);

  return (
    <div className="page page--narrow forum-page">
      <header className="page-hero forum-page__hero">
        <p className="eyebrow">{t('community.eventForum')}</p>
        {/* Kiswahili in both languages: the forum's name. */}
        <h1 lang="sw">{t('community.forumHeading')}</h1>
        {event.data?.title ? (
          <p className="lead">
            <RichText id="community.discussionsAbout" parts={{ event: <Link to={paths.event(eventId)}>{event.data.title}</Link> }} />
          </p>
        ) : (
          <p className="lead">
            {t('community.forumIntro')} <Link to={paths.event(eventId)}>{t('community.backToEvent')}</Link>
          </p>
        )}
      </header>

      {!userId ? (
        <ForumLoginNotice />
      ) : missing ? (
        <div className="notice" role="alert">
          <p>{t('community.eventMissing')}</p>
          <Link className="btn btn--secondary btn--sm" to={paths.events}>
            {t('community.browseEvents')}
          </Link>
        </div>
      ) : (
        <>
          <section className="card forum-page__start" aria-labelledby="start-thread-heading">
            <h2 id="start-thread-heading">{t('community.startDiscussionHeading')}</h2>
            {canStart ? (
              <NewThreadForm
                eventId={eventId}
                userId={userId}
                onCreated={(thread) =>
                  threads.update((items) => [thread, ...items], 1)
                }
              />
            ) : (
              <ForumRegisterNotice eventId={eventId} />
            )}
          </section>

          <section className="forum-page__threads" aria-labelledby="threads-heading">
            <h2 id="threads-heading">
              {t('community.discussions')}
              {!threads.loading && !threads.error ? <span className="community-section__count"> ({threads.total})</span> : null}
            </h2>
            {threads.loading ? (
              <PageLoader label={t('community.loadingDiscussions')} />
            ) : threads.error ? (
              <div className="community-error" role="alert">
                <p>{t('community.forumLoadError')}</p>
                <Button variant="ghost" className="btn--sm" onClick={threads.reload}>
                  {t('community.retry')}
                </Button>
              </div>
            ) : threads.items.length === 0 ? (
              <p className="empty-state">{t('community.forumEmpty')}</p>
            ) : (
              <>
                <ul className="thread-list">
                  {threads.items.map((thread) => (
                    <ThreadCard key={thread._id} thread={thread} />
                  ))}
                </ul>
                <LoadMore shown={threads.items.length} total={threads.total} hasMore={threads.hasMore} loading={threads.loadingMore} error={threads.loadMoreError} onLoadMore={threads.loadMore} />
              </>
            )}
          </section>
        </>
      )}
    </div>
  );
}

function ThreadCard({ thread }: { thread: ForumThreadListItem }) {
  const t = useT();
  const titleId = `thread-title-${thread._id}`;
  return (
    <li className="thread-card card">
      <h3 className="thread-card__title" id={titleId}>
        {shownText(thread.title)}
      </h3>
      <p className="thread-card__meta muted">
        <span>
          <RichText
            id="community.startedBy"
            parts={{ author: <span className="thread-card__author">{displayName(t, thread.user?.username) ?? t('community.unknownAuthor')}</span> }}
          />
        </span>
        <span aria-hidden="true"> · </span>
        <TimeAgo value={thread.createdAt} />
        <span aria-hidden="true"> · </span>
        <span>{repliesLabel(thread.replies)}</span>
      </p>
      <Link className="btn btn--secondary btn--sm" to={paths.forumThread(thread._id)} aria-describedby={titleId}>
        {t('community.viewDiscussion')}
      </Link>
    </li>
  );
}

function NewThreadForm({
  eventId,
  userId,
  onCreated,
}: {
  eventId: string;
  userId: string;
  onCreated: (thread: ForumThreadListItem) => void;
}) {
  const t = useT();
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    if (title.trim() === '') {
      setError(t('community.titleRequired'));
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    try {
      const thread = await addThread({ title: title.trim(), eventId, userId });
      onCreated(thread);
      setTitle('');
      notify.success(t('community.discussionStarted'));
    } catch (failure) {
      // Keep the title so nothing is lost; show the server's reason (e.g. not registered).
      setError(getErrorMessage(failure, t('community.startFailed')));
      inputRef.current?.focus();
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="form new-thread" onSubmit={handleSubmit} noValidate>
      <TextField
        ref={inputRef}
        label={t('community.discussionTitle')}
        name="title"
        maxLength={THREAD_TITLE_MAX_LENGTH}
        placeholder={t('community.titlePlaceholder')}
        value={title}
        error={error}
        onChange={(event) => {
          setTitle(event.target.value);
          if (error) setError(null);
        }}
      />
      <div className="button-row">
        <Button type="submit" loading={pending} loadingText={t('community.starting')}>
          {t('community.startDiscussion')}
        </Button>
      </div>
    </form>
  );
}
