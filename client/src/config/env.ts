/**
 * Build-time configuration read from Vite env variables (`VITE_*`).
 */
const rawUserKey: unknown = import.meta.env.VITE_LOCALHOST_KEY;
const rawTileUrl: unknown = import.meta.env.VITE_TILE_URL;
const rawPaymentUrl: unknown = import.meta.env.VITE_PAYMENT_URL;

/** The payment service: VITE_PAYMENT_URL, else port 27684 on the host that served the page. */
function paymentUrl(): string {
  if (typeof rawPaymentUrl === 'string' && rawPaymentUrl.trim() !== '') return rawPaymentUrl.trim().replace(/\/+$/, '');
  if (typeof window === 'undefined') return 'http://localhost:27684';
  return `${window.location.protocol}//${window.location.hostname}:27684`;
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
  /** Base URL of the payment service (M-Pesa STK push and confirmation). */
  paymentUrl: paymentUrl(),
} as const;
