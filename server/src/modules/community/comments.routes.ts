import { Router, type Request, type Response } from 'express';
import { requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { parse } from '../../lib/validate.js';
import { statusFalseOnError } from './community.shared.js';
import { addCommentBody, commentIdParams, eventIdParams, updateCommentBody } from './comments.schemas.js';
import type { CommentsService } from './comments.service.js';

export function createCommentsRouter(deps: { comments: CommentsService }) {
  const { comments } = deps;
  const router = Router();

  router.get('/event/:eventId', async (req, res) => {
    const { eventId } = parse(eventIdParams, req.params);
    res.json({ comments: await comments.listForEvent(eventId) });
  });

  router.post('/add', async (req, res) => {
    requireUser(req);
    const body = parse(addCommentBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    res.status(201).json({ status: true, comment: await comments.add(user, body.eventId, body.content) });
  });

  const update = async (req: Request, res: Response) => {
    const user = requireUser(req);
    const { commentId } = parse(commentIdParams, req.params);
    const { content } = parse(updateCommentBody, req.body);
    res.json({ status: true, comment: await comments.update(user, commentId, content) });
  };
  router.put('/add/:commentId', update);
  router.put('/:commentId', update);

  // The contract puts a user id in the path; it is ignored: the token says who is deleting.
  const remove = async (req: Request, res: Response) => {
    const user = requireUser(req);
    const { commentId } = parse(commentIdParams, req.params);
    await comments.remove(user, commentId);
    res.json({ status: true });
  };
  router.delete('/:commentId/:userId', remove);
  router.delete('/:commentId', remove);

  router.use(statusFalseOnError);
  return router;
}
