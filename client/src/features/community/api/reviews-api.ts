/* Reviews of an event (server/src/modules/community/reviews.routes.ts). */
import { api } from '../../../lib/api-client';
import { pagePath } from '../../../lib/page-path';
import type { ListPage } from '../../../hooks/use-paged-list';
import type { EventReview } from '../types';

const seg = (value: string) => encodeURIComponent(value);

/** One page of an event's reviews, with the average of them all (GET /api/reviews/event/:eventId/paged). */
/** Why the caller may not review (GET …/paged `eligibility.reason`); null when they may. */
export type ReviewBlock = 'sign_in' | 'restricted' | 'no_ticket' | 'too_early' | 'already_reviewed';

export interface ReviewPage extends ListPage<EventReview> {
  average: number;
  /** Whether the caller may add a review (absent from older servers: then the form is shown). */
  eligibility?: { canReview: boolean; reason: ReviewBlock | null };
}

/** GET /api/reviews/event/:eventId/paged (public) -> one page of the reviews, newest first, and the average of all. */
export async function getReviewPage(eventId: string, cursor: string | null, options: { signal?: AbortSignal; limit?: number } = {}): Promise<ReviewPage> {
  const { data } = await api.get<ReviewPage>(pagePath(`/reviews/event/${seg(eventId)}/paged`, cursor, { limit: options.limit?.toString() }), { signal: options.signal });
  return data;
}

export interface ReviewInput {
  content: string;
  rating: number;
}

/**
 * POST /api/reviews/add (auth) {content, rating, eventId, userId} -> 201 {status, review, msg}.
 * Refusals are 4xx `{status:false, msg}` (not registered, already reviewed, too early).
 */
export async function addReview(input: ReviewInput & { eventId: string; userId: string }): Promise<{ review: EventReview; msg?: string }> {
  const { data } = await api.post<{ status: boolean; review: EventReview; msg?: string }>('/reviews/add', input);
  return { review: data.review, msg: data.msg };
}

/** PUT /api/reviews/:id (author) {content, rating, userId} -> {review}. */
export async function updateReview(reviewId: string, input: ReviewInput & { userId: string }): Promise<EventReview> {
  const { data } = await api.put<{ review: EventReview }>(`/reviews/${seg(reviewId)}`, input);
  return data.review;
}

/** POST /api/reviews/:id/reply (the event's organiser, once) {content} -> 201 {review}. */
export async function replyToReview(reviewId: string, content: string): Promise<EventReview> {
  const { data } = await api.post<{ review: EventReview }>(`/reviews/${seg(reviewId)}/reply`, { content });
  return data.review;
}

/** DELETE /api/reviews/:id (author or admin) -> {msg}. */
export async function deleteReview(reviewId: string): Promise<void> {
  await api.delete(`/reviews/${seg(reviewId)}`);
}
