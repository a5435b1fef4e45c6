import { Router } from 'express';
import { requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import { parse } from '../../lib/validate.js';
import { statusFalseOnError } from './community.shared.js';
import { addReviewBody, eventIdParams, reviewIdParams, updateReviewBody } from './reviews.schemas.js';
import { reviewMessages, type ReviewsService } from './reviews.service.js';

export function createReviewsRouter(deps: { reviews: ReviewsService }) {
  const { reviews } = deps;
  const router = Router();
  const doc = apiDocs(router, 'Reviews');
  const reviewShape = shape.object({ _id: 'string', content: 'string', rating: 'integer', user: shape.object({ _id: 'string', username: 'string' }), event: 'string', createdAt: 'string', updatedAt: 'string' });

  doc.get('/event/:eventId', {
    summary: "An event's reviews",
    auth: 'public',
    params: eventIdParams,
    responses: {
      200: { description: '`{reviews:[{_id, content, rating, user:{_id, username}}], average, count}`.', schema: shape.object({ reviews: shape.array(reviewShape), average: 'number', count: 'integer' }) },
      404: 'Event not found.',
    },
  });
  router.get('/event/:eventId', async (req, res) => {
    const { eventId } = parse(eventIdParams, req.params);
    res.json(await reviews.listForEvent(eventId, req.user));
  });

  // Failures answer 4xx with {status:false, msg} (statusFalseOnError below).
  doc.post('/add', {
    summary: 'Review an event you attended (once, after it started)',
    auth: 'user',
    body: addReviewBody,
    responses: {
      201: { description: '`{status:true, review, msg}`.', schema: shape.object({ status: { const: true }, review: reviewShape, msg: 'string' }) },
      403: 'No ticket for the event, the event has not started, or `userId` is not the caller.',
      404: 'Event not found.',
      409: 'Already reviewed.',
    },
  });
  router.post('/add', async (req, res) => {
    requireUser(req);
    const body = parse(addReviewBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    const review = await reviews.add(user, body);
    res.status(201).json({ status: true, review, msg: reviewMessages.added });
  });

  // Express routes are not strict about trailing slashes, so '/:id/' lands here too.
  doc.put('/:id', {
    summary: 'Edit a review (author)',
    auth: 'owner',
    params: reviewIdParams,
    body: updateReviewBody,
    responses: { 200: { description: '`{review}` (user populated).', schema: shape.object({ review: reviewShape }) }, 403: 'Not the author.', 404: 'Review not found.' },
  });
  router.put('/:id', async (req, res) => {
    requireUser(req);
    const { id } = parse(reviewIdParams, req.params);
    const body = parse(updateReviewBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    res.json({ review: await reviews.update(user, id, body) });
  });

  doc.delete('/:id', {
    summary: 'Delete a review (author or admin)',
    auth: 'owner',
    params: reviewIdParams,
    responses: { 200: { description: '`{msg}`.', schema: shape.object({ msg: 'string' }) }, 403: 'Neither the author nor an admin.', 404: 'Review not found.' },
  });
  router.delete('/:id', async (req, res) => {
    const user = requireUser(req);
    const { id } = parse(reviewIdParams, req.params);
    await reviews.remove(user, id);
    res.json({ msg: reviewMessages.deleted });
  });

  router.use(statusFalseOnError);
  return router;
}
