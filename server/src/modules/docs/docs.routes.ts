import { Router, type Express } from 'express';
import { apiDocs, buildOpenApi, shape } from '../../lib/openapi.js';
import { renderDocsPage } from './docs.page.js';

/**
 * /api/docs: the OpenAPI document (openapi.json) and a page to browse it. Both are built on the
 * first request, once every router is mounted, and then served from memory.
 */
export function createDocsRouter(deps: { app: Express }) {
  const router = Router();
  const doc = apiDocs(router, 'Documentation');
  let built: { json: string; html: string } | undefined;
  const docs = () => {
    if (!built) {
      const document = buildOpenApi(deps.app);
      built = { json: JSON.stringify(document), html: renderDocsPage(document) };
    }
    return built;
  };

  doc.get('/', {
    summary: 'This documentation as a web page',
    auth: 'public',
    responses: { 200: { description: 'HTML: every operation by tag, with its parameters, body and responses.', contentType: 'text/html', schema: { type: 'string' } } },
  });
  router.get('/', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('html').send(docs().html);
  });

  doc.get('/openapi.json', {
    summary: 'The OpenAPI 3.1 document of this API',
    auth: 'public',
    responses: { 200: { description: 'The document.', schema: shape.object({ openapi: 'string', info: 'object', paths: 'object' }) } },
  });
  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').send(docs().json);
  });

  return router;
}
