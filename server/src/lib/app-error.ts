/**
 * The one error type services throw. `status` becomes the HTTP status; `message` is shown to the
 * user, so it must be written for them. `body` lets a route keep a contract's failure shape.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: { field?: string; body?: Record<string, unknown> },
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest(message: string, field?: string) {
    return new AppError(400, message, field ? { field } : undefined);
  }
  static unauthorized(message = 'Please log in to continue.') {
    return new AppError(401, message);
  }
  static forbidden(message = 'You are not allowed to do that.') {
    return new AppError(403, message);
  }
  static notFound(message = 'Not found.') {
    return new AppError(404, message);
  }
  static conflict(message: string, field?: string) {
    return new AppError(409, message, field ? { field } : undefined);
  }
}
