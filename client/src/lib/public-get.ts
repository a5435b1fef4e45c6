/**
 * JSON over `fetch`, for the reads a page needs on its first paint: the home and /events lists
 * (anonymous) and, on the event detail page, the event, its related events, its comments and the
 * opened count (with the stored token, so an organiser or admin still sees their own pending
 * event). The axios client (./api-client) would add ~21 KB gzip to those pages' first load; every
 * other call goes through it. Failures throw an HttpError whose `response` has the same
 * `{status, data}` shape as an axios error (absent when no answer arrived, like axios), so
 * ./errors reads both. A 401 to a call made with the current token ends the session exactly like
 * the axios client does (./session-auth, loaded only then: it is not on the home route's first
 * load). Unlike the axios client there is no 30 s timeout (the browser's own applies).
 */
import { env } from '../config/env';
import { getBearer } from './session-store';

export class HttpError extends Error {
  /** Marks this module's errors for `isRequestError` in ./errors (axios errors carry `isAxiosError`). */
  readonly isHttpError = true;
  /** The server's answer; undefined when none arrived (network failure). */
  readonly response?: { status: number; data: unknown };

  constructor(message: string, response?: { status: number; data: unknown }) {
    super(message);
    this.name = 'HttpError';
    this.response = response;
  }
}

export interface FetchJsonOptions {
  /** Default GET. POST sends no body. */
  method?: 'GET' | 'POST';
  signal?: AbortSignal;
  /** Send the stored bearer token (as `api` does unless `skipAuth`). Default: anonymous. */
  auth?: boolean;
  /** With `auth`: keep the session even if this call answers 401. */
  skipSessionReset?: boolean;
}

/** `method` `/api${path}`; resolves with the parsed JSON body (undefined when empty). */
export async function fetchJson<T>(path: string, { method, signal, auth, skipSessionReset }: FetchJsonOptions = {}): Promise<T> {
  const authorization = auth ? getBearer() : null;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (authorization) headers.Authorization = authorization;
  let response: Response;
  let text: string;
  try {
    response = await fetch(env.apiBaseUrl + path, { method, headers, signal });
    text = await response.text();
  } catch (error) {
    // Aborted by the caller: rethrown as is. Otherwise no answer arrived (offline, server down).
    throw signal?.aborted ? error : new HttpError('Network Error');
  }
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (e.g. a proxy error page): keep the text
  }
  if (!response.ok) {
    if (response.status === 401 && authorization && !skipSessionReset) {
      (await import('./session-auth')).handleUnauthorized(authorization);
    }
    throw new HttpError(`Request failed with status code ${response.status}`, { status: response.status, data });
  }
  return data as T;
}

/** Anonymous GET `/api${path}` (no token sent); resolves with the parsed JSON body. */
export function getPublicJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return fetchJson<T>(path, { signal });
}
