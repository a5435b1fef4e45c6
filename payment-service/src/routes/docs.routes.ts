import { Router, type Express } from 'express';
import { openApiJsonResponses, serveOpenApiJson } from '@tukio/shared/node/openapi';
import { buildPaymentOpenApi } from '../openapi.js';
import { declareRoutes } from '../route-declaration.js';

/**
 * /api/docs: the payment service's OpenAPI document (openapi.json), built on the first request once every
 * router is mounted and then served from memory. /api/docs itself points there (the interactive reference
 * is the API server's; this service carries no UI).
 */
export function createDocsRouter(deps: { app: Express }) {
  const router = Router();
  const routes = declareRoutes(router, 'Documentation');

  routes.get(
    '/',
    { summary: 'Where this documentation is', access: 'public', responses: { 302: 'To /api/docs/openapi.json.' } },
    ({ res }) => res.redirect(302, '/api/docs/openapi.json'),
  );

  routes.get(
    '/openapi.json',
    { summary: 'The OpenAPI 3.1 document of this service', access: 'public', responses: openApiJsonResponses },
    serveOpenApiJson(() => buildPaymentOpenApi(deps.app)),
  );

  return router;
}
