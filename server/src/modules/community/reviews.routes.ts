import { Router } from 'express';
import { requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { parse } from '../../lib/validate.js';
import { statusFalseOnError } from './community.shared.js';
import { addReviewBody, eventIdParams, reviewIdParams, updateReviewBody } from './reviews.schemas.js';
import { reviewMessages, type ReviewsService } from './reviews.service.js';

export function createReviewsRouter(deps: { reviews: ReviewsService }) {
  const { reviews } = deps;
  const router = Router();

  router.get('/event/:eventId', async (req, res) => {
    const { eventId } = parse(eventIdParams, req.params);
    res.json(await reviews.listForEvent(eventId));
  });

  // Failures answer 4xx with {status:false, msg} (statusFalseOnError below).
  router.post('/add', async (req, res) => {
    requireUser(req);
    const body = parse(addReviewBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    const review = await reviews.add(user, body);
    res.status(201).json({ status: true, review, msg: reviewMessages.added });
  });

  // Express routes are not strict about trailing slashes, so '/:id/' lands here too.
  router.put('/:id', async (req, res) => {
    requireUser(req);
    const { id } = parse(reviewIdParams, req.params);
    const body = parse(updateReviewBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    res.json({ review: await reviews.update(user, id, body) });
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
