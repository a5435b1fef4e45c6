/*
 * EVENT PAGE › Reviews (SPEC §2 /events/{id}, shown once the event has taken place). Average and
 * count, newest first; registered attendees add one review (rating 1-5, default 1); the server's
 * refusal message is shown as is. Only the author sees Edit (which becomes Save) and Delete.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { paths } from '../../../config/paths';
import { useFetch } from '../../../hooks/use-fetch';
import { getErrorMessage } from '../../../lib/errors';
import { useSession } from '../../auth/hooks/use-session';
import { addReview, averageOf, deleteReview, getReviews, updateReview } from '../api/reviews-api';
import { isEdited } from '../lib/time';
import { useLoginRedirect } from '../lib/use-login-redirect';
import type { EventReview, ReviewList } from '../types';
import { StarRatingDisplay, StarRatingInput } from './star-rating';
import { TimeAgo } from './time-ago';
import '../community.css';

export const REVIEW_MAX_LENGTH = 2000;
const DEFAULT_RATING = 1;
const DELETE_CONFIRM = 'Are you sure you want to delete your review?';

/** Recomputes the average and count after a local change (the server computes them the same way). */
function withStats(reviews: EventReview[]): ReviewList {
  return { reviews, average: averageOf(reviews), count: reviews.length };
}

export function ReviewsSection({ eventId }: { eventId: string }) {
  const { data, error, loading, reload, setData } = useFetch(`reviews:${eventId}`, (signal) =>
    getReviews(eventId, signal),
  );
  const { user, isLoggedIn } = useSession();
  const reviews = data?.reviews ?? [];
  const mine = isLoggedIn && user ? reviews.find((review) => review.user?._id === user._id) : undefined;

  const change = (update: (reviews: EventReview[]) => EventReview[]) =>
    setData((current) => withStats(update(current?.reviews ?? [])));

  return (
    <section className="community-section card" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">Reviews</h2>
      {loading ? (
        <p className="muted" role="status">
          Loading reviews…
        </p>
      ) : error ? (
        <div className="community-error" role="alert">
          <p>Failed to load reviews. Please try again.</p>
          <Button variant="ghost" className="btn--sm" onClick={reload}>
            Retry
          </Button>
        </div>
      ) : (
        <>
          <div className="review-summary">
            <span className="review-summary__average" aria-hidden="true">
              {(data?.average ?? 0).toFixed(1)}
            </span>
            <StarRatingDisplay value={data?.average ?? 0} size="lg" />
            <span className="muted">
              {data?.count ?? 0} {data?.count === 1 ? 'review' : 'reviews'}
            </span>
          </div>
          {reviews.length === 0 ? (
            <p className="muted">No reviews yet. Attended this event? Tell others how it went.</p>
          ) : (
            <ul className="entry-list">
              {reviews.map((review) => (
                <ReviewItem
                  key={review._id}
                  review={review}
                  isAuthor={Boolean(isLoggedIn && user && review.user?._id === user._id)}
                  userId={user?._id ?? ''}
                  onUpdated={(updated) =>
                    change((list) => list.map((item) => (item._id === updated._id ? updated : item)))
                  }
                  onDeleted={(id) => change((list) => list.filter((item) => item._id !== id))}
                />
              ))}
            </ul>
          )}
          {mine ? (
            <p className="muted">Thanks for reviewing this event. You can edit your review above.</p>
          ) : (
            <ReviewForm eventId={eventId} onAdded={(review) => change((list) => [review, ...list])} />
          )}
        </>
      )}
    </section>
  );
}

function ReviewForm({ eventId, onAdded }: { eventId: string; onAdded: (review: EventReview) => void }) {
  const { user, isLoggedIn } = useSession();
  const toLogin = useLoginRedirect();
  const [rating, setRating] = useState(DEFAULT_RATING);
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    if (!isLoggedIn || !user) {
      toLogin();
      return;
    }
    setPending(true);
    setError(null);
    try {
      const { review, msg } = await addReview({ eventId, userId: user._id, rating, content: content.trim() });
      onAdded(review);
      setRating(DEFAULT_RATING);
      setContent('');
      notify.success(msg || 'Review added successfully.');
    } catch (failure) {
      setError(getErrorMessage(failure, 'Could not add your review. Please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="form community-form" onSubmit={handleSubmit} noValidate aria-labelledby="review-form-heading">
      <h3 id="review-form-heading">Write a review</h3>
      <StarRatingInput value={rating} onChange={setRating} legend="Your rating" disabled={pending} />
      <TextAreaField
        label="Your review"
        name="review"
        rows={3}
        maxLength={REVIEW_MAX_LENGTH}
        placeholder="What did you enjoy? What could be better?"
        value={content}
        onChange={(event) => setContent(event.target.value)}
      />
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <div className="button-row">
        <Button type="submit" loading={pending} loadingText="Submitting…">
          Submit Review
        </Button>
        {!isLoggedIn ? (
          <span className="muted community-form__hint">
            <Link to={paths.login}>Log in</Link> to review.
          </span>
        ) : null}
      </div>
    </form>
  );
}

function ReviewItem({
  review,
  isAuthor,
  userId,
  onUpdated,
  onDeleted,
}: {
  review: EventReview;
  isAuthor: boolean;
  userId: string;
  onUpdated: (review: EventReview) => void;
  onDeleted: (id: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState({ content: review.content, rating: review.rating });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const editRef = useRef<HTMLFormElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);

  const startEditing = () => {
    setDraft({ content: review.content, rating: review.rating });
    setError(null);
    setEditing(true);
    requestAnimationFrame(() => editRef.current?.querySelector<HTMLInputElement>('input:checked')?.focus());
  };

  const stopEditing = () => {
    setEditing(false);
    setError(null);
    requestAnimationFrame(() => actionsRef.current?.querySelector('button')?.focus());
  };

  const save = async () => {
    if (saving) return;
    const content = draft.content.trim();
    if (content === review.content && draft.rating === review.rating) {
      stopEditing();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      onUpdated(await updateReview(review._id, { content, rating: draft.rating, userId }));
      stopEditing();
    } catch (failure) {
      const message = getErrorMessage(failure, 'Could not save your review. Please try again.');
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
      await deleteReview(review._id);
      onDeleted(review._id);
    } catch (failure) {
      notify.error(getErrorMessage(failure, 'Could not delete your review. Please try again.'));
      setDeleting(false);
    }
  };

  return (
    <li className="entry">
      <article aria-label={`Review by ${review.user?.username ?? 'unknown'}`}>
        <header className="entry__meta">
          <span className="entry__author">{review.user?.username ?? 'Unknown'}</span>
          <TimeAgo value={review.createdAt} />
          {isEdited(review.createdAt, review.updatedAt) ? <span className="muted">(edited)</span> : null}
        </header>
        {editing ? (
          <form
            className="form entry__edit"
            ref={editRef}
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') stopEditing();
            }}
            noValidate
          >
            <StarRatingInput
              value={draft.rating}
              onChange={(rating) => setDraft((current) => ({ ...current, rating }))}
              legend="Edit your rating"
              disabled={saving}
            />
            <TextAreaField
              label="Edit your review"
              rows={3}
              maxLength={REVIEW_MAX_LENGTH}
              value={draft.content}
              onChange={(event) => setDraft((current) => ({ ...current, content: event.target.value }))}
            />
            {error ? <FormMessage tone="error">{error}</FormMessage> : null}
          </form>
        ) : (
          <>
            <StarRatingDisplay value={review.rating} size="sm" />
            {review.content ? <p className="entry__text">{review.content}</p> : null}
          </>
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
              <span className="visually-hidden"> review</span>
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
                Delete<span className="visually-hidden"> review</span>
              </Button>
            )}
          </div>
        ) : null}
      </article>
    </li>
  );
}
