import { Router, type Express } from 'express';
import { z } from 'zod';
import { openApiJsonResponses, serveOpenApiJson } from '@tukio/shared/node/openapi';
import { buildOpenApi } from '../../lib/openapi.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { docsPageHtml, serveDocsAssets } from './docs.page.js';

/**
 * /api/docs: the OpenAPI document (openapi.json), built on the first request once every router is
 * mounted and then served from memory, and the interactive reference that reads it.
 */
export function createDocsRouter(deps: { app: Express }) {
  const router = Router();
  const routes = declareRoutes(router, 'Documentation');

  routes.get(
    '/',
    {
      summary: 'This documentation as an interactive reference (Swagger UI)',
      access: 'public',
      responses: { 200: { description: 'HTML: the reference, which loads openapi.json.', contentType: 'text/html', schema: z.string() } },
    },
    ({ res }) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.type('html').send(docsPageHtml);
    },
  );

  routes.get(
    '/openapi.json',
    { summary: 'The OpenAPI 3.1 document of this API', access: 'public', responses: openApiJsonResponses },
    serveOpenApiJson(() => buildOpenApi(deps.app)),
  );

  router.use('/assets', serveDocsAssets());
  return router;
}
