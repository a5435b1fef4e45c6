import { metricsAccess } from '@tukio/shared/node/metrics';
import { Router } from 'express';
import { AppError } from '../../lib/app-error.js';
import type { OpsService } from './ops.service.js';

/**
 * Probes and metrics for the platform, outside /api (no CORS, no user tokens):
 * GET /healthz — the process answers; GET /readyz — it can serve (database, Redis when configured);
 * GET /metrics — Prometheus text, with `Authorization: Bearer <METRICS_TOKEN>`; 404 when no token is configured.
 */
export function createOpsRouter(deps: { ops: OpsService; metricsToken: string | undefined }) {
  const router = Router();
  const access = metricsAccess(deps.metricsToken);

  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const readiness = await deps.ops.readiness();
    res.set('Cache-Control', 'no-store');
    if (readiness.ready) return void res.json({ status: 'ready' });
    res.status(503).json({ status: 'not-ready', ...(readiness.shuttingDown ? { shuttingDown: true } : {}), checks: readiness.checks });
  });

  router.get('/metrics', async (req, res) => {
    const allowed = access(req);
    // Disabled unless configured: a plain 404, so an instance without a token does not advertise the endpoint.
    if (allowed === 'disabled') throw AppError.notFound('not_found', 'Not found.');
    if (allowed === 'denied') {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw AppError.unauthorized('metrics_token_required', 'A valid metrics token is required.');
    }
    const { contentType, body } = await deps.ops.metrics();
    res.set('Cache-Control', 'no-store').type(contentType).send(body);
  });

  return router;
}
