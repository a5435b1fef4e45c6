import { payoutStatusBody, sendPayoutAnswer, sendPayoutBody } from '@tukio/shared/internal-payouts';
import express, { Router, type Request } from 'express';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import { payoutAttemptOf, type Payouts } from '../payouts/payouts.js';
import { declareRoutes } from '../route-declaration.js';
import { darajaAccepted, darajaAnswer, darajaRefusals, refused, resultCallbackReader } from './callback.routes.js';

/**
 * /internal/payouts and /internal/payouts/status: what the API server asks of M-Pesa for organiser payouts
 * (X-Internal-Key). The results come back through Daraja's callbacks below and the outbox.
 */
export function createPayoutRouter(deps: { internalApiKey: string; payouts: Payouts }) {
  const router = Router();
  const routes = declareRoutes(router, 'Internal', { internalKey: deps.internalApiKey });
  const json = express.json({ limit: '4kb' });

  routes.post(
    '/internal/payouts',
    {
      summary: 'Send one organiser payout attempt to M-Pesa, once',
      description:
        'B2C BusinessPayment to a phone, B2B BusinessPayBill to a Paybill account, or BusinessBuyGoods to a Till. The same `originatorConversationId` again gets the first answer without a second request.',
      access: 'internal',
      use: [json],
      body: sendPayoutBody,
      responses: {
        200: { description: 'Daraja queued it (`accepted`: its result follows through POST /api/internal/payouts/results) or refused it (`rejected`: nothing was paid).', schema: sendPayoutAnswer },
        400: 'Invalid input (`msg` names the field).',
        502: 'Sent, and Daraja’s answer was lost (`payment_outcome_unknown`): ask for its status.',
        503: 'Never sent (`mpesa_unreachable`): M-Pesa is not reachable, or payouts are not configured.',
      },
    },
    ({ body }) => deps.payouts.send(body),
  );

  routes.post(
    '/internal/payouts/status',
    {
      summary: 'Ask M-Pesa (Transaction Status) what became of a payout attempt',
      access: 'internal',
      use: [json],
      body: payoutStatusBody,
      responses: {
        202: { description: 'Asked: a definite answer comes as a result through POST /api/internal/payouts/results.', schema: z.object({ asked: z.literal(true) }) },
        400: 'Invalid input (`msg` names the field).',
        409: 'Nothing names this B2B attempt to M-Pesa (no journaled answer and no `conversationId`): check the M-Pesa statement.',
        502: 'M-Pesa refused the query (`mpesa_refused`) or its answer was lost (`mpesa_unreachable`).',
        503: 'M-Pesa is not reachable (`mpesa_unreachable`).',
      },
    },
    async ({ body }) => {
      await deps.payouts.status(body);
      return { asked: true as const };
    },
  );

  return router;
}

/** Our attempt as the request's URL names it (`?ocid=`): Daraja names a B2B request and a status query with its own ids. */
const attemptOf = (req: Request) => payoutAttemptOf(req.query.ocid);

/**
 * Daraja's results for organiser payouts, mounted at /api/mpesa: `POST /payout/{result,timeout,status-result,
 * status-timeout}/:secret?ocid=<attempt>`. As the refund callbacks: a secret path segment keeps strangers out. A
 * result is normalized, written to the outbox (on disk) and only then acknowledged; the same result twice is
 * queued once. A queue timeout is not a result: logged and counted (the API server asks for the status).
 */
export function createPayoutCallbackRouter(deps: { payouts: Payouts; secret: string; logger: Logger; metrics: Pick<PaymentMetrics, 'payoutCallbacks'> }) {
  const router = Router();
  const readResult = resultCallbackReader(deps);
  const json = express.json({ limit: '32kb' });
  const routes = declareRoutes(router, 'M-Pesa callbacks');

  for (const route of ['result', 'timeout', 'status-result', 'status-timeout'] as const) {
    const timeout = route.endsWith('timeout');
    const about = route.startsWith('status') ? 'a Transaction Status query about an organiser payout' : 'an organiser payout';
    const count = (outcome: string) => deps.metrics.payoutCallbacks.inc({ route, outcome });
    routes.post(
      `/payout/${route}/:secret`,
      {
        summary: timeout ? `Daraja's queue timeout of ${about}` : `Daraja's result of ${about}`,
        description: 'Our attempt is named by the URL (`?ocid=`).',
        access: 'daraja',
        use: [json],
        responses: {
          200: darajaAnswer(timeout ? 'Logged: the API server asks for the status later.' : 'Journaled for the API server (`outcome` says what it came to).', darajaAccepted),
          400: darajaAnswer('Not a result Daraja sent (malformed).'),
          // Never 503: a result is journaled here whether or not the API server is up.
          403: darajaRefusals[403],
          404: darajaRefusals[404],
        },
      },
      ({ req, res }) => {
        const result = readResult(req, `payout ${route}`, count);
        const attempt = attemptOf(req);
        if (timeout) {
          deps.logger.info(`payout ${route === 'timeout' ? 'request' : 'status query'} ${attempt ?? result.originatorConversationId ?? '?'} timed out in the M-Pesa queue; the API server asks for its status`);
          count('timeout');
          return void res.json({ ResultCode: 0, ResultDesc: 'Accepted' });
        }
        const outcome = route === 'result' ? deps.payouts.result(attempt, result) : attempt ? deps.payouts.statusResult(attempt, result) : 'unknown';
        count(outcome);
        if (outcome === 'unknown') throw refused(404, 'Unknown request');
        res.json({ ResultCode: 0, ResultDesc: 'Accepted', outcome });
      },
    );
  }
  return router;
}
