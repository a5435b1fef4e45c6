import { Router } from 'express';
import { z } from 'zod';
import { PaymentServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import { declareRoutes } from '../route-declaration.js';

/** The background passes the API server's job queue may ask for (PAYMENT_PASSES=jobs). */
export const PAYMENT_PASSES = ['reconcile'] as const;
export type PaymentPass = (typeof PAYMENT_PASSES)[number];

/** Runs one pass now (joining one in progress); undefined: this instance does not do that pass. */
export type PassRunner = (pass: PaymentPass) => Promise<object> | undefined;

/** Any name is taken here: a pass this service does not know is a 404, as an unknown route would be. */
const passParams = z.object({ pass: z.string().meta({ description: `The pass: ${PAYMENT_PASSES.join(' or ')}.` }) });

/**
 * POST /internal/passes/:pass: one reconciler pass on this instance, answered when it is done
 * (docs/decisions/scale-out.md, "Payment passes"). For the API server only (`X-Internal-Key`); a pass
 * that fails answers 503, so the job that asked fails and is retried with backoff, maybe on another
 * instance. Not under /api: the API server's /pay proxy never reaches it.
 */
export function createPassesRouter(deps: { internalApiKey: string; run: PassRunner; logger: Logger }) {
  const router = Router();
  const routes = declareRoutes(router, 'Internal', { internalKey: deps.internalApiKey });
  routes.post(
    '/internal/passes/:pass',
    {
      summary: 'Run one reconciler pass on this instance now',
      description: 'Answered once the pass is done (joining one in progress); `skipped: true` when this instance does not do that pass.',
      access: 'internal',
      params: passParams,
      responses: {
        200: { description: 'The pass and what it did.', schema: z.object({ pass: z.enum(PAYMENT_PASSES), skipped: z.boolean().optional() }).loose() },
        404: 'No such pass.',
        503: 'The pass failed; the job that asked retries it.',
      },
    },
    async ({ params }) => {
      const pass = PAYMENT_PASSES.find((name) => name === params.pass);
      if (!pass) throw new PaymentServiceError(404, 'route_not_found', 'No such pass.');
      const running = deps.run(pass);
      if (!running) return { pass, skipped: true };
      let result: object;
      try {
        result = await running;
      } catch (error) {
        deps.logger.error(`${pass} pass asked by the API server failed`, error);
        throw new PaymentServiceError(503, 'service_unavailable', `The ${pass} pass failed; it is retried.`);
      }
      return { pass, ...result };
    },
  );
  return router;
}
