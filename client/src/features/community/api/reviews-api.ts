/* Reviews of an event (server/src/modules/community/reviews.routes.ts). */
import { api } from '../../../lib/api-client';
import type { EventReview, ReviewList } from '../types';

const seg = (value: string) => encodeURIComponent(value);

/** GET /api/reviews/event/:eventId (public) -> {reviews, average, count}, newest first. */
export async function getReviews(eventId: string, signal?: AbortSignal): Promise<ReviewList> {
  const { data } = await api.get<Partial<ReviewList>>(`/reviews/event/${seg(eventId)}`, { signal });
  const reviews = Array.isArray(data?.reviews) ? data.reviews : [];
  return {
    reviews,
    average: typeof data?.average === 'number' ? data.average : averageOf(reviews),
    count: typeof data?.count === 'number' ? data.count : reviews.length,
  };
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

/** Mean rating with one decimal (0 without reviews), as the server computes it. */
export function averageOf(reviews: ReadonlyArray<Pick<EventReview, 'rating' | 'hidden'>>): number {
  // Reviews a moderator hid do not count, as on the server.
  const rated = reviews.filter((review) => !review.hidden);
  if (rated.length === 0) return 0;
  const sum = rated.reduce((total, review) => total + review.rating, 0);
  return Math.round((sum / rated.length) * 10) / 10;
}
