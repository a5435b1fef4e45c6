import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { timePageQuery } from '../../lib/time-cursor.js';
import { messageOnly, reviewAdded, reviewList, reviewOnly, reviewPage } from './community.responses.js';
import { statusFalseOnError } from './community.shared.js';
import { addReviewBody, eventIdParams, replyBody, reviewIdParams, updateReviewBody } from './reviews.schemas.js';
import { reviewMessages, type ReviewsService } from './reviews.service.js';

/** Reviews per page for our own client. */
const REVIEWS_PAGE_SIZE = 10;

export function createReviewsRouter(deps: { reviews: ReviewsService }) {
  const { reviews } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Reviews');

  routes.get(
    '/event/:eventId',
    {
      summary: "An event's reviews",
      access: 'optional',
      params: eventIdParams,
      responses: {
        200: { description: '`{reviews:[{_id, content, rating, user:{_id, username}}], average, count}`.', schema: reviewList },
        404: 'Event not found.',
      },
    },
    ({ params, user }) => reviews.listForEvent(params.eventId, user),
  );

  routes.get(
    '/event/:eventId/paged',
    {
      summary: "A page of an event's reviews, newest first, with the average of all",
      access: 'optional',
      description: "Keyset pages: pass the answer's `nextCursor` as `cursor` for the next (older) page.",
      params: eventIdParams,
      query: z.object(timePageQuery(REVIEWS_PAGE_SIZE)),
      responses: { 200: { description: '`{items:[review], total, nextCursor, average}`.', schema: reviewPage }, 404: 'Event not found.' },
    },
    ({ params, query, user }) => reviews.pageForEvent(params.eventId, user, query),
  );

  // Failures answer 4xx with {status:false, msg} (statusFalseOnError below).
  routes.post(
    '/add',
    {
      summary: 'Review an event you attended (once, after it started)',
      access: 'user',
      refuseRestricted: true,
      self: ({ body }) => body.userId,
      body: addReviewBody,
      responses: {
        201: { description: '`{status:true, review, msg}`.', schema: reviewAdded },
        403: 'No ticket for the event, the event has not started, or `userId` is not the caller.',
        404: 'Event not found.',
        409: 'Already reviewed.',
      },
    },
    async ({ body, user }) => ({ status: true, review: await reviews.add(user, body), msg: reviewMessages.added }),
  );

  // Express routes are not strict about trailing slashes, so '/:id/' lands here too.
  routes.put(
    '/:id',
    {
      summary: 'Edit a review (author)',
      access: 'owner',
      refuseRestricted: true,
      self: ({ body }) => body.userId,
      params: reviewIdParams,
      body: updateReviewBody,
      responses: { 200: { description: '`{review}` (user populated).', schema: reviewOnly }, 403: 'Not the author.', 404: 'Review not found.' },
    },
    async ({ params, body, user }) => ({ review: await reviews.update(user, params.id, body) }),
  );

  routes.post(
    '/:id/reply',
    {
      summary: "The organiser's public answer to a review (once)",
      access: 'owner',
      refuseRestricted: true,
      params: reviewIdParams,
      body: replyBody,
      responses: {
        201: { description: '`{review}` with `organiserReply`.', schema: reviewOnly },
        403: 'Not the organiser of the event.',
        404: 'Review not found.',
        409: 'Already answered.',
      },
    },
    async ({ params, body, user }) => ({ review: await reviews.reply(user, params.id, body.content) }),
  );

  routes.delete(
    '/:id',
    {
      summary: 'Delete a review (author or admin)',
      access: 'owner',
      params: reviewIdParams,
      responses: { 200: { description: '`{msg}`.', schema: messageOnly }, 403: 'Neither the author nor an admin.', 404: 'Review not found.' },
    },
    async ({ params, user }) => {
      await reviews.remove(user, params.id);
      return { msg: reviewMessages.deleted };
    },
  );

  router.use(statusFalseOnError);
  return router;
}
