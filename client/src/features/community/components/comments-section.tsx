/*
 * EVENT PAGE › Comments (SPEC §2 /events/{id}, always shown). Oldest first; any signed-in user can
 * comment; only the author sees Edit (which becomes Save) and Delete.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { useFetch } from '../../../hooks/use-fetch';
import { getErrorMessage } from '../../../lib/errors';
import { useSession } from '../../auth/hooks/use-session';
import { addComment, deleteComment, getComments, updateComment } from '../api/comments-api';
import { isEdited } from '../lib/time';
import { useLoginRedirect } from '../lib/use-login-redirect';
import type { EventComment } from '../types';
import { TimeAgo } from './time-ago';
import '../community.css';

export const COMMENT_EMPTY = 'Comment field empty';
export const COMMENT_MAX_LENGTH = 2000;
const DELETE_CONFIRM = 'Are you sure you want to delete your comment?';

export function CommentsSection({ eventId }: { eventId: string }) {
  const { data, error, loading, reload, setData } = useFetch(`comments:${eventId}`, (signal) =>
    getComments(eventId, signal),
  );
  const { user, isLoggedIn } = useSession();
  const comments = data ?? [];

  const replace = (updated: EventComment) =>
    setData((list) => list?.map((comment) => (comment._id === updated._id ? updated : comment)));
  const remove = (id: string) => setData((list) => list?.filter((comment) => comment._id !== id));

  return (
    <section className="community-section card" aria-labelledby="comments-heading">
      <h2 id="comments-heading">
        Comments{data ? <span className="community-section__count"> ({comments.length})</span> : null}
      </h2>
      {loading ? (
        <p className="muted" role="status">
          Loading comments…
        </p>
      ) : error ? (
        <div className="community-error" role="alert">
          <p>Failed to load comments. Please try again.</p>
          <Button variant="ghost" className="btn--sm" onClick={reload}>
            Retry
          </Button>
        </div>
      ) : comments.length === 0 ? (
        <p className="muted">No comments yet. Start the conversation!</p>
      ) : (
        <ul className="entry-list">
          {comments.map((comment) => (
            <CommentItem
              key={comment._id}
              comment={comment}
              isAuthor={Boolean(isLoggedIn && user && comment.user?._id === user._id)}
              userId={user?._id ?? ''}
              onUpdated={replace}
              onDeleted={remove}
            />
          ))}
        </ul>
      )}
      <CommentForm
        eventId={eventId}
        onAdded={(comment) => setData((list) => [...(list ?? []), comment])}
        disabled={loading}
      />
    </section>
  );
}

function CommentForm({
  eventId,
  onAdded,
  disabled,
}: {
  eventId: string;
  onAdded: (comment: EventComment) => void;
  disabled: boolean;
}) {
  const { user, isLoggedIn } = useSession();
  const toLogin = useLoginRedirect();
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    if (!isLoggedIn || !user) {
      toLogin();
      return;
    }
    if (content.trim() === '') {
      setError(COMMENT_EMPTY);
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    try {
      const comment = await addComment({ eventId, userId: user._id, content: content.trim() });
      onAdded(comment);
      setContent('');
    } catch (failure) {
      // The text stays in the box so nothing is lost.
      setError(getErrorMessage(failure, 'Could not post your comment. Please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="form community-form" onSubmit={handleSubmit} noValidate>
      <TextAreaField
        ref={inputRef}
        label="Add a comment"
        name="comment"
        rows={3}
        maxLength={COMMENT_MAX_LENGTH}
        placeholder="Share your thoughts about this event"
        value={content}
        error={error}
        onChange={(event) => {
          setContent(event.target.value);
          if (error) setError(null);
        }}
      />
      <div className="button-row">
        <Button type="submit" loading={pending} loadingText="Posting…" disabled={disabled}>
          Post Comment
        </Button>
        {!isLoggedIn ? (
          <span className="muted community-form__hint">
            <Link to={paths.login}>Log in</Link> to comment.
          </span>
        ) : null}
      </div>
    </form>
  );
}

function CommentItem({
  comment,
  isAuthor,
  userId,
  onUpdated,
  onDeleted,
}: {
  comment: EventComment;
  isAuthor: boolean;
  userId: string;
  onUpdated: (comment: EventComment) => void;
  onDeleted: (id: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(comment.content);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const editRef = useRef<HTMLTextAreaElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);

  const startEditing = () => {
    setDraft(comment.content);
    setError(null);
    setEditing(true);
    requestAnimationFrame(() => editRef.current?.focus());
  };

  const stopEditing = () => {
    setEditing(false);
    setError(null);
    requestAnimationFrame(() => actionsRef.current?.querySelector('button')?.focus());
  };

  const save = async () => {
    if (saving) return;
    const text = draft.trim();
    if (text === '') {
      setError(COMMENT_EMPTY);
      editRef.current?.focus();
      return;
    }
    if (text === comment.content) {
      stopEditing();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      onUpdated(await updateComment(comment._id, text));
      stopEditing();
    } catch (failure) {
      const message = getErrorMessage(failure, 'Could not save your comment. Please try again.');
      setError(message);
      notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (deleting || !window.confirm(DELETE_CONFIRM)) return;
    setDeleting(true);
    try {
      await deleteComment(comment._id, userId);
      onDeleted(comment._id);
    } catch (failure) {
      notify.error(getErrorMessage(failure, 'Could not delete your comment. Please try again.'));
      setDeleting(false);
    }
  };

  const edited = isEdited(comment.createdAt, comment.updatedAt);

  return (
    <li className="entry">
      <article aria-label={`Comment by ${comment.user?.username ?? 'unknown'}`}>
        <header className="entry__meta">
          <span className="entry__author">{comment.user?.username ?? 'Unknown'}</span>
          <TimeAgo value={comment.createdAt} />
          {edited ? <span className="muted">(edited)</span> : null}
        </header>
        {editing ? (
          <form
            className="entry__edit"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
            noValidate
          >
            <TextAreaField
              ref={editRef}
              label="Edit your comment"
              rows={3}
              maxLength={COMMENT_MAX_LENGTH}
              value={draft}
              error={error}
              onChange={(event) => {
                setDraft(event.target.value);
                if (error) setError(null);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape') stopEditing();
              }}
            />
          </form>
        ) : (
          <p className="entry__text">{comment.content}</p>
        )}
        {isAuthor ? (
          <div className="button-row entry__actions" ref={actionsRef}>
            <Button
              variant="secondary"
              className="btn--sm"
              loading={saving}
              loadingText="Saving…"
              disabled={deleting}
              onClick={editing ? () => void save() : startEditing}
            >
              {editing ? 'Save' : 'Edit'}
              <span className="visually-hidden"> comment</span>
            </Button>
            {editing ? (
              <Button variant="ghost" className="btn--sm" disabled={saving} onClick={stopEditing}>
                Cancel
              </Button>
            ) : (
              <Button
                variant="danger"
                className="btn--sm"
                loading={deleting}
                loadingText="Deleting…"
                onClick={() => void remove()}
              >
                Delete<span className="visually-hidden"> comment</span>
              </Button>
            )}
          </div>
        ) : null}
      </article>
    </li>
  );
}
