/**
 * The one shared HTTP client. Every API call in the app goes through `api`.
 *  - baseURL `/api` (same origin; Vite proxies it to the server in dev/preview)
 *  - attaches `Authorization: Bearer <token>` from localStorage `token`
 *    (opt out per request with `{ skipAuth: true }`)
 *  - a 401 answer to a call that carried the current token clears the session
 *    (opt out per request with `{ skipSessionReset: true }`)
 */
import axios, { AxiosHeaders, isAxiosError } from 'axios';
import { notify } from './notify';
import { env } from '../config/env';
import { clearSession, getToken } from './session-store';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not attach the bearer token. */
    skipAuth?: boolean;
    /** Do not clear the session when this call answers 401. */
    skipSessionReset?: boolean;
  }
}

export const api = axios.create({
  baseURL: env.apiBaseUrl,
  headers: { Accept: 'application/json' },
  timeout: 30_000,
});

api.interceptors.request.use((config) => {
  const headers = AxiosHeaders.from(config.headers);
  if (!config.skipAuth && !headers.has('Authorization')) {
    const token = getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
  }
  config.headers = headers;
  return config;
});

api.interceptors.response.use(undefined, (error: unknown) => {
  if (isAxiosError(error) && error.response?.status === 401 && !error.config?.skipSessionReset) {
    const sent = AxiosHeaders.from(error.config?.headers).get('Authorization');
    const current = getToken();
    // Only an authenticated call made with the *current* token ends the session,
    // so a stale request cannot log out a freshly signed-in user.
    if (typeof sent === 'string' && current && sent === `Bearer ${current}`) {
      clearSession();
      notify.error('Your session has expired. Please log in again.', { toastId: 'session-expired' });
    }
  }
  return Promise.reject(error);
});
