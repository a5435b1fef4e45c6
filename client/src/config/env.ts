/**
 * Build-time configuration read from Vite env variables (`VITE_*`).
 */
const rawUserKey: unknown = import.meta.env.VITE_LOCALHOST_KEY;
const rawTileUrl: unknown = import.meta.env.VITE_TILE_URL;

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
} as const;
