import { Router, type Request, type Response } from 'express';
import { AppError } from '../../lib/app-error.js';
import { requireSelf, requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { parse } from '../../lib/validate.js';
import { statusFalseOnError } from './community.shared.js';
import { addPostBody, addThreadBody, eventIdParams, postIdParams, threadIdParams } from './forums.schemas.js';
import { forumMessages, type ForumsService } from './forums.service.js';

/** Reading a forum needs an account (SPEC); the summary on the event page does not. */
function requireReader(req: Request) {
  if (!req.user) throw AppError.unauthorized(forumMessages.loginToView);
  return req.user;
}

export function createForumsRouter(deps: { forums: ForumsService }) {
  const { forums } = deps;
  const router = Router();

  router.get('/summary/:eventId', async (req, res) => {
    const { eventId } = parse(eventIdParams, req.params);
    res.json({ threads: await forums.summary(eventId) });
  });

  router.get('/threads/:eventId', async (req, res) => {
    requireReader(req);
    const { eventId } = parse(eventIdParams, req.params);
    res.json({ thread: await forums.listThreads(eventId) });
  });

  router.get('/thread/:threadId', async (req, res) => {
    const user = requireReader(req);
    const { threadId } = parse(threadIdParams, req.params);
    res.json({ status: true, thread: await forums.getThread(user, threadId) });
  });

  router.post('/add-thread', async (req, res) => {
    requireUser(req);
    const body = parse(addThreadBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    res.status(201).json({ status: true, thread: await forums.addThread(user, body.eventId, body.title) });
  });

  router.post('/add-post', async (req, res) => {
    requireUser(req);
    const body = parse(addPostBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    res.status(201).json({ status: true, post: await forums.addPost(user, body) });
  });

  // The voter is the token's user; a different user id in the path is refused (403), never obeyed.
  for (const [path, direction] of [['upvote', 1], ['downvote', -1]] as const) {
    router.patch(`/posts/${path}/:postId/:userId`, async (req, res) => {
      requireUser(req);
      const { postId, userId } = parse(postIdParams, req.params);
      const user = requireSelf(req, userId);
      res.json({ status: true, ...(await forums.vote(user, postId, direction)) });
    });
  }

  // The path's user id is ignored: the token says who is deleting (the author, or an admin on anyone's post).
  const deletePost = async (req: Request, res: Response) => {
    const user = requireUser(req);
    const { postId } = parse(postIdParams, req.params);
    await forums.deletePost(user, postId);
    res.json({ status: true });
  };
  router.delete('/posts/:postId/:userId', deletePost);
  router.delete('/posts/:postId', deletePost);

  router.use(statusFalseOnError);
  return router;
}
