import { clientErrorAnswer, errorBody } from '@tukio/shared/error-body';
import { isRedisUnavailable } from '@tukio/shared/node/redis';
import { loggedRoute } from '@tukio/shared/node/request-context';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError } from './app-error.js';
import { pgErrorCode } from './db-errors.js';
import type { Logger } from './logger.js';

/** Codes node-postgres and PGlite raise when the database cannot be reached or is shutting down. */
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '53300']);

function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = pgErrorCode(error);
  // Class 08 is "connection exception" (the server went away mid-conversation).
  if (code && (unavailableCodes.has(code) || code.startsWith('08'))) return true;
  const messages = [error, (error as { cause?: unknown }).cause].map((e) => String((e as { message?: unknown } | undefined)?.message ?? ''));
  // "database … is not currently accepting connections" (55000, ALLOW_CONNECTIONS false or a maintenance window) comes at connect time.
  return messages.some((message) =>
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|PGlite is closed|is not currently accepting connections/i.test(message),
  );
}

/** An AppError's body: its message and code, the field it names, its message's variable parts, and what its route's contract adds. */
export function appErrorBody(error: AppError) {
  const details = error.details;
  return errorBody(error.message, error.code, {
    ...(details?.field ? { field: details.field } : {}),
    ...(details?.params ? { params: details.params } : {}),
    ...details?.body,
  });
}

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json(errorBody('This API route does not exist.', 'route_not_found'));
};

export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) return;
    if (error instanceof AppError) {
      res.status(error.status).json(appErrorBody(error));
      return;
    }
    // Multer limit errors from any upload route: the client sent too much or the wrong parts.
    if ((error as { name?: unknown } | null)?.name === 'MulterError') {
      const code = (error as { code?: unknown }).code;
      res
        .status(code === 'LIMIT_FILE_SIZE' ? 413 : 400)
        .json(code === 'LIMIT_FILE_SIZE' ? errorBody('The file is too large.', 'file_too_large') : errorBody('The upload could not be read.', 'upload_unreadable'));
      return;
    }
    // The body parser's refusals (not JSON, too large, an unsupported type) keep their 4xx.
    const answer = clientErrorAnswer(error, 'Unsupported content type.');
    if (answer) {
      res.status(answer.status).json(answer.body);
      return;
    }
    // Redis too, where a route fails closed without it (the waiting room: no seat hold is let past an uncounted line).
    if (isDatabaseUnavailable(error) || isRedisUnavailable(error)) {
      logger.error(`${isRedisUnavailable(error) ? 'redis' : 'database'} unavailable on ${req.method} ${loggedRoute(req)}`, error);
      res.status(503).json(errorBody('Tukio is temporarily unavailable. Please try again in a moment.', 'service_unavailable'));
      return;
    }
    logger.error(`unexpected error on ${req.method} ${loggedRoute(req)}`, error);
    res.status(500).json(errorBody('Something went wrong on our side. Please try again.', 'internal_error'));
  };
}
