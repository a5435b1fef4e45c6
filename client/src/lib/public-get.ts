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

/** An answer's status and whole body, read as text (the request rejects when no answer came). */
export interface RawAnswer {
  status: number;
  ok: boolean;
  text: string;
}

export async function readAnswer(request: Promise<Response>): Promise<RawAnswer> {
  const response = await request;
  return { status: response.status, ok: response.ok, text: await response.text() };
}

export interface SettleOptions {
  signal?: AbortSignal | undefined;
  /** The Authorization header the request carried (a 401 to the current token ends the session). */
  authorization: string | null;
  skipSessionReset?: boolean | undefined;
}

/**
 * An answer as this module's callers get it: the status and parsed JSON body (undefined when
 * empty), or an HttpError for a failure or no answer. Shared with the early reads (./early-reads).
 */
export async function settleAnswer<T>(answer: Promise<RawAnswer>, { signal, authorization, skipSessionReset }: SettleOptions): Promise<{ status: number; data: T }> {
  let raw: RawAnswer;
  try {
    raw = await answer;
  } catch (error) {
    // Aborted by the caller: rethrown as is. Otherwise no answer arrived (offline, server down).
    throw signal?.aborted ? error : new HttpError('Network Error');
  }
  // An answer that arrived after the caller gave up is not theirs any more (as with fetch itself).
  signal?.throwIfAborted();
  let data: unknown = raw.text;
  try {
    data = raw.text ? JSON.parse(raw.text) : undefined;
  } catch {
    // not JSON (e.g. a proxy error page): keep the text
  }
  if (!raw.ok) {
    if (raw.status === 401 && authorization && !skipSessionReset) {
      (await import('./session-auth')).handleUnauthorized(authorization, data);
    }
    throw new HttpError(`Request failed with status code ${raw.status}`, { status: raw.status, data });
  }
  return { status: raw.status, data: data as T };
}

/** `method` `/api${path}`; resolves with the parsed JSON body (undefined when empty). */
export async function fetchJson<T>(path: string, { method, signal, auth, skipSessionReset }: FetchJsonOptions = {}): Promise<T> {
  const authorization = auth ? getBearer() : null;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (authorization) headers.Authorization = authorization;
  const answer = readAnswer(fetch(env.apiBaseUrl + path, { method, headers, signal }));
  return (await settleAnswer<T>(answer, { signal, authorization, skipSessionReset })).data;
}

/** Anonymous GET `/api${path}` (no token sent); resolves with the parsed JSON body. */
export function getPublicJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return fetchJson<T>(path, { signal });
}
