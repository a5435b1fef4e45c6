import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { timePageQuery } from '../../lib/time-cursor.js';
import { commentList, commentPage, statusComment, statusOnly } from './community.responses.js';
import { statusFalseOnError } from './community.shared.js';
import { addCommentBody, commentIdParams, eventIdParams, updateCommentBody } from './comments.schemas.js';
import type { CommentsService } from './comments.service.js';

/** Comments per page for our own client. */
const COMMENTS_PAGE_SIZE = 20;

export function createCommentsRouter(deps: { comments: CommentsService }) {
  const { comments } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Comments');
  const withComment = { description: '`{status:true, comment}` (user populated).', schema: statusComment };

  routes.get(
    '/event/:eventId',
    {
      summary: "An event's comments",
      access: 'optional',
      params: eventIdParams,
      responses: {
        200: { description: '`{comments:[{_id, content, user:{_id, username}, createdAt}]}`.', schema: commentList },
        404: 'Event not found.',
      },
    },
    async ({ params, user }) => ({ comments: await comments.listForEvent(params.eventId, user) }),
  );

  routes.get(
    '/event/:eventId/paged',
    {
      summary: "A page of an event's comments, newest first",
      access: 'optional',
      description: 'Keyset pages: pass the answer\'s `nextCursor` as `cursor` for the next (older) page.',
      params: eventIdParams,
      query: z.object(timePageQuery(COMMENTS_PAGE_SIZE)),
      responses: { 200: { description: '`{items:[comment], total, nextCursor}`.', schema: commentPage }, 404: 'Event not found.' },
    },
    ({ params, query, user }) => comments.pageForEvent(params.eventId, user, query),
  );

  routes.post(
    '/add',
    {
      summary: 'Comment on an event',
      access: 'user',
      refuseRestricted: true,
      self: ({ body }) => body.userId,
      description: "The author is the token's user; a different `userId` in the body is refused (403).",
      body: addCommentBody,
      responses: { 201: withComment, 403: '`userId` is not the caller.', 404: 'Event not found.' },
    },
    async ({ body, user }) => ({ status: true, comment: await comments.add(user, body.eventId, body.content) }),
  );

  for (const path of ['/add/:commentId', '/:commentId']) {
    routes.put(
      path,
      {
        summary: 'Edit a comment (author)',
        access: 'owner',
        refuseRestricted: true,
        description: 'Send the new text as `text` (the contract) or `content`.',
        params: commentIdParams,
        body: updateCommentBody,
        responses: { 200: withComment, 403: 'Not the author.', 404: 'Comment not found.' },
      },
      async ({ params, body, user }) => ({ status: true, comment: await comments.update(user, params.commentId, body.content) }),
    );
  }

  // The contract puts a user id in the path; it is ignored: the token says who is deleting.
  for (const path of ['/:commentId/:userId', '/:commentId']) {
    routes.delete(
      path,
      {
        summary: 'Delete a comment (author or admin)',
        access: 'owner',
        description: path.includes(':userId') ? 'The `userId` in the path is ignored: the token says who is deleting.' : undefined,
        params: commentIdParams,
        responses: { 200: { description: 'Deleted.', schema: statusOnly }, 403: 'Neither the author nor an admin.', 404: 'Comment not found.' },
      },
      async ({ params, user }) => {
        await comments.remove(user, params.commentId);
        return { status: true };
      },
    );
  }

  router.use(statusFalseOnError);
  return router;
}
