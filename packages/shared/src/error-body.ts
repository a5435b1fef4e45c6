import type { ErrorCode, ErrorParams } from './error-codes.js';

/**
 * The JSON body of a failure, as the API server and the payment service both answer it (docs/architecture.md,
 * "Rules"): the message in both spellings (`msg` for the original clients, `message`), its stable `code` (and
 * the `params` of its variable parts) for a client to say it in the user's language, then what the endpoint's
 * contract adds (`field`, `errorCode`, `success: false`, …). The request-context middleware adds `requestId`
 * to 5xx bodies. Browser-safe: type imports only.
 */
export interface ErrorBody {
  msg: string;
  message: string;
  /** What went wrong, machine-readable (@tukio/shared/error-codes). */
  code: ErrorCode;
  /** The variable parts of the message, when it has some. */
  params?: ErrorParams;
  /** The input field the message is about, for a form to show it there. */
  field?: string;
  /** On 5xx answers: the id the service's log lines for the request carry. */
  requestId?: string;
  [extra: string]: unknown;
}

export function errorBody(message: string, code: ErrorCode, extra?: Record<string, unknown>): ErrorBody {
  return { msg: message, message, code, ...extra };
}

/**
 * The answer to an error Express's body parser (or other middleware) threw with a 4xx `status`, or undefined
 * for anything else. Its own messages never reach the user: they name internals.
 */
export function clientErrorAnswer(error: unknown, unsupportedTypeMessage: string): { status: number; body: ErrorBody } | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return { status: 400, body: errorBody('The request body is not valid JSON.', 'invalid_json') };
  if (type === 'entity.too.large') return { status: 413, body: errorBody('The request body is too large.', 'body_too_large') };
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return {
    status,
    body: status === 415 ? errorBody(unsupportedTypeMessage, 'unsupported_content_type') : errorBody('The request could not be processed.', 'bad_request'),
  };
}
