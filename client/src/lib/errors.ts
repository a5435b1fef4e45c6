/*
 * Error helpers shared by every page. No axios import here on purpose (importing even
 * `isAxiosError` pulls the whole library): the checks are structural, so they work for axios
 * errors and for the HttpError of ./public-get. App code uses `isRequestError` / `getErrorStatus`
 * instead of axios's `isAxiosError`.
 */

/** A failed HTTP request: an axios error or ./public-get's HttpError. */
export interface RequestError extends Error {
  /** The server's answer; undefined when none arrived (network failure, timeout). */
  response?: { status: number; data: unknown };
}

/** True for an axios error or an HttpError (a request that failed, answered or not). */
export function isRequestError(error: unknown): error is RequestError {
  if (typeof error !== 'object' || error === null) return false;
  const flags = error as { isAxiosError?: unknown; isHttpError?: unknown };
  return flags.isAxiosError === true || flags.isHttpError === true;
}

/** The answer attached to a failed request (axios error or HttpError), if the server answered. */
export function getErrorResponse(error: unknown): { status: number; data: unknown } | null {
  if (typeof error !== 'object' || error === null) return null;
  const response = (error as { response?: unknown }).response;
  if (typeof response !== 'object' || response === null) return null;
  const { status, data } = response as { status?: unknown; data?: unknown };
  return typeof status === 'number' ? { status, data } : null;
}

/** HTTP status of the server's answer to a failed request, if it answered. */
export function getErrorStatus(error: unknown): number | undefined {
  return getErrorResponse(error)?.status;
}

/** Message the server put in the error body (`msg` or `message`), if any. */
export function getServerMessage(error: unknown): string | null {
  const data = getErrorResponse(error)?.data;
  if (typeof data === 'object' && data !== null) {
    const body = data as Record<string, unknown>;
    if (typeof body.msg === 'string' && body.msg.trim() !== '') return body.msg;
    if (typeof body.message === 'string' && body.message.trim() !== '') return body.message;
  }
  return null;
}

/** The field a refusal names with its message (`{field: 'ticketTypes.1.price', msg}`), if it names one. */
export function getServerFieldError(error: unknown): { field: string; msg: string } | null {
  const data = getErrorResponse(error)?.data;
  if (typeof data !== 'object' || data === null) return null;
  const { field, msg } = data as { field?: unknown; msg?: unknown };
  return typeof field === 'string' && typeof msg === 'string' ? { field, msg } : null;
}

/** Server message when present, else the given fallback text. */
export function getErrorMessage(error: unknown, fallback: string): string {
  return getServerMessage(error) ?? fallback;
}
