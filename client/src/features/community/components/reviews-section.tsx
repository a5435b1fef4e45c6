/*
 * EVENT PAGE › Reviews (docs/product.md /events/{id}, shown once the event has taken place). Average and
 * count, newest first; registered attendees add one review (rating 1-5, default 1); the server's
 * refusal message is shown as is. Only the author sees Edit (which becomes Save) and Delete.
 */
import { REVIEW_MAX_LENGTH } from '@tukio/shared/limits';
import { useState } from 'react';
import { TextAreaField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { useFetch } from '../../../hooks/use-fetch';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../hooks/use-session';
import { addReview, averageOf, deleteReview, getReviews, updateReview } from '../api/reviews-api';
import { useEntryEditing, type EntryItemProps } from '../hooks/use-entry-editing';
import { useSignedInSubmit } from '../hooks/use-signed-in-submit';
import type { EventReview, ReviewList } from '../types';
import { CommunityEntry, EntryList } from './community-entry';
import { CommunityForm, SectionLoadState } from './community-section-parts';
import { StarRatingDisplay, StarRatingInput } from './star-rating';
import '../community.css';

const DEFAULT_RATING = 1;

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
      {loading || error ? (
        <SectionLoadState noun="reviews" loading={loading} onRetry={reload} />
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
            <EntryList
              entries={reviews}
              Item={ReviewItem}
              onUpdated={(updated) => change((list) => list.map((item) => (item._id === updated._id ? updated : item)))}
              onDeleted={(id) => change((list) => list.filter((item) => item._id !== id))}
            />
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
  const { isLoggedIn, error, pending, submit } = useSignedInSubmit();
  const [rating, setRating] = useState(DEFAULT_RATING);
  const [content, setContent] = useState('');

  return (
    <CommunityForm
      onSubmit={(event) =>
        void submit(event, {
          send: async (userId) => {
            const { review, msg } = await addReview({ eventId, userId, rating, content: content.trim() });
            onAdded(review);
            setRating(DEFAULT_RATING);
            setContent('');
            notify.success(msg || 'Review added successfully.');
          },
          fallback: 'Could not add your review. Please try again.',
        })
      }
      labelledBy="review-form-heading"
      label="Submit Review"
      pending={pending}
      loadingText="Submitting…"
      isLoggedIn={isLoggedIn}
      action="review"
    >
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
    </CommunityForm>
  );
}

function ReviewItem(item: EntryItemProps<EventReview>) {
  const { entry: review, userId } = item;
  const editing = useEntryEditing(item, {
    noun: 'review',
    initialDraft: () => ({ content: review.content, rating: review.rating }),
    focusSelector: 'input:checked',
    isUnchanged: (draft) => draft.content.trim() === review.content && draft.rating === review.rating,
    update: (draft) => updateReview(review._id, { content: draft.content.trim(), rating: draft.rating, userId }),
    destroy: () => deleteReview(review._id),
  });
  const { draft, setDraft, error, saving } = editing;

  return (
    <CommunityEntry
      editing={editing}
      editFormClassName="form entry__edit"
      editor={
        <>
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
        </>
      }
      view={
        <>
          <StarRatingDisplay value={review.rating} size="sm" />
          {review.content ? <p className="entry__text">{review.content}</p> : null}
        </>
      }
    />
  );
}
