import { confirmPaymentBody, stkPushBody } from '@tukio/shared/internal-api';
import { ADAPTER_KEY_HEADER, adapterKey } from '@tukio/shared/node/adapter-key';
import { bearerToken } from '@tukio/shared/node/bearer-token';
import { neverSent } from '@tukio/shared/node/http-request';
import { errorBody } from '@tukio/shared/error-body';
import { currentRequestId, REQUEST_ID_HEADER } from '@tukio/shared/node/request-context';
import { Router, type Request, type Response } from 'express';
import type { Logger } from '../logger.js';
import { declareRoutes } from '../route-declaration.js';


/** Headers of the API server's answer the client may read: its body's type and the budgets' state. */
const ANSWER_HEADERS = ['content-type', 'ratelimit', 'ratelimit-policy', 'retry-after'];

/** What the API server may answer besides its own refusals: this adapter's, when it cannot reach the API server. */
const forwardedAnswers = {
  200: "The API server's answer as it sent it: status, body and budget headers (its refusals too, as its /pay route documents them).",
  502: '`payment_outcome_unknown`: the API server had the request but did not answer; the prompt may be on the phone.',
  503: 'The API server is unreachable (`service_unavailable`; confirmPayment: `payment_not_confirmed`, `success: false`).',
};

/**
 * POST /api/stkPush and /api/confirmPayment on this service's own port, for clients written against the
 * original contract: a thin adapter over the API server's checkout (/pay/stkPush, /pay/confirmPayment), which
 * holds every price, seat and order rule. The buyer's token, body and language pass through; the buyer's
 * address goes with the key that makes the API server believe it (its per-address budget).
 */
export function createPaymentsRouter(deps: { apiUrl: string; internalApiKey: string; timeoutMs: number; logger: Logger }) {
  const router = Router();
  const key = adapterKey(deps.internalApiKey);
  const base = deps.apiUrl.replace(/\/+$/, '');

  const forward = (path: '/stkPush' | '/confirmPayment') => async (req: Request, res: Response) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-forwarded-for': req.ip ?? req.socket.remoteAddress ?? '',
      [ADAPTER_KEY_HEADER]: key,
    };
    const token = bearerToken(req);
    if (token) headers.authorization = `Bearer ${token}`;
    const language = req.get('accept-language');
    if (language) headers['accept-language'] = language;
    const requestId = currentRequestId();
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    let answer: globalThis.Response;
    try {
      answer = await fetch(`${base}/pay${path}`, { method: 'POST', headers, body: JSON.stringify(req.body ?? {}), signal: AbortSignal.timeout(deps.timeoutMs) });
    } catch (error) {
      const sent = !neverSent(error);
      deps.logger.error(`the API server's checkout ${sent ? 'did not answer' : 'is unreachable'} (${path})`, error);
      if (path === '/confirmPayment') return void res.status(503).json(errorBody('An error occurred during payment confirmation', 'payment_not_confirmed', { success: false }));
      // Once the API server had the request, the prompt may be on the phone: never "try again" then.
      if (sent) return void res.status(502).json(errorBody('Your M-Pesa prompt may have been sent: watch your phone. If you pay, your tickets will follow.', 'payment_outcome_unknown'));
      return void res.status(503).json(errorBody('Failed to initiate payment: Tukio is temporarily unavailable. Please try again in a moment.', 'service_unavailable'));
    }
    res.status(answer.status);
    for (const name of ANSWER_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) res.setHeader(name, value);
    }
    res.send(Buffer.from(await answer.arrayBuffer()));
  };

  const routes = declareRoutes(router, 'Payments (adapter)');
  routes.post(
    '/stkPush',
    {
      summary: "Buy tickets by M-Pesa prompt: forwarded to the API server's checkout (POST /pay/stkPush)",
      description: "The buyer's bearer token (optional: without one the phone buys as a guest), body and language go to the API server, which answers as its /pay/stkPush does.",
      access: 'public',
      documentedBody: stkPushBody,
      responses: forwardedAnswers,
    },
    ({ req, res }) => forward('/stkPush')(req, res),
  );
  routes.post(
    '/confirmPayment',
    {
      summary: "Where a purchase by M-Pesa prompt stands: forwarded to the API server's POST /pay/confirmPayment",
      access: 'public',
      documentedBody: confirmPaymentBody,
      responses: forwardedAnswers,
    },
    ({ req, res }) => forward('/confirmPayment')(req, res),
  );
  return router;
}
