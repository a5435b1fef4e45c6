import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { timePageQuery } from '../../lib/time-cursor.js';
import { postAdded, postReplyPage, statusOnly, threadAdded, threadList, threadPage, threadPostsPage, threadSummaries, threadWithPosts, voteResult } from './community.responses.js';
import { statusFalseOnError } from './community.shared.js';
import { addPostBody, addThreadBody, eventIdParams, postIdParams, threadIdParams } from './forums.schemas.js';
import { forumMessages, type ForumsService } from './forums.service.js';

/** Threads, top-level posts, and a post's replies, per page for our own client. */
const THREADS_PAGE_SIZE = 20;
const POSTS_PAGE_SIZE = 20;
const REPLIES_PAGE_SIZE = 20;

export function createForumsRouter(deps: { forums: ForumsService }) {
  const { forums } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Forums');
  // Where the path has `:userId` it is always there (and documented as a required path parameter).
  const postUserParams = postIdParams.required({ userId: true });

  routes.get(
    '/summary/:eventId',
    {
      summary: "The latest threads of an event's forum (event page summary)",
      access: 'optional',
      params: eventIdParams,
      responses: { 200: { description: '`{threads:[…]}`: the latest few threads.', schema: threadSummaries }, 404: 'Event not found.' },
    },
    async ({ params, user }) => ({ threads: await forums.summary(params.eventId, user) }),
  );

  routes.get(
    '/threads/:eventId',
    {
      summary: "An event's threads",
      access: 'user',
      // Reading a forum needs an account; the client shows why the forum is closed.
      login: { code: 'forum_login_required', message: forumMessages.loginToView },
      params: eventIdParams,
      responses: {
        200: { description: '`{thread:[{_id, title, user:{_id, username}, posts:[…]}]}` (key `thread`, value an array).', schema: threadList },
        401: forumMessages.loginToView,
        404: 'Event not found.',
      },
    },
    async ({ params, user }) => ({ thread: await forums.listThreads(user, params.eventId) }),
  );

  routes.get(
    '/thread/:threadId',
    {
      summary: 'A thread with its post tree',
      access: 'user',
      // Reading a forum needs an account; the client shows why the forum is closed.
      login: { code: 'forum_login_required', message: forumMessages.loginToView },
      params: threadIdParams,
      responses: {
        200: {
          description: '`{status:true, thread:{_id, title, event, posts:[post tree]}}`; a post is `{_id, content, user:{_id, username}, upvotes, parent, replies:[post]}`.',
          schema: threadWithPosts,
        },
        401: forumMessages.loginToView,
        404: 'Thread not found.',
      },
    },
    async ({ params, user }) => ({ status: true, thread: await forums.getThread(user, params.threadId) }),
  );

  routes.get(
    '/threads/:eventId/paged',
    {
      summary: "A page of an event's threads, newest first",
      access: 'user',
      login: { code: 'forum_login_required', message: forumMessages.loginToView },
      description: "Keyset pages: pass the answer's `nextCursor` as `cursor` for the next (older) page.",
      params: eventIdParams,
      query: z.object(timePageQuery(THREADS_PAGE_SIZE)),
      responses: {
        200: { description: '`{items:[{_id, title, user, createdAt, replies}], total, nextCursor}`.', schema: threadPage },
        401: forumMessages.loginToView,
        404: 'Event not found.',
      },
    },
    ({ params, query, user }) => forums.threadPage(user, params.eventId, query),
  );

  routes.get(
    '/thread/:threadId/posts',
    {
      summary: "A thread's head and a page of its top-level posts (newest first), each with a preview of its replies",
      access: 'user',
      login: { code: 'forum_login_required', message: forumMessages.loginToView },
      description:
        "Keyset pages over the top-level posts: pass the answer's `nextCursor` as `cursor` for the next (older) page. Each post carries its newest replies, two levels down, and `replyCount`; the rest come from `GET /api/forums/posts/{postId}/replies`.",
      params: threadIdParams,
      query: z.object(timePageQuery(POSTS_PAGE_SIZE)),
      responses: {
        200: { description: '`{thread:{_id, title, event, user, createdAt}, items:[post with reply preview], total, nextCursor, posts}`.', schema: threadPostsPage },
        401: forumMessages.loginToView,
        404: 'Thread not found.',
      },
    },
    ({ params, query, user }) => forums.threadPostsPage(user, params.threadId, query),
  );

  routes.get(
    '/posts/:postId/replies',
    {
      summary: "A page of a post's replies (newest first), each with a preview of its own replies",
      access: 'user',
      login: { code: 'forum_login_required', message: forumMessages.loginToView },
      description:
        "Keyset pages over the post's direct replies: pass the answer's `nextCursor` as `cursor` for the next (older) page. `total` is the post's `replyCount`. Readable by whoever may read the thread.",
      params: postIdParams.pick({ postId: true }),
      query: z.object(timePageQuery(REPLIES_PAGE_SIZE)),
      responses: {
        200: { description: '`{items:[post with reply preview], total, nextCursor}`.', schema: postReplyPage },
        401: forumMessages.loginToView,
        404: 'Post not found.',
      },
    },
    ({ params, query, user }) => forums.replyPage(user, params.postId, query),
  );

  routes.post(
    '/add-thread',
    {
      summary: 'Start a thread in an event forum',
      access: 'user',
      refuseRestricted: true,
      self: ({ body }) => body.userId,
      body: addThreadBody,
      responses: {
        201: { description: '`{status:true, thread}`.', schema: threadAdded },
        403: 'No ticket for the event, or `userId` is not the caller.',
        404: 'Event not found.',
      },
    },
    async ({ body, user }) => ({ status: true, thread: await forums.addThread(user, body.eventId, body.title) }),
  );

  routes.post(
    '/add-post',
    {
      summary: 'Post in a thread, or reply to a post (parentId)',
      access: 'user',
      refuseRestricted: true,
      self: ({ body }) => body.userId,
      description: '`parentId` null, absent or empty means a top-level post.',
      body: addPostBody,
      responses: {
        201: { description: '`{status:true, post}`.', schema: postAdded },
        403: 'No ticket for the event, or `userId` is not the caller.',
        404: 'Thread not found.',
      },
    },
    async ({ body, user }) => ({ status: true, post: await forums.addPost(user, body) }),
  );

  // The voter is the token's user; a different user id in the path is refused (403), never obeyed.
  for (const [path, direction] of [['upvote', 1], ['downvote', -1]] as const) {
    routes.patch(
      `/posts/${path}/:postId/:userId`,
      {
        summary: direction === 1 ? 'Upvote a post' : 'Downvote a post',
        access: 'self',
        self: ({ params }) => params.userId,
        description: 'The `userId` in the path must be the caller.',
        params: postUserParams,
        responses: { 200: { description: '`{status:true, upvotes}`.', schema: voteResult }, 403: '`userId` is not the caller.', 404: 'Post not found.' },
      },
      async ({ params, user }) => ({ status: true, ...(await forums.vote(user, params.postId, direction)) }),
    );
  }

  // The path's user id is ignored: the token says who is deleting (the author, or an admin on anyone's post).
  for (const path of ['/posts/:postId/:userId', '/posts/:postId']) {
    routes.delete(
      path,
      {
        summary: 'Delete a post (author or admin)',
        access: 'owner',
        description: path.includes(':userId') ? 'The `userId` in the path is ignored: the token says who is deleting.' : undefined,
        params: path.includes(':userId') ? postUserParams : postIdParams,
        responses: { 200: { description: 'Deleted.', schema: statusOnly }, 403: 'Neither the author nor an admin.', 404: 'Post not found.' },
      },
      async ({ params, user }) => {
        await forums.deletePost(user, params.postId);
        return { status: true };
      },
    );
  }

  router.use(statusFalseOnError);
  return router;
}
