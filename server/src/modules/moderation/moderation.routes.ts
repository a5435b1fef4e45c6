import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { actionResponse, logPage, logResponse, queuePage, myReports, queueResponse, reportCreated } from './moderation.responses.js';
import { actionBody, itemParams, logPageQuery, logQuery, queuePageQuery, reportBody } from './moderation.schemas.js';
import { moderationMessages, type ModerationService } from './moderation.service.js';

export function createModerationRouter(deps: { moderation: ModerationService }) {
  const { moderation } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Moderation');

  routes.post(
    '/reports',
    {
      summary: 'Report a comment, review, forum thread or post, chat message or user',
      description: 'One report per user per item. The reported person is never told who reported them. A chat message can be reported by its recipient only.',
      access: 'user',
      body: reportBody,
      responses: {
        201: { description: '`{status:true, msg, report}`.', schema: reportCreated },
        400: 'Bad input, or reporting your own content or yourself.',
        404: 'No such item (or not one the caller can see).',
        409: 'Already reported by the caller.',
      },
    },
    async ({ body, user }) => ({ status: true, msg: moderationMessages.reported, report: await moderation.report(user, body) }),
  );

  routes.get(
    '/reports/mine',
    { summary: "The caller's reports and their outcome", access: 'user', responses: { 200: { description: '`{reports}`, newest first.', schema: myReports } } },
    async ({ user }) => ({ reports: await moderation.myReports(user) }),
  );

  routes.get(
    '/queue',
    {
      summary: 'The moderation queue: open reports grouped by item, with the item in context',
      access: 'admin',
      responses: { 200: { description: '`{items}`, the most reported first.', schema: queueResponse } },
    },
    async () => ({ items: await moderation.queue() }),
  );

  routes.get(
    '/queue/paged',
    {
      summary: 'The moderation queue a page at a time (every item waiting, not only the first 100)',
      access: 'admin',
      description: 'The paged form of GET /api/moderation/queue: same items and order (then kind and id); `total` counts the items with open reports.',
      query: queuePageQuery,
      responses: { 200: { description: '`{items, total, nextCursor}`: items as in GET /api/moderation/queue.', schema: queuePage } },
    },
    ({ query }) => moderation.queuePage(query),
  );

  routes.post(
    '/items/:kind/:id/actions',
    {
      summary: 'Act on a reported item or user: dismiss, hide, unhide, delete, warn, suspend, ban, lift',
      description:
        'Warn, suspend (`days`) and ban act on the item\'s author (or the user). Suspend and ban revoke the account\'s sessions and sockets at once; `hideContent` also hides everything it wrote. The open reports on the item are resolved (except by unhide and lift) and their reporters emailed the outcome. Every action is logged.',
      access: 'admin',
      params: itemParams,
      body: actionBody,
      responses: {
        200: { description: '`{status:true, action}`: the log entry.', schema: actionResponse },
        400: 'Bad input, an action that does not apply to the kind, or a measure against an administrator.',
        404: 'The item does not exist (dismissing the reports of a deleted item still works).',
      },
    },
    async ({ params, body, user }) => ({ status: true, action: await moderation.act(user, params.kind, params.id, body) }),
  );

  routes.get(
    '/log',
    {
      summary: 'The moderation log: every action, who took it, when and why',
      access: 'admin',
      query: logQuery,
      responses: { 200: { description: '`{actions}`, newest first (200 at most).', schema: logResponse } },
    },
    async ({ query }) => ({ actions: await moderation.log({ userId: query.userId }) }),
  );

  routes.get(
    '/log/paged',
    {
      summary: 'The moderation log, newest first, a page at a time',
      access: 'admin',
      description: 'The paged form of GET /api/moderation/log (every action, not only the latest 200).',
      query: logPageQuery,
      responses: { 200: { description: '`{items, total, nextCursor}`: items as the `actions` of GET /api/moderation/log.', schema: logPage } },
    },
    ({ query }) => moderation.logPage(query),
  );

  return router;
}
