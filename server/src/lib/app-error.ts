import type { ErrorCode, ErrorParams } from '@tukio/shared/error-codes';

export type { ErrorCode, ErrorParams };

/** What a failure adds to its body: the field it is about, its message's variable parts, its route's contract extras. */
export interface AppErrorDetails {
  field?: string;
  params?: ErrorParams;
  body?: Record<string, unknown>;
}

/** A factory's last argument: the field the message is about, or the full details. */
type FieldOrDetails = string | AppErrorDetails | undefined;
const detailsOf = (value: FieldOrDetails): AppErrorDetails | undefined => (typeof value === 'string' ? { field: value } : value);

/**
 * The one error type services throw. `status` becomes the HTTP status; `code` is the stable name of
 * what went wrong (@tukio/shared/error-codes), which the client translates; `message` is the English
 * text shown to the user, so it must be written for them. `details.params` are the message's variable
 * parts (the client fills its translation with them); `details.body` lets a route keep a contract's
 * failure shape.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: AppErrorDetails,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest(code: ErrorCode, message: string, details?: FieldOrDetails) {
    return new AppError(400, code, message, detailsOf(details));
  }
  static unauthorized(code: ErrorCode = 'login_required', message = 'Please log in to continue.') {
    return new AppError(401, code, message);
  }
  static forbidden(code: ErrorCode = 'not_allowed', message = 'You are not allowed to do that.', details?: FieldOrDetails) {
    return new AppError(403, code, message, detailsOf(details));
  }
  static notFound(code: ErrorCode = 'not_found', message = 'Not found.', details?: FieldOrDetails) {
    return new AppError(404, code, message, detailsOf(details));
  }
  static conflict(code: ErrorCode, message: string, details?: FieldOrDetails) {
    return new AppError(409, code, message, detailsOf(details));
  }
}
