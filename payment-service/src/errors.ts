import { clientErrorAnswer, errorBody } from '@tukio/shared/error-body';
import type { ErrorCode } from '@tukio/shared/error-codes';
import { loggedRoute } from '@tukio/shared/node/request-context';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from './logger.js';

/**
 * The one error type of the payment service: what routes, middleware and the checkout service throw
 * for the one handler below to answer. `code` names what went wrong (@tukio/shared/error-codes) for the
 * client to say it in the buyer's language; `message` is the English text shown to the buyer, so it is
 * written for them; `fields` are added to the body (`params` among them when the text has variable parts) (`field`, `errorCode`, `success: false`, …) so each endpoint keeps
 * its contract's failure shape. Daraja's callback is answered in Daraja's own words
 * (`{ResultCode, ResultDesc}`): `reply: 'daraja'`.
 */
export class PaymentServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields: Record<string, unknown> = {},
    readonly reply: 'tukio' | 'daraja' = 'tukio',
  ) {
    super(message);
    this.name = 'PaymentServiceError';
  }
}

/** Behind `/api`, after every router: a path nothing answered. */
export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new PaymentServiceError(404, 'route_not_found', 'This API route does not exist.'));
};

/** The one error handler: a PaymentServiceError as its status and body; 5xx never leak internals. */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) return;
    if (error instanceof PaymentServiceError) {
      if (error.reply === 'daraja') return void res.status(error.status).json({ ResultCode: 1, ResultDesc: error.message });
      return void res.status(error.status).json(errorBody(error.message, error.code, error.fields));
    }
    // The body parser's refusals (not JSON, too large, an unsupported charset or encoding, an aborted upload) keep their 4xx.
    const answer = clientErrorAnswer(error, 'Unsupported content type: send JSON in UTF-8.');
    if (answer) return void res.status(answer.status).json(answer.body);
    logger.error(`unexpected error on ${req.method} ${loggedRoute(req)}`, error);
    res.status(500).json(errorBody('An error occurred during payment. Please try again.', 'payment_failed'));
  };
}
