/**
 * The one HTTP client: JSON over `fetch`. `api` calls the API server (`/api`), `createHttpClient` makes the
 * payment service's twin (features/tickets/api/payment-client.ts).
 *  - `Accept: application/json`, the app's language in `Accept-Language` (a guest's tickets, SMS and
 *    email, are written in it), a timeout per client
 *  - the stored bearer token in `Authorization` (opt out per request with `skipAuth`)
 *  - with `endSessionOn401`, a 401 to a call that carried the current token ends the session and says so
 *    (./session-auth; opt out per request with `skipSessionReset`)
 *  - a failure rejects with an HttpError: `response` is the server's answer `{status, data}`, absent when
 *    none arrived (offline, timeout); ./errors reads it.
 */
import { env } from '../config/env';
import { getLanguage } from './i18n/runtime';
import { getBearer } from './session-store';

export class HttpError extends Error {
  /** Marks this module's errors for `isRequestError` in ./errors. */
  readonly isHttpError = true;
  /** The server's answer; undefined when none arrived (network failure, timeout). */
  readonly response?: { status: number; data: unknown };

  constructor(message: string, response?: { status: number; data: unknown }) {
    super(message);
    this.name = 'HttpError';
    this.response = response;
  }
}

export interface RequestOptions {
  /** Query parameters; undefined and null ones are left out. */
  params?: Record<string, string | number | boolean | null | undefined> | undefined;
  signal?: AbortSignal | undefined;
  headers?: Record<string, string>;
  /** Do not attach the bearer token. */
  skipAuth?: boolean;
  /** Do not end the session when this call answers 401. */
  skipSessionReset?: boolean;
  /** 'blob' for a file (a CSV export); JSON otherwise. */
  responseType?: 'json' | 'blob';
}

export interface HttpResponse<T> {
  data: T;
  status: number;
}

type BodyMethod = <T = unknown>(url: string, body?: unknown, options?: RequestOptions) => Promise<HttpResponse<T>>;
type PlainMethod = <T = unknown>(url: string, options?: RequestOptions) => Promise<HttpResponse<T>>;

export interface HttpClient {
  get: PlainMethod;
  delete: PlainMethod;
  post: BodyMethod;
  put: BodyMethod;
  patch: BodyMethod;
}

function queryString(params: RequestOptions['params']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) if (value !== undefined && value !== null) search.append(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

function parseBody(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text; // not JSON (e.g. a proxy's error page): kept as text
  }
}

export function createHttpClient({ baseURL, timeout, endSessionOn401 }: { baseURL: string; timeout: number; endSessionOn401: boolean }): HttpClient {
  async function request<T>(method: string, url: string, body: unknown, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const headers = new Headers({ Accept: 'application/json', 'Accept-Language': getLanguage(), ...options.headers });
    const bearer = options.skipAuth || headers.has('Authorization') ? null : getBearer();
    if (bearer) headers.set('Authorization', bearer);
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined && body !== null) {
      headers.set('Content-Type', 'application/json');
      payload = JSON.stringify(body);
    }
    const timer = AbortSignal.timeout(timeout);
    const signal = options.signal ? AbortSignal.any([options.signal, timer]) : timer;
    let response: Response;
    let data: unknown;
    try {
      response = await fetch(baseURL + url + queryString(options.params), { method, headers, body: payload, signal });
      data = options.responseType === 'blob' && response.ok ? await response.blob() : parseBody(await response.text());
    } catch (error) {
      // Aborted by the caller: rethrown as is. Otherwise no answer arrived (offline, server down, timeout).
      if (options.signal?.aborted) throw error;
      throw new HttpError(timer.aborted ? `timeout of ${timeout}ms exceeded` : 'Network Error');
    }
    if (!response.ok) {
      if (endSessionOn401 && response.status === 401 && !options.skipSessionReset) {
        // Loaded only then: the toasts it may show are not on the first load.
        (await import('./session-auth')).handleUnauthorized(headers.get('Authorization'), data);
      }
      throw new HttpError(`Request failed with status code ${response.status}`, { status: response.status, data });
    }
    return { data: data as T, status: response.status };
  }
  const plain = (method: string): PlainMethod => (url, options) => request(method, url, undefined, options);
  const withBody = (method: string): BodyMethod => (url, body, options) => request(method, url, body, options);
  return { get: plain('GET'), delete: plain('DELETE'), post: withBody('POST'), put: withBody('PUT'), patch: withBody('PATCH') };
}

export const api = createHttpClient({ baseURL: env.apiBaseUrl, timeout: 30_000, endSessionOn401: true });
