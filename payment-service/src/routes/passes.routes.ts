import { Router } from 'express';
import { PaymentServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import { requireInternalKey } from './internal-key.js';

/** The background passes the API server's job queue may ask for (PAYMENT_PASSES=jobs). */
export const PAYMENT_PASSES = ['reconcile', 'refunds'] as const;
export type PaymentPass = (typeof PAYMENT_PASSES)[number];

/** Runs one pass now (joining one in progress); undefined: this instance does not do that pass (refunds not configured). */
export type PassRunner = (pass: PaymentPass) => Promise<object> | undefined;

/**
 * POST /internal/passes/:pass: one reconciler or refund pass on this instance, answered when it is done
 * (docs/decisions/scale-out.md, "Payment passes"). For the API server only (`X-Internal-Key`); a pass
 * that fails answers 503, so the job that asked fails and is retried with backoff, maybe on another
 * instance. Not under /api: the API server's /pay proxy never reaches it.
 */
export function createPassesRouter(deps: { internalApiKey: string; run: PassRunner; logger: Logger }) {
  const router = Router();
  router.post('/internal/passes/:pass', requireInternalKey(deps.internalApiKey), async (req, res) => {
    const pass = PAYMENT_PASSES.find((name) => name === req.params.pass);
    if (!pass) throw new PaymentServiceError(404, 'route_not_found', 'No such pass.');
    const running = deps.run(pass);
    if (!running) return void res.json({ pass, skipped: true });
    let result: object;
    try {
      result = await running;
    } catch (error) {
      deps.logger.error(`${pass} pass asked by the API server failed`, error);
      throw new PaymentServiceError(503, 'service_unavailable', `The ${pass} pass failed; it is retried.`);
    }
    res.json({ pass, ...result });
  });
  return router;
}
