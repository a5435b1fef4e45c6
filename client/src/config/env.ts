/**
 * Build-time configuration read from Vite env variables (`VITE_*`).
 */
const rawUserKey: unknown = import.meta.env.VITE_LOCALHOST_KEY;
const rawTileUrl: unknown = import.meta.env.VITE_TILE_URL;
const rawPaymentUrl: unknown = import.meta.env.VITE_PAYMENT_URL;

/**
 * The payment service's browser API (its /api): VITE_PAYMENT_URL + /api when the client is built to
 * call it elsewhere; else same-origin /pay, which the API server forwards to it wherever PAYMENT_PORT
 * puts it (so the page's CSP stays 'self' and the whole app is one port).
 */
function paymentApiUrl(): string {
  if (typeof rawPaymentUrl === 'string' && rawPaymentUrl.trim() !== '') return `${rawPaymentUrl.trim().replace(/\/+$/, '')}/api`;
  return '/pay';
}

export const env = {
  /** localStorage key holding the signed-in user's record (JSON). */
  userStorageKey:
    typeof rawUserKey === 'string' && rawUserKey.trim() !== '' ? rawUserKey.trim() : 'tukio-user',
  /** Base URL of the REST API (always same-origin `/api`; the dev server proxies it). */
  apiBaseUrl: '/api',
  /** Map tile URL template for the event location previews (Leaflet `{z}/{x}/{y}`). */
  tileUrl:
    typeof rawTileUrl === 'string' && rawTileUrl.trim() !== ''
      ? rawTileUrl.trim()
      : 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  /** Base URL of the payment service's browser API (M-Pesa STK push and confirmation). */
  paymentApiUrl: paymentApiUrl(),
} as const;
