/**
 * The one shared HTTP client. Every API call in the app goes through `api`, except the few public
 * reads a page needs for its first paint (./public-get, `fetch`).
 *  - baseURL `/api` (same origin; Vite proxies it to the server in dev/preview), 30 s timeout,
 *    `Accept: application/json`
 *  - attaches `Authorization: Bearer <token>` from the session store
 *    (opt out per request with `{ skipAuth: true }`)
 *  - says the app's language in `Accept-Language`: a guest's tickets (SMS, email) are written in it
 *  - a 401 answer to a call that carried the current token clears the session and says so
 *    (opt out per request with `{ skipSessionReset: true }`; ./session-auth, shared with ./public-get)
 *
 * axios (~21 KB gzip) is loaded on the first call (`import('axios')`, then cached), so a page
 * downloads it only when it actually makes such a call; the reads fetched early for a signed-in
 * page (./early-reads) are answered without it. `api.get/post/put/patch/delete` have
 * axios's signatures and resolve with the axios response. Only `import type` from 'axios' in app
 * code: a value import (even `isAxiosError`, use `isRequestError` from ./errors) pulls it all in.
 */
import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import { env } from '../config/env';
import { takeEarlyRead } from './early-reads';
import { getLanguage } from './i18n/runtime';
import { settleAnswer } from './public-get';
import { handleUnauthorized } from './session-auth';
import { getBearer } from './session-store';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not attach the bearer token. */
    skipAuth?: boolean;
    /** Do not clear the session when this call answers 401. */
    skipSessionReset?: boolean;
  }
}

type AxiosModule = typeof import('axios');
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The request methods the app uses, with axios's own signatures. */
export type HttpClient = Pick<AxiosInstance, Method>;

/**
 * An axios client for one origin, created on its first request (loading axios then) and reused
 * after; a failed load (e.g. offline) is retried by the next request. It sends the stored bearer
 * token unless `skipAuth`, and with `endSessionOn401` a 401 to a call made with the current token
 * ends the session (unless `skipSessionReset`).
 */
export function lazyAxiosClient(options: { baseURL: string; timeout: number; endSessionOn401: boolean }): HttpClient {
  const create = ({ default: axios, AxiosHeaders }: AxiosModule): AxiosInstance => {
    const client = axios.create({ baseURL: options.baseURL, headers: { Accept: 'application/json' }, timeout: options.timeout });
    client.interceptors.request.use((config) => {
      const headers = AxiosHeaders.from(config.headers);
      if (!config.skipAuth && !headers.has('Authorization')) {
        const authorization = getBearer();
        if (authorization) headers.set('Authorization', authorization);
      }
      if (!headers.has('Accept-Language')) headers.set('Accept-Language', getLanguage());
      config.headers = headers;
      return config;
    });
    if (options.endSessionOn401) {
      client.interceptors.response.use(undefined, (error: unknown) => {
        if (axios.isAxiosError(error) && error.response?.status === 401 && !error.config?.skipSessionReset) {
          handleUnauthorized(AxiosHeaders.from(error.config?.headers).get('Authorization'), error.response.data);
        }
        return Promise.reject(error);
      });
    }
    return client;
  };
  let instance: Promise<AxiosInstance> | null = null;
  const load = () =>
    (instance ??= import('axios').then(create, (error: unknown) => {
      instance = null;
      throw error;
    }));
  const forward = <M extends Method>(method: M) =>
    ((...args: unknown[]) =>
      load().then((client) => (client[method] as (...rest: unknown[]) => Promise<unknown>).apply(client, args))) as HttpClient[M];
  return { get: forward('get'), post: forward('post'), put: forward('put'), patch: forward('patch'), delete: forward('delete') };
}

/**
 * A GET whose answer was fetched early for the page the tab opened with (./early-reads) resolves
 * from that answer, without loading axios: same data, same errors (HttpError, shaped like an axios
 * error), same 401 handling. Only plain calls qualify: no query params, headers or other options.
 */
function withEarlyReads(client: HttpClient): HttpClient {
  const plain = (config: AxiosRequestConfig | undefined) =>
    !config || Object.keys(config).every((option) => option === 'signal' || option === 'skipSessionReset');
  const get = (url: string, config?: AxiosRequestConfig) => {
    const authorization = getBearer();
    const early = plain(config) ? takeEarlyRead(url, authorization) : null;
    if (!early) return client.get(url, config);
    const signal = config?.signal instanceof AbortSignal ? config.signal : undefined;
    return settleAnswer(early, { signal, authorization, skipSessionReset: config?.skipSessionReset }).then(
      // The fields callers read; the rest of an axios response (headers, config) is not used by the app.
      ({ status, data }) => ({ data, status, statusText: '', headers: {}, config: {} }),
    );
  };
  return { ...client, get: get as HttpClient['get'] };
}

export const api = withEarlyReads(lazyAxiosClient({ baseURL: env.apiBaseUrl, timeout: 30_000, endSessionOn401: true }));
