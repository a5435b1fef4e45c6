import { Router, type Request, type Response } from 'express';
import { AppError } from '../../lib/app-error.js';
import { requireSelf, requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import { parse } from '../../lib/validate.js';
import { statusFalseOnError } from './community.shared.js';
import { addPostBody, addThreadBody, eventIdParams, postIdParams, threadIdParams } from './forums.schemas.js';
import { forumMessages, type ForumsService } from './forums.service.js';

/** Reading a forum needs an account (docs/product.md); the summary on the event page does not. */
function requireReader(req: Request) {
  if (!req.user) throw AppError.unauthorized(forumMessages.loginToView);
  return req.user;
}

export function createForumsRouter(deps: { forums: ForumsService }) {
  const { forums } = deps;
  const router = Router();
  const doc = apiDocs(router, 'Forums');
  const status = shape.object({ status: { const: true } });

  doc.get('/summary/:eventId', {
    summary: "The latest threads of an event's forum (event page summary)",
    auth: 'public',
    params: eventIdParams,
    responses: { 200: '`{threads:[…]}`: the latest few threads.', 404: 'Event not found.' },
  });
  router.get('/summary/:eventId', async (req, res) => {
    const { eventId } = parse(eventIdParams, req.params);
    res.json({ threads: await forums.summary(eventId, req.user) });
  });

  doc.get('/threads/:eventId', {
    summary: "An event's threads",
    auth: 'user',
    params: eventIdParams,
    responses: { 200: '`{thread:[{_id, title, user:{_id, username}, posts:[…]}]}` (key `thread`, value an array).', 404: 'Event not found.' },
  });
  router.get('/threads/:eventId', async (req, res) => {
    const user = requireReader(req);
    const { eventId } = parse(eventIdParams, req.params);
    res.json({ thread: await forums.listThreads(user, eventId) });
  });

  doc.get('/thread/:threadId', {
    summary: 'A thread with its post tree',
    auth: 'user',
    params: threadIdParams,
    responses: {
      200: '`{status:true, thread:{_id, title, event, posts:[post tree]}}`; a post is `{_id, content, user:{_id, username}, upvotes, parent, replies:[post]}`.',
      404: 'Thread not found.',
    },
  });
  router.get('/thread/:threadId', async (req, res) => {
    const user = requireReader(req);
    const { threadId } = parse(threadIdParams, req.params);
    res.json({ status: true, thread: await forums.getThread(user, threadId) });
  });

  doc.post('/add-thread', {
    summary: 'Start a thread in an event forum',
    auth: 'user',
    body: addThreadBody,
    responses: { 201: '`{status:true, thread}`.', 403: 'No ticket for the event, or `userId` is not the caller.', 404: 'Event not found.' },
  });
  router.post('/add-thread', async (req, res) => {
    requireUser(req);
    const body = parse(addThreadBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    res.status(201).json({ status: true, thread: await forums.addThread(user, body.eventId, body.title) });
  });

  doc.post('/add-post', {
    summary: 'Post in a thread, or reply to a post (parentId)',
    auth: 'user',
    description: '`parentId` null, absent or empty means a top-level post.',
    body: addPostBody,
    responses: { 201: '`{status:true, post}`.', 403: 'No ticket for the event, or `userId` is not the caller.', 404: 'Thread not found.' },
  });
  router.post('/add-post', async (req, res) => {
    requireUser(req);
    const body = parse(addPostBody, req.body);
    const user = requireSelfIfPresent(req, body.userId);
    res.status(201).json({ status: true, post: await forums.addPost(user, body) });
  });

  // The voter is the token's user; a different user id in the path is refused (403), never obeyed.
  for (const [path, direction] of [['upvote', 1], ['downvote', -1]] as const) {
    doc.patch(`/posts/${path}/:postId/:userId`, {
      summary: direction === 1 ? 'Upvote a post' : 'Downvote a post',
      auth: 'self',
      description: 'The `userId` in the path must be the caller.',
      params: postIdParams,
      responses: { 200: { description: '`{status:true, upvotes}`.', schema: shape.object({ status: { const: true }, upvotes: 'integer' }) }, 403: '`userId` is not the caller.', 404: 'Post not found.' },
    });
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
  for (const path of ['/posts/:postId/:userId', '/posts/:postId']) {
    doc.delete(path, {
      summary: 'Delete a post (author or admin)',
      auth: 'owner',
      description: path.includes(':userId') ? 'The `userId` in the path is ignored: the token says who is deleting.' : undefined,
      params: postIdParams,
      responses: { 200: { description: 'Deleted.', schema: status }, 403: 'Neither the author nor an admin.', 404: 'Post not found.' },
    });
  }
  router.delete('/posts/:postId/:userId', deletePost);
  router.delete('/posts/:postId', deletePost);

  router.use(statusFalseOnError);
  return router;
}
