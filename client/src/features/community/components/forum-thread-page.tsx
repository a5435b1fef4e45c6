/*
 * /forum/{threadId} (docs/product.md): one thread with nested replies, its top-level posts a page at a time
 * ("Load more" for older ones), each with the newest few of its replies, two levels down.
 *  - a reply box ('Changia...') for top-level posts; Reply (top-level posts only) opens an inline
 *    box with Post and Cancel Reply; a new post goes to the top of its list
 *  - under a post whose replies are not all shown, 'View n more replies' loads the next page of them
 *    (each with the newest of its own replies); a failure is toasted and the button stays
 *  - up/down votes show the caller's own vote (aria-pressed) and the net count
 *  - Delete for the author only, after confirmation
 *  - failures of post, vote and delete are toasted and nothing typed is lost
 *  - loading, logged-out, missing-thread and load-failure states all render
 */
import { useQuery } from '@tanstack/react-query';
import { POST_MAX_LENGTH } from '@tukio/shared/limits';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { HiddenNote, ReportButton } from '../../../components/moderation/report-button';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { PageLoader } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { usePagedList, type ListPage } from '../../../hooks/use-paged-list';
import { LoadMore } from '../../../components/ui/load-more';
import { getErrorMessage, getErrorStatus } from '../../../lib/errors';
import { useSession } from '../../../hooks/use-session';
import { useT } from '../../../lib/i18n';
import { addPost, deletePost, getEventRef, getPostReplies, getThreadPosts, votePost } from '../api/forums-api';
import { isRegisteredFor } from '../lib/event-status';
import { shownText } from '../lib/placeholders';
import { appendReplies, insertPost, removePost, updatePost } from '../lib/post-tree';
import type { ForumPost } from '../types';
import { ForumLoginNotice, ForumRegisterNotice } from './forum-login-notice';
import { repliesLabel } from '../lib/time';
import { TimeAgo } from './time-ago';
import '../community.css';
import { displayName } from '../../../lib/display-name';

/** Lists are indented up to this depth (top level = 0); deeper replies, loaded on request, line up with their parent. */
export const VISIBLE_DEPTH = 3;
/** Reply buttons only on posts shallower than this (i.e. top-level posts). */
export const REPLY_DEPTH = 1;

interface ThreadActions {
  userId: string;
  canPost: boolean;
  replyTo: string | null;
  setReplyTo: (postId: string | null) => void;
  submit: (content: string, parentId: string | null) => Promise<void>;
  vote: (postId: string, direction: 'up' | 'down') => Promise<void>;
  remove: (postId: string) => Promise<void>;
  /** Loads the page of `postId`'s replies after `cursor` (null: the newest) into the tree; resolves to the page. */
  loadReplies: (postId: string, cursor: string | null) => Promise<ListPage<ForumPost>>;
  freshIds: ReadonlySet<string>;
}

const ThreadContext = createContext<ThreadActions | null>(null);

function useThreadActions(): ThreadActions {
  const actions = use(ThreadContext);
  if (!actions) throw new Error('Post components must be rendered inside a thread.');
  return actions;
}

export function ForumThreadPage({ threadId }: { threadId: string }) {
  const t = useT();
  const { user, isLoggedIn } = useSession();
  const userId = isLoggedIn && user ? user._id : null;
  // The tree carries the caller's own votes, so another user means another request.
  const listKey = userId ? `forum-thread:${threadId}:${userId}` : null;
  // The first page brings the thread's head and how many posts the whole thread has.
  const posts = usePagedList(listKey, (cursor, signal) => getThreadPosts(threadId, cursor, signal));
  const head = listKey && !posts.loading ? posts.firstPage : undefined;
  const thread = head?.thread;
  // Posts added or deleted here since that head was read (a local change keeps the head's thread object).
  const [countChange, setCountChange] = useState<{ head: object | undefined; n: number }>({ head: undefined, n: 0 });
  const eventId = thread?.event ?? null;
  const event = useQuery({ queryKey: ['event-ref', eventId], queryFn: ({ signal }) => getEventRef(eventId ?? '', signal), enabled: Boolean(eventId) });
  const status = getErrorStatus(posts.error);
  const missing = status === 404 || status === 400;
  useDocumentTitle(thread ? shownText(thread.title) : t(missing ? 'community.discussionNotFound' : 'community.discussion'));

  let body: ReactNode;
  if (!userId) {
    body = (
      <>
        <h1>{t('community.discussion')}</h1>
        <ForumLoginNotice />
      </>
    );
  } else if (posts.loading) {
    body = (
      <>
        <h1>{t('community.discussion')}</h1>
        <PageLoader label={t('community.loadingDiscussion')} />
      </>
    );
  } else if (missing) {
    body = (
      <div className="status-page forum-thread__missing">
        <h1>{t('community.discussionNotFound')}</h1>
        <p>{t('community.threadMissing')}</p>
        <div className="status-page__actions">
          <Link className="btn btn--primary" to={paths.events}>
            {t('community.browseEvents')}
          </Link>
        </div>
      </div>
    );
  } else if (posts.error || !thread || !head) {
    body = (
      <>
        <h1>{t('community.discussion')}</h1>
        <div className="community-error" role="alert">
          <p>{t('community.discussionLoadFailed')}</p>
          <Button variant="ghost" className="btn--sm" onClick={posts.reload}>
            {t('community.retry')}
          </Button>
        </div>
      </>
    );
  } else {
    body = (
      <ThreadView
        userId={userId}
        threadId={thread._id}
        title={thread.title}
        eventId={thread.event}
        author={displayName(t, thread.user?.username)}
        authorId={thread.user?._id}
        hidden={thread.hidden}
        hiddenReason={thread.hiddenReason}
        createdAt={thread.createdAt}
        posts={posts.items}
        postCount={Math.max(0, head.posts + (countChange.head === thread ? countChange.n : 0))}
        // Registration unknown (event not loaded yet / failed): allow, the server decides.
        canPost={!event.data || isRegisteredFor(event.data, userId)}
        onPostsChange={(update, change) => {
          posts.update(update, change.topLevel);
          setCountChange((current) => ({ head: thread, n: (current.head === thread ? current.n : 0) + change.visible }));
        }}
        more={<LoadMore shown={posts.items.length} total={posts.total} hasMore={posts.hasMore} loading={posts.loadingMore} error={posts.loadMoreError} onLoadMore={posts.loadMore} />}
      />
    );
  }

  return <div className="page page--narrow forum-thread">{body}</div>;
}

function ThreadView({
  userId,
  threadId,
  title,
  eventId,
  author,
  authorId,
  hidden,
  hiddenReason,
  createdAt,
  posts,
  postCount,
  canPost,
  onPostsChange,
  more,
}: {
  userId: string;
  threadId: string;
  title: string;
  eventId: string;
  author: string | undefined;
  authorId?: string | undefined;
  hidden?: boolean | undefined;
  hiddenReason?: string | undefined;
  createdAt: string | undefined;
  /** The top-level posts loaded so far, each with its reply tree. */
  posts: ForumPost[];
  /** Visible posts in the whole thread, replies included. */
  postCount: number;
  canPost: boolean;
  /** A local change of the tree, with how it moves the counts of top-level and of visible posts. */
  onPostsChange: (update: (posts: ForumPost[]) => ForumPost[], change: { topLevel: number; visible: number }) => void;
  /** The foot of the list: how many top-level posts are shown, and "Load more". */
  more: ReactNode;
}) {
  const t = useT();
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const [freshIds, setFreshIds] = useState<ReadonlySet<string>>(() => new Set());
  const repliesHeadingRef = useRef<HTMLHeadingElement>(null);
  const total = postCount;

  const submit = useCallback(
    async (content: string, parentId: string | null) => {
      const post = await addPost({ content, threadId, parentId, userId });
      onPostsChange((current) => insertPost(current, { ...post, replies: post.replies ?? [] }), { topLevel: post.parent === null ? 1 : 0, visible: 1 });
      setFreshIds((current) => new Set(current).add(post._id));
    },
    [onPostsChange, threadId, userId],
  );

  const vote = useCallback(
    async (postId: string, direction: 'up' | 'down') => {
      const result = await votePost(postId, userId, direction);
      onPostsChange((current) => updatePost(current, postId, result), { topLevel: 0, visible: 0 });
    },
    [onPostsChange, userId],
  );

  const remove = useCallback(
    async (postId: string) => {
      await deletePost(postId, userId);
      // A top-level post without replies leaves the list; one with replies stays as a placeholder.
      const topLevel = posts.find((post) => post._id === postId);
      onPostsChange((current) => removePost(current, postId), { topLevel: topLevel && topLevel.replyCount === 0 ? -1 : 0, visible: -1 });
      setReplyTo((current) => (current === postId ? null : current));
      repliesHeadingRef.current?.focus();
    },
    [onPostsChange, posts, userId],
  );

  const loadReplies = useCallback(
    async (postId: string, cursor: string | null) => {
      const page = await getPostReplies(postId, cursor);
      // Loading shows posts that were already counted: the thread's counts stay.
      onPostsChange((current) => appendReplies(current, postId, page.items, page.total), { topLevel: 0, visible: 0 });
      return page;
    },
    [onPostsChange],
  );

  const actions = useMemo<ThreadActions>(
    () => ({ userId, canPost, replyTo, setReplyTo, submit, vote, remove, loadReplies, freshIds }),
    [userId, canPost, replyTo, submit, vote, remove, loadReplies, freshIds],
  );

  return (
    <ThreadContext value={actions}>
      <nav className="forum-thread__back" aria-label={t('community.breadcrumb')}>
        <Link to={paths.forums(eventId)}>{t('community.allDiscussions')}</Link>
      </nav>
      <header className="forum-thread__header">
        <p className="eyebrow" lang="sw">
          Majadiliano
        </p>
        <h1>{shownText(title)}</h1>
        <p className="muted forum-thread__meta">
          {author ? `${t('community.startedBy', { author })} · ` : null}
          <TimeAgo value={createdAt} />
          {createdAt ? ' · ' : null}
          {repliesLabel(total)}
          {authorId && authorId !== userId ? (
            <>
              {' · '}
              <ReportButton kind="thread" id={threadId} authorName={author} />
            </>
          ) : null}
        </p>
        <HiddenNote hidden={hidden} reason={hiddenReason} />
      </header>

      <section className="card forum-thread__compose" aria-label={t('community.addToDiscussion')}>
        {canPost ? (
          <PostComposer parentId={null} label={t('community.joinDiscussion')} />
        ) : (
          <ForumRegisterNotice eventId={eventId} />
        )}
      </section>

      <section className="forum-thread__posts" aria-labelledby="replies-heading">
        <h2 id="replies-heading" ref={repliesHeadingRef} tabIndex={-1}>
          {t('community.repliesHeading')} <span className="community-section__count">({total})</span>
        </h2>
        {posts.length === 0 ? (
          <p className="empty-state">{t('community.noReplies')}</p>
        ) : (
          <>
            <PostList posts={posts} depth={0} />
            {more}
          </>
        )}
      </section>
    </ThreadContext>
  );
}

function PostList({ posts, depth, focusId = null }: { posts: ForumPost[]; depth: number; focusId?: string | null }) {
  return (
    <ul className={`post-list post-list--depth-${Math.min(depth, VISIBLE_DEPTH + 1)}`}>
      {posts.map((post) => (
        <PostItem key={post._id} post={post} depth={depth} focusOnMount={post._id === focusId} />
      ))}
    </ul>
  );
}

function PostItem({ post, depth, focusOnMount }: { post: ForumPost; depth: number; focusOnMount: boolean }) {
  const t = useT();
  const { userId, canPost, replyTo, setReplyTo, freshIds, remove, loadReplies } = useThreadActions();
  const [deleting, setDeleting] = useState(false);
  // Paging through this post's replies: where the next page starts (null: from the newest, again once
  // the last page was read, so replies added meanwhile are found too), and the first reply a load added.
  const [repliesCursor, setRepliesCursor] = useState<string | null>(null);
  const [loadingReplies, setLoadingReplies] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);
  const articleRef = useRef<HTMLElement>(null);
  const replyButtonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (focusOnMount) articleRef.current?.focus();
  }, [focusOnMount]);

  const username = displayName(t, post.user?.username) ?? t('community.unknownAuthor');
  const isAuthor = !post.deleted && post.user?._id === userId && userId !== '';
  const canReply = depth < REPLY_DEPTH && canPost && !post.deleted;
  const replying = replyTo === post._id;
  const moreReplies = Math.max(0, post.replyCount - post.replies.length);
  const headingId = `post-${post._id}-author`;

  const handleDelete = async () => {
    if (deleting || !window.confirm(t('community.confirmDeletePost'))) return;
    setDeleting(true);
    try {
      await remove(post._id);
      notify.success(t('community.postDeleted'));
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('community.deletePostFailed')));
    } finally {
      // The post may be gone (unmounted) or be a placeholder now; either way it is idle again.
      setDeleting(false);
    }
  };

  const showMoreReplies = async () => {
    if (loadingReplies) return;
    setLoadingReplies(true);
    const shown = new Set(post.replies.map((reply) => reply._id));
    try {
      const page = await loadReplies(post._id, repliesCursor);
      setRepliesCursor(page.nextCursor);
      // Keyboard and screen reader users continue at the first reply that appeared.
      setFocusId(page.items.find((reply) => !shown.has(reply._id))?._id ?? null);
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('community.repliesLoadFailed')));
    } finally {
      setLoadingReplies(false);
    }
  };

  const closeReply = () => {
    setReplyTo(null);
    requestAnimationFrame(() => replyButtonRef.current?.focus());
  };

  return (
    <li className={`post${freshIds.has(post._id) ? ' post--fresh' : ''}${post.deleted ? ' post--deleted' : ''}`}>
      <article className="post__body" ref={articleRef} tabIndex={-1} aria-labelledby={headingId}>
        <header className="post__meta">
          <span className="post__author" id={headingId}>
            {post.deleted ? t('community.deletedPost') : username}
          </span>
          <TimeAgo value={post.createdAt} />
        </header>
        <p className={`post__content${post.hidden && post.hiddenReason === undefined ? ' post__content--hidden' : ''}`}>{shownText(post.content)}</p>
        <HiddenNote hidden={post.hidden} reason={post.hiddenReason} />
        <div className="post__actions">
          {post.deleted ? null : <VoteControls post={post} />}
          {canReply ? (
            <button
              ref={replyButtonRef}
              type="button"
              className="btn btn--ghost btn--sm"
              aria-expanded={replying}
              onClick={() => (replying ? closeReply() : setReplyTo(post._id))}
            >
              {t('community.reply')}
            </button>
          ) : null}
          {isAuthor ? (
            <Button
              variant="danger"
              className="btn--sm"
              loading={deleting}
              loadingText={t('community.deleting')}
              onClick={() => void handleDelete()}
            >
              {t('community.delete')}
              <span className="visually-hidden"> {t('community.nounPost')}</span>
            </Button>
          ) : null}
          {!post.deleted && !isAuthor && userId ? <ReportButton kind="post" id={post._id} authorName={username} /> : null}
        </div>
        {replying ? (
          <PostComposer parentId={post._id} label={t('community.replyTo', { username })} onCancel={closeReply} autoFocus />
        ) : null}
      </article>
      {post.replies.length === 0 ? null : <PostList posts={post.replies} depth={depth + 1} focusId={focusId} />}
      {moreReplies === 0 ? null : (
        <Button variant="ghost" className="btn--sm post__more" loading={loadingReplies} loadingText={t('community.loadingReplies')} onClick={() => void showMoreReplies()}>
          {t('community.viewMoreReplies', { count: moreReplies })}
        </Button>
      )}
    </li>
  );
}

function VoteControls({ post }: { post: ForumPost }) {
  const t = useT();
  const { vote } = useThreadActions();
  const [pending, setPending] = useState(false);

  const cast = async (direction: 'up' | 'down') => {
    if (pending) return;
    setPending(true);
    try {
      await vote(post._id, direction);
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('community.voteFailed')));
    } finally {
      setPending(false);
    }
  };

  const upLabel = t(post.myVote === 1 ? 'community.upvoted' : 'community.upvote');
  const downLabel = t(post.myVote === -1 ? 'community.downvoted' : 'community.downvote');

  return (
    <div className="vote" role="group" aria-label={t('community.votesFor', { username: displayName(t, post.user?.username) ?? t('community.unknownAuthorLower') })} aria-busy={pending || undefined}>
      <button
        type="button"
        className="vote__button vote__button--up"
        aria-label={t('community.upvote')}
        title={upLabel}
        aria-pressed={post.myVote === 1}
        disabled={pending}
        onClick={() => void cast('up')}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 5l7 9h-4.5v5h-5v-5H5z" />
        </svg>
      </button>
      <span className="vote__count" aria-live="polite">
        {post.upvotes}
        <span className="visually-hidden"> {t('community.votes', { count: Math.abs(post.upvotes) })}</span>
      </span>
      <button
        type="button"
        className="vote__button vote__button--down"
        aria-label={t('community.downvote')}
        title={downLabel}
        aria-pressed={post.myVote === -1}
        disabled={pending}
        onClick={() => void cast('down')}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 19l-7-9h4.5V5h5v5H19z" />
        </svg>
      </button>
    </div>
  );
}

function PostComposer({
  parentId,
  label,
  onCancel,
  autoFocus = false,
}: {
  parentId: string | null;
  label: string;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const t = useT();
  const { submit } = useThreadActions();
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const send = async () => {
    if (pending) return;
    const text = content.trim();
    // docs/product.md: a post is sent only if its text is non-empty.
    if (text === '') {
      setError(t('community.postEmpty'));
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    try {
      await submit(text, parentId);
      setContent('');
      onCancel?.();
    } catch (failure) {
      // The text stays in the box so nothing is lost.
      const message = getErrorMessage(failure, t('community.replyFailed'));
      setError(message);
      notify.error(message);
    } finally {
      setPending(false);
    }
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send();
  };

  return (
    <form className={`form post-composer${parentId ? ' post-composer--inline' : ''}`} onSubmit={handleSubmit} noValidate>
      <TextAreaField
        ref={inputRef}
        label={label}
        name="content"
        rows={parentId ? 3 : 4}
        maxLength={POST_MAX_LENGTH}
        placeholder="Changia..." // Kiswahili in both languages, as the forum's name
        value={content}
        error={error}
        hint={parentId ? undefined : t('community.composerHint')}
        onChange={(event) => {
          setContent(event.target.value);
          if (error) setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void send();
          } else if (event.key === 'Escape' && onCancel && !pending) {
            onCancel();
          }
        }}
      />
      <div className="button-row">
        <Button type="submit" className="btn--sm" loading={pending} loadingText={t('community.posting')}>
          {t('community.post')}
        </Button>
        {onCancel ? (
          <Button variant="ghost" className="btn--sm" disabled={pending} onClick={onCancel}>
            {t('community.cancelReply')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
