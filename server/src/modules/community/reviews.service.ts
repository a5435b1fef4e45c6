import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner, restrictionError } from '../../lib/auth.js';
import { hasStarted } from '../../lib/event-clock.js';
import { toPage, type CursorKey, type Page } from '../../lib/keyset-page.js';
import { countWithinBytes } from '../../lib/page-budget.js';
import type { AuthUser } from '../auth/index.js';
import { ticketRegistrations } from '../tickets/index.js';
import { isUniqueViolation, moderatedText, requireVisibleEvent, userRef } from './community.shared.js';
import { createEventRefsRepository } from './event-refs.repository.js';
import { createReviewsRepository, type ReviewRow } from './reviews.repository.js';
import type { SpamBrakes } from './spam-brakes.js';

export const reviewMessages = {
  notRegistered: 'You must be registered for this event to add a review.',
  duplicate: 'You have already reviewed this event.',
  tooEarly: 'You can review this event after it has taken place.',
  added: 'Review added successfully.',
  deleted: 'Review deleted.',
  notOrganiser: 'Only the organiser of this event can answer its reviews.',
  alreadyAnswered: 'You have already answered this review.',
  notFound: 'Review not found.',
} as const;

export const toReview = (row: ReviewRow, viewer: AuthUser | undefined) => {
  const { text, ...hidden } = moderatedText(row, row.content, viewer);
  return {
    _id: row.id,
    content: text,
    rating: row.rating,
    user: userRef(row),
    event: row.eventId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...hidden,
    /** Checked in at the door with a ticket to the event. */
    verifiedAttendee: row.verifiedAttendee === true,
    organiserReply: row.organiserReply ? { content: row.organiserReply, createdAt: row.organiserRepliedAt!.toISOString() } : null,
  };
};

export type ReviewView = ReturnType<typeof toReview>;

/**
 * Why the caller may not review the event (null when they may): the same checks, in the same order, as
 * POST /api/reviews/add, so the client shows the reason instead of a form that would be refused.
 */
export type ReviewBlock = 'sign_in' | 'restricted' | 'no_ticket' | 'too_early' | 'already_reviewed';
export interface ReviewEligibility {
  canReview: boolean;
  reason: ReviewBlock | null;
}

/** One decimal; 0 when nothing is rated. */
const averageOf = (sum: number, rated: number) => (rated ? Math.round((sum / rated) * 10) / 10 : 0);

export function createReviewsService(deps: { db: Database; now?: () => Date; brakes?: SpamBrakes | undefined }) {
  const reviews = createReviewsRepository(deps.db);
  const eventRefs = createEventRefsRepository(deps.db);
  const registrations = ticketRegistrations(deps.db);
  const now = deps.now ?? (() => new Date());

  /** A review of an event the viewer cannot see is answered like one that does not exist. */
  async function requireReview(id: string, viewer: AuthUser) {
    const review = await reviews.findById(id);
    const notFound = () => AppError.notFound('review_not_found', reviewMessages.notFound);
    if (!review) throw notFound();
    await requireVisibleEvent(eventRefs, review.eventId, viewer, notFound);
    return review;
  }

  async function eligibilityOf(event: { id: string; startsAt: Date }, viewer: AuthUser | undefined): Promise<ReviewEligibility> {
    const blocked = (reason: ReviewBlock): ReviewEligibility => ({ canReview: false, reason });
    if (!viewer) return blocked('sign_in');
    if (restrictionError(viewer, now())) return blocked('restricted');
    if (!(await registrations.isRegistered(event.id, viewer.id))) return blocked('no_ticket');
    if (!hasStarted(event.startsAt, now())) return blocked('too_early');
    if (await reviews.exists(event.id, viewer.id)) return blocked('already_reviewed');
    return { canReview: true, reason: null };
  }

  return {
    /** Reviews newest first, with the average (one decimal; 0 when there are none) and the count. */
    async listForEvent(eventId: string, viewer: AuthUser | undefined) {
      const event = await requireVisibleEvent(eventRefs, eventId, viewer);
      const rows = await reviews.listForEvent(eventId);
      // A review a moderator hid (spam, abuse) keeps its place in the list but not its weight in the average.
      const rated = rows.filter((row) => !row.hiddenAt);
      const total = rated.reduce((sum, row) => sum + row.rating, 0);
      return {
        reviews: rows.map((row) => toReview(row, viewer)),
        average: averageOf(total, rated.length),
        count: rows.length,
        eligibility: await eligibilityOf(event, viewer),
      };
    },

    /** One page of the reviews, newest first, with the average of the whole list. */
    async pageForEvent(
      eventId: string,
      viewer: AuthUser | undefined,
      page: { limit: number; cursor?: CursorKey | undefined },
    ): Promise<Page<ReviewView> & { average: number; eligibility: ReviewEligibility }> {
      const event = await requireVisibleEvent(eventRefs, eventId, viewer);
      const [rows, stats, eligibility] = await Promise.all([
        reviews.pageForEvent(eventId, { limit: page.limit + 1, after: page.cursor }),
        reviews.statsForEvent(eventId),
        eligibilityOf(event, viewer),
      ]);
      const views = rows.map((row) => toReview(row, viewer));
      const sent = countWithinBytes(views, page.limit);
      return {
        ...toPage(rows, sent, stats.total, (row) => [row.createdMicros, row.id]),
        items: views.slice(0, sent),
        average: averageOf(stats.ratingSum, stats.rated),
        eligibility,
      };
    },

    async add(user: AuthUser, input: { eventId: string; content: string; rating: number }): Promise<ReviewView> {
      const event = await requireVisibleEvent(eventRefs, input.eventId, user);
      if (!(await registrations.isRegistered(event.id, user.id))) throw AppError.forbidden('review_not_registered', reviewMessages.notRegistered);
      if (!hasStarted(event.startsAt, now())) throw AppError.forbidden('review_too_early', reviewMessages.tooEarly);
      if (await reviews.exists(event.id, user.id)) throw AppError.conflict('review_duplicate', reviewMessages.duplicate);
      await deps.brakes?.checkRate('review', user);
      const held = input.content ? await deps.brakes?.holdReason(user, input.content, event.id) : null;
      let id: string;
      try {
        id = await reviews.insert({ eventId: event.id, userId: user.id, content: input.content, rating: input.rating });
      } catch (error) {
        // Two submissions racing past the check above: the unique index decides.
        if (isUniqueViolation(error)) throw AppError.conflict('review_duplicate', reviewMessages.duplicate);
        throw error;
      }
      if (held) await deps.brakes!.hold('review', id, user.id, held);
      return toReview(await requireReview(id, user), user);
    },

    async update(user: AuthUser, id: string, changes: { content?: string | undefined; rating?: number | undefined }): Promise<ReviewView> {
      const review = await requireReview(id, user);
      requireOwner(user, review.userId, { code: 'review_edit_not_author', message: 'You can only edit your own reviews.', allowAdmin: false });
      await reviews.update(id, changes);
      return toReview(await requireReview(id, user), user);
    },

    /** The organiser answers a review once, publicly (an admin cannot speak for them). */
    async reply(user: AuthUser, id: string, content: string): Promise<ReviewView> {
      const review = await requireReview(id, user);
      const event = await eventRefs.find(review.eventId);
      requireOwner(user, event!.userId, { code: 'review_not_organiser', message: reviewMessages.notOrganiser, allowAdmin: false });
      if (!(await reviews.setReply(id, content))) throw AppError.conflict('review_already_answered', reviewMessages.alreadyAnswered);
      return toReview(await requireReview(id, user), user);
    },

    async remove(user: AuthUser, id: string): Promise<void> {
      const review = await requireReview(id, user);
      requireOwner(user, review.userId, { code: 'review_delete_not_author', message: 'You can only delete your own reviews.' });
      await reviews.delete(id);
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
