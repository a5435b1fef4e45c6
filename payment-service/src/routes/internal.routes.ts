import { stkPushRequest, stkQueryRequest } from '@tukio/shared/internal-api';
import express, { Router } from 'express';
import type { z } from 'zod';
import type { PushService } from '../checkout/push.service.js';
import { PaymentServiceError } from '../errors.js';
import { requireInternalKey } from './internal-key.js';

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new PaymentServiceError(400, 'validation_failed', parsed.error.issues[0]?.message ?? 'The request is not valid.');
  return parsed.data;
}

/**
 * /internal/stk-push and /internal/stk-query: what the API server's checkout asks of M-Pesa (X-Internal-Key).
 * Not under /api, so no browser-facing middleware (CORS) applies.
 */
export function createInternalRouter(deps: { internalApiKey: string; pushes: PushService }) {
  const router = Router();
  router.use(['/internal/stk-push', '/internal/stk-query'], requireInternalKey(deps.internalApiKey), express.json({ limit: '4kb' }));
  router.post('/internal/stk-push', async (req, res) => {
    res.json(await deps.pushes.sendPush(parse(stkPushRequest, req.body)));
  });
  router.post('/internal/stk-query', async (req, res) => {
    res.json(await deps.pushes.queryPush(parse(stkQueryRequest, req.body).checkoutRequestId));
  });
  return router;
}
