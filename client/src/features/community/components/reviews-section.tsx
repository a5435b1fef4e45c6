/*
 * EVENT PAGE › Reviews (docs/product.md /events/{id}, shown once the event has taken place). Average and
 * count, newest first a page at a time ("Load more"); registered attendees add one review (rating 1-5, default 1); the server's
 * refusal message is shown as is. Only the author sees Edit (which becomes Save) and Delete. Whoever may not
 * review (a visitor, someone without a ticket, a restricted account: the page's `eligibility`) reads why
 * instead of the form.
 */
import { useQuery } from '@tanstack/react-query';
import { REVIEW_MAX_LENGTH } from '@tukio/shared/limits';
import { createContext, use, useCallback, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { usePagedList } from '../../../hooks/use-paged-list';
import { LoadMore } from '../../../components/ui/load-more';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../hooks/use-session';
import { getEventRef } from '../api/forums-api';
import { addReview, deleteReview, getReviewPage, replyToReview, updateReview, type ReviewBlock } from '../api/reviews-api';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { useEntryEditing, type EntryItemProps } from '../hooks/use-entry-editing';
import { useSignedInSubmit } from '../hooks/use-signed-in-submit';
import { shownText } from '../lib/placeholders';
import type { EventReview } from '../types';
import { CommunityEntry, EntryList } from './community-entry';
import { CommunityForm, SectionLoadState } from './community-section-parts';
import { StarRatingDisplay, StarRatingInput } from './star-rating';
import '../community.css';
import { displayName } from '../../../lib/display-name';

const DEFAULT_RATING = 1;

/** The event's organiser id (known only to signed-in viewers): they may answer each review once. */
const OrganiserContext = createContext<string | undefined>(undefined);

export function ReviewsSection({ eventId }: { eventId: string }) {
  const { user, isLoggedIn } = useSession();
  // Every page carries the average of the whole list and whether the caller may review (so the key names them);
  // a change here asks the server for the average again.
  const list = usePagedList(`reviews:${eventId}:${isLoggedIn && user ? user._id : 'visitor'}`, (cursor, signal) => getReviewPage(eventId, cursor, { signal }));
  const { items: reviews, error, loading, reload, update } = list;
  const [refreshed, setRefreshed] = useState<{ eventId: string; average: number } | null>(null);
  const average = refreshed?.eventId === eventId ? refreshed.average : (list.lastPage?.average ?? 0);
  const refreshAverage = useCallback(() => {
    getReviewPage(eventId, null, { limit: 1 }).then((page) => setRefreshed({ eventId, average: page.average }), () => undefined);
  }, [eventId]);
  const t = useT();
  // Only a signed-in viewer could be the organiser; visitors skip the lookup.
  const organiser = useQuery({ queryKey: ['event-ref', eventId], queryFn: ({ signal }) => getEventRef(eventId, signal), enabled: isLoggedIn });
  const mine = isLoggedIn && user ? reviews.find((review) => review.user?._id === user._id) : undefined;

  const change = (edit: (reviews: EventReview[]) => EventReview[], totalDelta = 0) => {
    update(edit, totalDelta);
    refreshAverage();
  };

  return (
    <OrganiserContext value={organiser.data?.user}>
      <section className="community-section card" aria-labelledby="reviews-heading">
        <h2 id="reviews-heading">{t('community.reviews')}</h2>
        {loading || error ? (
          <SectionLoadState noun="reviews" loading={loading} onRetry={reload} />
        ) : (
          <>
            <div className="review-summary">
              <span className="review-summary__average" aria-hidden="true">
                {average.toFixed(1)}
              </span>
              <StarRatingDisplay value={average} size="lg" />
              <span className="muted">{t('community.reviewCount', { count: list.total })}</span>
            </div>
            {reviews.length === 0 ? (
              <p className="muted">{t('community.noReviews')}</p>
            ) : (
              <>
                <EntryList
                  entries={reviews}
                  Item={ReviewItem}
                  onUpdated={(updated) => change((items) => items.map((item) => (item._id === updated._id ? updated : item)))}
                  onDeleted={(id) => change((items) => items.filter((item) => item._id !== id), -1)}
                />
                <LoadMore shown={reviews.length} total={list.total} hasMore={list.hasMore} loading={list.loadingMore} error={list.loadMoreError} onLoadMore={list.loadMore} />
              </>
            )}
            {mine || list.lastPage?.eligibility?.reason === 'already_reviewed' ? (
              <p className="muted">{t('community.thanksForReview')}</p>
            ) : list.lastPage?.eligibility && !list.lastPage.eligibility.canReview ? (
              <ReviewBlockedNotice reason={list.lastPage.eligibility.reason} />
            ) : (
              <ReviewForm eventId={eventId} onAdded={(review) => change((items) => [review, ...items], 1)} />
            )}
          </>
        )}
      </section>
    </OrganiserContext>
  );
}

/** What someone who may not review reads instead of the form. */
function ReviewBlockedNotice({ reason }: { reason: ReviewBlock | null }) {
  const t = useT();
  if (reason === 'sign_in') {
    return (
      <div className="notice review-blocked" role="status">
        <p>{t('community.reviewBlockedSignIn')}</p>
        <Link className="btn btn--primary btn--sm" to={paths.login}>
          {t('community.login')}
        </Link>
      </div>
    );
  }
  const text =
    reason === 'restricted'
      ? t('community.reviewBlockedRestricted')
      : reason === 'too_early'
        ? t('community.reviewBlockedTooEarly')
        : t('community.reviewBlockedNoTicket');
  return (
    <div className="notice review-blocked" role="status">
      <p>{text}</p>
    </div>
  );
}

function ReviewForm({ eventId, onAdded }: { eventId: string; onAdded: (review: EventReview) => void }) {
  const t = useT();
  const { isLoggedIn, error, pending, submit } = useSignedInSubmit();
  const [rating, setRating] = useState(DEFAULT_RATING);
  const [content, setContent] = useState('');

  return (
    <CommunityForm
      onSubmit={(event) =>
        void submit(event, {
          send: async (userId) => {
            // The server's success message is this same sentence in English: say it in the reader's language.
            const { review } = await addReview({ eventId, userId, rating, content: content.trim() });
            onAdded(review);
            setRating(DEFAULT_RATING);
            setContent('');
            notify.success(t('community.reviewAdded'));
          },
          fallback: t('community.reviewFailed'),
        })
      }
      labelledBy="review-form-heading"
      label={t('community.submitReview')}
      pending={pending}
      loadingText={t('community.submitting')}
      isLoggedIn={isLoggedIn}
      action="review"
    >
      <h3 id="review-form-heading">{t('community.writeReview')}</h3>
      <StarRatingInput value={rating} onChange={setRating} legend={t('community.yourRating')} disabled={pending} />
      <TextAreaField
        label={t('community.yourReview')}
        name="review"
        rows={3}
        maxLength={REVIEW_MAX_LENGTH}
        placeholder={t('community.reviewPlaceholder')}
        value={content}
        onChange={(event) => setContent(event.target.value)}
      />
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
    </CommunityForm>
  );
}

function ReviewItem(item: EntryItemProps<EventReview>) {
  const t = useT();
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
            legend={t('community.editRating')}
            disabled={saving}
          />
          <TextAreaField
            label={t('community.editReview')}
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
          {review.verifiedAttendee ? <span className="badge badge--success review__verified">{t('community.verifiedAttendee')}</span> : null}
          {review.content ? <p className="entry__text">{shownText(review.content)}</p> : null}
          <OrganiserReply review={review} userId={userId} onUpdated={item.onUpdated} />
        </>
      }
    />
  );
}

/** The organiser's public answer under a review, or (for the organiser, once) the form to write it. */
function OrganiserReply({ review, userId, onUpdated }: { review: EventReview; userId: string; onUpdated: (review: EventReview) => void }) {
  const t = useT();
  const organiserId = use(OrganiserContext);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (review.organiserReply) {
    return (
      <div className="review__reply">
        <p className="review__reply-label">{t('community.organiserAnswer')}</p>
        <p className="entry__text">{review.organiserReply.content}</p>
      </div>
    );
  }
  if (!userId || userId !== organiserId || review.user?._id === userId) return null;
  if (!open) {
    return (
      <Button variant="ghost" className="btn--sm" onClick={() => setOpen(true)}>
        {t('community.answerPublicly')}
        <span className="visually-hidden">{` ${t('community.answerTarget', { username: displayName(t, review.user?.username) ?? t('community.unknownAuthorLower') })}`}</span>
      </Button>
    );
  }
  const send = async () => {
    if (!text.trim()) {
      setError(t('community.answerEmpty'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onUpdated(await replyToReview(review._id, text.trim()));
      notify.success(t('community.answerPublished'));
    } catch (failure) {
      setError(getErrorMessage(failure, t('community.answerFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="form review__reply-form"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      noValidate
    >
      <TextAreaField
        label={t('community.answerLabel')}
        rows={2}
        maxLength={REVIEW_MAX_LENGTH}
        value={text}
        error={error}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="button-row">
        <Button type="submit" className="btn--sm" loading={busy} loadingText={t('community.publishing')}>
          {t('community.publishAnswer')}
        </Button>
        <Button variant="ghost" className="btn--sm" disabled={busy} onClick={() => setOpen(false)}>
          {t('community.cancel')}
        </Button>
      </div>
    </form>
  );
}
