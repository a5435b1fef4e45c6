import { refundStatusBody, sendRefundBody, sendRequestAnswer, type RefundMethod } from '@tukio/shared/internal-refunds';
import express, { Router, type Request } from 'express';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import { refundAttemptOf, type Refunds } from '../refunds/refunds.js';
import { declareRoutes } from '../route-declaration.js';
import { darajaAccepted, darajaAnswer, darajaRefusals, refused, resultCallbackReader } from './callback.routes.js';

/**
 * /internal/refunds and /internal/refunds/status: what the API server's refunds job asks of M-Pesa (X-Internal-Key).
 * The results come back through Daraja's callbacks below and the refund outbox.
 */
export function createRefundRouter(deps: { internalApiKey: string; refunds: Refunds }) {
  const router = Router();
  const routes = declareRoutes(router, 'Internal', { internalKey: deps.internalApiKey });
  const json = express.json({ limit: '4kb' });

  routes.post(
    '/internal/refunds',
    {
      summary: 'Send one refund attempt to M-Pesa, once',
      description:
        'A reversal of the STK receipt (`method: reversal`) or a B2C BusinessPayment to the payer (`b2c`). The same `originatorConversationId` again gets the first answer without a second request.',
      access: 'internal',
      use: [json],
      body: sendRefundBody,
      responses: {
        200: { description: 'Daraja queued it (`accepted`: its result follows through POST /api/internal/refunds/result) or refused it (`rejected`: nothing was paid).', schema: sendRequestAnswer },
        400: 'Invalid input (`msg` names the field).',
        502: 'Sent, and Daraja’s answer was lost (`payment_outcome_unknown`): ask for its status.',
        503: 'Never sent (`mpesa_unreachable`): M-Pesa is not reachable, or refunds are not configured.',
      },
    },
    ({ body }) => deps.refunds.send(body),
  );

  routes.post(
    '/internal/refunds/status',
    {
      summary: 'Ask M-Pesa (Transaction Status) what became of a refund attempt',
      access: 'internal',
      use: [json],
      body: refundStatusBody,
      responses: {
        202: { description: 'Asked: a definite answer comes as a result through POST /api/internal/refunds/result.', schema: z.object({ asked: z.literal(true) }) },
        400: 'Invalid input (`msg` names the field).',
        409: 'Nothing names this reversal to M-Pesa (no journaled answer and no `conversationId`): check the M-Pesa statement.',
        502: 'M-Pesa refused the query (`mpesa_refused`) or its answer was lost (`mpesa_unreachable`).',
        503: 'M-Pesa is not reachable (`mpesa_unreachable`).',
      },
    },
    async ({ body }) => {
      await deps.refunds.status(body);
      return { asked: true as const };
    },
  );

  return router;
}

/** Our attempt as the request's URL names it (`?ocid=`): Daraja names a reversal or a status query with its own ids. */
const attemptOf = (req: Request) => refundAttemptOf(req.query.ocid);
const methodOf = (req: Request): RefundMethod | undefined => (req.query.method === 'b2c' || req.query.method === 'reversal' ? req.query.method : undefined);

/**
 * Daraja's results for refunds, mounted at /api/mpesa: `POST /b2c/result/:secret`, `/b2c/timeout/:secret`,
 * `/reversal/result/:secret`, `/reversal/timeout/:secret`, `/status/result/:secret`, `/status/timeout/:secret`
 * (`?ocid=<attempt>`, and `&method=` on a status query's). As the payout callbacks: a secret path segment keeps
 * strangers out; a result is normalized, written to the refund outbox (on disk) and only then acknowledged; the same
 * result twice is queued once. A queue timeout is not a result: logged and counted (the API server asks for the
 * status after a while). Daraja only needs `{ResultCode: 0}`.
 */
export function createRefundCallbackRouter(deps: { refunds: Refunds; secret: string; logger: Logger; metrics: Pick<PaymentMetrics, 'refundCallbacks'> }) {
  const router = Router();
  const readResult = resultCallbackReader(deps);
  const json = express.json({ limit: '32kb' });
  const routes = declareRoutes(router, 'M-Pesa callbacks');
  const named = { b2c: 'a B2C refund payout', reversal: 'a reversal', status: 'a Transaction Status query' };

  for (const kind of ['b2c', 'reversal', 'status'] as const) {
    for (const which of ['result', 'timeout'] as const) {
      const route = `${kind}-${which}`;
      const count = (outcome: string) => deps.metrics.refundCallbacks.inc({ route, outcome });
      routes.post(
        `/${kind}/${which}/:secret`,
        {
          summary: which === 'result' ? `Daraja's result of ${named[kind]}` : `Daraja's queue timeout of ${named[kind]}`,
          description: kind === 'status' ? 'Our attempt and refund method are named by the URL (`?ocid=&method=`).' : 'Our attempt is named by the URL (`?ocid=`).',
          access: 'daraja',
          use: [json],
          responses: {
            200: darajaAnswer(which === 'result' ? 'Journaled for the API server (`outcome` says what it came to).' : 'Logged: the API server asks for the status later.', darajaAccepted),
            400: darajaAnswer('Not a result Daraja sent (malformed).'),
            // Never 503: a result is journaled here whether or not the API server is up.
            403: darajaRefusals[403],
            404: darajaRefusals[404],
          },
        },
        ({ req, res }) => {
          const result = readResult(req, route, count);
          const attempt = attemptOf(req);
          if (which === 'timeout') {
            deps.logger.info(`${kind} request ${attempt ?? result.originatorConversationId ?? '?'} timed out in the M-Pesa queue; the API server asks for its status`);
            count('timeout');
            return void res.json({ ResultCode: 0, ResultDesc: 'Accepted' });
          }
          const method = methodOf(req);
          const outcome = kind !== 'status' ? deps.refunds.result(kind, attempt, result) : attempt && method ? deps.refunds.statusResult(method, attempt, result) : 'unknown';
          count(outcome);
          if (outcome === 'unknown') throw refused(404, 'Unknown request');
          res.json({ ResultCode: 0, ResultDesc: 'Accepted', outcome });
        },
      );
    }
  }
  return router;
}
