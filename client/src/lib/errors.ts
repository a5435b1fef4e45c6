/*
 * Error helpers shared by every page, for the HttpError of ./api-client (`isRequestError`,
 * `getErrorStatus`, the server's message in the reader's language).
 *
 * Server failures carry a `code` (and `params`) beside their English `msg` (@tukio/shared/error-codes);
 * the text shown is the `errors` catalog's entry for the code in the current language, a validation
 * failure's the `validation` catalog's entry for its kind. English is the server's own words (the
 * English catalogs hold the same text), so no English error catalog ships with the app; the Kiswahili
 * ones are fetched like any area's once Kiswahili is on. docs/decisions/languages.md.
 */
import type { ErrorCode, ErrorParams } from '@tukio/shared/error-codes';
import { getLanguage, t } from './i18n';
import { registerCatalog } from './i18n/runtime';

/* Area names kept in constants: a literal key here would bundle the English catalogs (see above). */
const ERRORS_AREA = 'errors';
const VALIDATION_AREA = 'validation';
registerCatalog(ERRORS_AREA, {});
registerCatalog(VALIDATION_AREA, {});

/** The catalog text for `key` in the current language, or null when the catalog has none (yet). */
function catalogText(key: string, params: ErrorParams | undefined): string | null {
  const text = t(key, params);
  return text === key ? null : text;
}

/** A failed HTTP request (./api-client's HttpError). */
export interface RequestError extends Error {
  /** The server's answer; undefined when none arrived (network failure, timeout). */
  response?: { status: number; data: unknown };
}

/** True for an HttpError (a request that failed, answered or not). */
export function isRequestError(error: unknown): error is RequestError {
  return typeof error === 'object' && error !== null && (error as { isHttpError?: unknown }).isHttpError === true;
}

/** The answer attached to a failed request, if the server answered. */
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

/** What a failure body says: its English text, code and params. */
function failureOf(data: unknown): { text: string | null; code?: ErrorCode; params?: ErrorParams } | null {
  if (typeof data !== 'object' || data === null) return null;
  const body = data as Record<string, unknown>;
  const text =
    typeof body.msg === 'string' && body.msg.trim() !== ''
      ? body.msg
      : typeof body.message === 'string' && body.message.trim() !== ''
        ? body.message
        : null;
  const params = typeof body.params === 'object' && body.params !== null ? (body.params as ErrorParams) : undefined;
  return { text, ...(typeof body.code === 'string' ? { code: body.code as ErrorCode } : {}), ...(params ? { params } : {}) };
}

/** The code of a failure body (`{msg, code}`), if it has one. */
export function failureCode(body: unknown): string | undefined {
  return failureOf(body)?.code;
}

/** The code of the server's answer to a failed request, if it answered with one. */
export function getErrorCode(error: unknown): string | undefined {
  return failureCode(getErrorResponse(error)?.data);
}

/** A validation failure in the current language: its kind's sentence, with the field's name when the catalog has one. */
function validationText(params: ErrorParams): string | null {
  const field = String(params.field ?? '');
  const label = /^[A-Za-z]+$/.test(field) ? catalogText(`${VALIDATION_AREA}.field${field.charAt(0).toUpperCase()}${field.slice(1)}`, undefined) : null;
  return catalogText(`${VALIDATION_AREA}.${String(params.kind)}`, { ...params, field: label ?? field });
}

/**
 * The server's message for a failed request in the current language: the catalog's text for the
 * body's `code` (filled with its `params`) when there is one, else the server's own text; null when
 * the server gave no message.
 */
export function getServerMessage(error: unknown): string | null {
  return failureMessage(getErrorResponse(error)?.data);
}

/**
 * The message of a failure body in the current language, as `getServerMessage` says it: also for the
 * account calls, which answer their failures as 200 `{status:false, msg, code}`.
 */
export function failureMessage(body: unknown): string | null {
  const answer = failureOf(body);
  if (!answer) return null;
  const { text, code, params } = answer;
  if (getLanguage() === 'en' || !code) return text;
  const translated = code === 'validation_failed' && params?.kind ? validationText(params) : catalogText(`${ERRORS_AREA}.${code}`, params);
  return translated ?? text;
}

/**
 * What to tell the user about a failed request, in the current language: the server's message
 * (translated by its code), else the text of the catalog key `fallbackKey`, else the
 * generic "Something went wrong".
 */
export function serverErrorMessage(error: unknown, fallbackKey?: string): string {
  return getServerMessage(error) ?? t(fallbackKey ?? 'common.errorTitle');
}

/** The field a refusal names with its message (`{field: 'ticketTypes.1.price', msg}`, msg in the current language), if it names one. */
export function getServerFieldError(error: unknown): { field: string; msg: string } | null {
  const data = getErrorResponse(error)?.data;
  if (typeof data !== 'object' || data === null) return null;
  const { field, msg } = data as { field?: unknown; msg?: unknown };
  return typeof field === 'string' && typeof msg === 'string' ? { field, msg: getServerMessage(error) ?? msg } : null;
}

/** Server message when present, else the given fallback text. */
export function getErrorMessage(error: unknown, fallback: string): string {
  return getServerMessage(error) ?? fallback;
}
