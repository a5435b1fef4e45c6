/**
 * Build-time configuration read from Vite env variables (`VITE_*`).
 */
const rawUserKey: unknown = import.meta.env.VITE_LOCALHOST_KEY;

export const env = {
  /** localStorage key holding the signed-in user's record (JSON). */
  userStorageKey:
    typeof rawUserKey === 'string' && rawUserKey.trim() !== '' ? rawUserKey.trim() : 'tukio-user',
  /** Base URL of the REST API (always same-origin `/api`; the dev server proxies it). */
  apiBaseUrl: '/api',
} as const;
