import type { RefundMethod } from '@tukio/shared/internal-refunds';
import express, { Router, type Request } from 'express';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import { ATTEMPT_ID, type RefundResults } from '../refunds/refund-results.js';
import { declareRoutes } from '../route-declaration.js';
import { darajaAccepted, darajaAnswer, darajaRefusals, refused, resultCallbackReader } from './callback.routes.js';

/** Our attempt as the request's URL names it (`?ocid=`): Daraja names a reversal or a status query with its own ids. */
const attemptOf = (req: Request) => (typeof req.query.ocid === 'string' && ATTEMPT_ID.test(req.query.ocid) ? req.query.ocid : undefined);
const methodOf = (req: Request): RefundMethod | undefined => (req.query.method === 'b2c' || req.query.method === 'reversal' ? req.query.method : undefined);

/**
 * Daraja's results for refunds, mounted at /api/mpesa: `POST /b2c/result/:secret`, `/b2c/timeout/:secret`,
 * `/reversal/result/:secret`, `/reversal/timeout/:secret`, `/status/result/:secret`, `/status/timeout/:secret`.
 * As the STK callback: a secret path segment keeps strangers out, and the API server checks the rest (a
 * known attempt; a success with the refund's amount). Duplicates are harmless there. A queue timeout is not
 * a result: it is logged and counted, and the attempt stays sent until the reconciler's Transaction Status
 * query settles it. Daraja only needs `{ResultCode: 0}`.
 */
export function createRefundCallbackRouter(deps: { results: RefundResults; secret: string; logger: Logger; metrics: Pick<PaymentMetrics, 'refundCallbacks'> }) {
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
          ...(kind === 'status' ? { description: 'Our attempt and refund method are named by the URL (`?ocid=&method=`).' } : {}),
          access: 'daraja',
          use: [json],
          responses: {
            200: darajaAnswer(which === 'result' ? 'Accepted (`outcome` says what it settled).' : 'Logged: the reconciler asks what became of the request.', darajaAccepted),
            400: darajaAnswer('Not a result Daraja sent (malformed).'),
            ...darajaRefusals,
          },
        },
        async ({ req, res }) => {
          const result = readResult(req, route, count);
          const attempt = attemptOf(req);
          if (which === 'timeout') {
            deps.logger.info(`${kind} request ${attempt ?? result.originatorConversationId ?? '?'} timed out in the M-Pesa queue; the reconciler will ask what became of it`);
            count('timeout');
            return void res.json({ ResultCode: 0, ResultDesc: 'Accepted' });
          }
          let outcome;
          if (kind === 'status') {
            const method = methodOf(req);
            if (!attempt || !method) {
              count('unknown');
              throw refused(404, 'Unknown request');
            }
            outcome = await deps.results.status(method, attempt, result);
          } else {
            outcome = await deps.results.payout(kind, attempt, result);
          }
          count(outcome);
          if (outcome === 'unavailable') throw refused(503, 'Temporarily unavailable');
          if (outcome === 'unknown') throw refused(404, 'Unknown request');
          if (outcome === 'malformed') throw refused(400, 'Malformed result');
          res.json({ ResultCode: 0, ResultDesc: 'Accepted', outcome });
        },
      );
    }
  }
  return router;
}
