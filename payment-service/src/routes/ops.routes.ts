import { metricsAccess } from '@tukio/shared/node/metrics';
import { Router } from 'express';
import { PaymentServiceError } from '../errors.js';
import type { PaymentMetrics } from '../metrics.js';

/** The API server has not answered its health check within this long: counted as down. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Probes and metrics for the platform (docs/decisions/operations.md): GET /healthz — the process
 * answers; GET /readyz — the API server (which creates orders and records every result) answers its
 * /api/health, i.e. it and its database are up; GET /metrics — Prometheus text with
 * `Authorization: Bearer <METRICS_TOKEN>`, 404 when no token is configured.
 */
export function createOpsRouter(deps: { metrics: PaymentMetrics; metricsToken: string | undefined; apiUrl: string }) {
  const router = Router();
  const access = metricsAccess(deps.metricsToken);
  /** Probes arriving together share one check of the API server. */
  let running: Promise<boolean> | undefined;
  const apiServerUp = () =>
    (running ??= fetch(`${deps.apiUrl}/api/health`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) })
      .then(
        async (res) => {
          await res.body?.cancel();
          return res.ok;
        },
        () => false,
      )
      .finally(() => {
        running = undefined;
      }));

  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const apiServer = (await apiServerUp()) ? 'ok' : 'down';
    res.set('Cache-Control', 'no-store');
    if (apiServer === 'ok' && !deps.metrics.draining) return void res.json({ status: 'ready' });
    // Names only: a probe is public, so it never carries error text.
    res.status(503).json({ status: 'not-ready', ...(deps.metrics.draining ? { shuttingDown: true } : {}), checks: { apiServer } });
  });

  router.get('/metrics', async (req, res) => {
    const allowed = access(req);
    if (allowed === 'disabled') throw new PaymentServiceError(404, 'not_found', 'Not found.');
    if (allowed === 'denied') {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new PaymentServiceError(401, 'metrics_token_required', 'A valid metrics token is required.');
    }
    const { contentType, body } = await deps.metrics.render();
    res.set('Cache-Control', 'no-store').type(contentType).send(body);
  });

  return router;
}
