import { Router, type Request, type Response } from 'express';
import { requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import { parse } from '../../lib/validate.js';
import { statusFalseOnError } from './community.shared.js';
import { addCommentBody, commentIdParams, eventIdParams, updateCommentBody } from './comments.schemas.js';
import type { CommentsService } from './comments.service.js';

export function createCommentsRouter(deps: { comments: CommentsService }) {
  const { comments } = deps;
  const router = Router();
  const doc = apiDocs(router, 'Comments');
  const comment = shape.object({ _id: 'string', content: 'string', user: shape.object({ _id: 'string', username: 'string' }), event: 'string', createdAt: 'string', updatedAt: 'string' });
  const statusComment = { description: '`{status:true, comment}` (user populated).', schema: shape.object({ status: { const: true }, comment }) };

  doc.get('/event/:eventId', {
    summary: "An event's comments",
    auth: 'public',
    params: eventIdParams,
    responses: { 200: { description: '`{comments:[{_id, content, user:{_id, username}, createdAt}]}`.', schema: shape.object({ comments: shape.array(comment) }) }, 404: 'Event not found.' },
  });
  router.get('/event/:eventId', async (req, res) => {
    const { eventId } = parse(eventIdParams, req.params);
    res.json({ comments: await comments.listForEvent(eventId, req.user) });
  });

  doc.post('/add', {
    summary: 'Comment on an event',
    auth: 'user',
    description: 'The author is the token\'s user; a different `userId` in the body is refused (403).',
    body: addCommentBody,
    responses: { 201: statusComment, 403: '`userId` is not the caller.', 404: 'Event not found.' },
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
  for (const path of ['/add/:commentId', '/:commentId']) {
    doc.put(path, {
      summary: 'Edit a comment (author)',
      auth: 'owner',
      description: 'Send the new text as `text` (the contract) or `content`.',
      params: commentIdParams,
      body: updateCommentBody,
      responses: { 200: statusComment, 403: 'Not the author.', 404: 'Comment not found.' },
    });
  }
  router.put('/add/:commentId', update);
  router.put('/:commentId', update);

  // The contract puts a user id in the path; it is ignored: the token says who is deleting.
  const remove = async (req: Request, res: Response) => {
    const user = requireUser(req);
    const { commentId } = parse(commentIdParams, req.params);
    await comments.remove(user, commentId);
    res.json({ status: true });
  };
  for (const path of ['/:commentId/:userId', '/:commentId']) {
    doc.delete(path, {
      summary: 'Delete a comment (author or admin)',
      auth: 'owner',
      description: path.includes(':userId') ? 'The `userId` in the path is ignored: the token says who is deleting.' : undefined,
      params: commentIdParams,
      responses: { 200: { description: 'Deleted.', schema: shape.object({ status: { const: true } }) }, 403: 'Neither the author nor an admin.', 404: 'Comment not found.' },
    });
  }
  router.delete('/:commentId/:userId', remove);
  router.delete('/:commentId', remove);

  router.use(statusFalseOnError);
  return router;
}
