import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import type { DataExportService } from './data-export.service.js';
import { exportStatus, tokenParams } from './data-export.schemas.js';

/** /api/me/data-export… : "Download my data" (docs/decisions/data-rights.md). */
export function createDataExportRouter(deps: { dataExports: DataExportService }) {
  const { dataExports } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Your data');

  routes.get(
    '/data-export',
    {
      summary: 'Your latest "Download my data" request and when you may ask again',
      access: 'user',
      responses: { 200: { description: '`{state, requestedAt, expiresAt, nextRequestAt}`.', schema: exportStatus } },
    },
    ({ user }) => dataExports.status(user.id),
  );

  routes.post(
    '/data-export',
    {
      summary: 'Ask for a copy of everything Tukio holds about you (a ZIP of JSON and CSV, link sent by email)',
      access: 'user',
      description:
        'Once a day. A job builds the ZIP from every table the personal-data map names, then emails a link that works once, for 24 hours. ' +
        'Your own rows only: never password or link hashes, nor other people’s messages or details.',
      responses: {
        202: { description: 'Queued: `{state, requestedAt, expiresAt, nextRequestAt}`.', schema: exportStatus },
        429: 'You asked less than a day ago (`nextRequestAt` says from when you may ask again).',
      },
    },
    ({ user }) => dataExports.request(user.id),
  );

  routes.get(
    '/data-export/:token',
    {
      summary: 'Download your data (the emailed link; works once, for 24 hours)',
      access: 'user',
      description:
        'The emailed link opens /my-data/<token> in the app, which calls this signed in: the token alone is not enough, the account that asked must be the caller. ' +
        'Answers the ZIP as an attachment.',
      params: tokenParams,
      responses: {
        200: 'The ZIP (application/zip).',
        404: 'The link belongs to another account (it stays usable by its owner).',
        410: 'The link was used already, has expired, or does not exist.',
      },
    },
    async ({ params, user, res }) => {
      const { archive, createdAt } = await dataExports.download(user.id, params.token);
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', `attachment; filename="tukio-data-${createdAt.toISOString().slice(0, 10)}.zip"`);
      res.setHeader('Cache-Control', 'no-store');
      res.send(archive);
    },
  );
  return router;
}
