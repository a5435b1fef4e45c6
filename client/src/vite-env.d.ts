interface ImportMetaEnv {
  /** localStorage key for the stored user record (default `tukio-user`). */
  readonly VITE_LOCALHOST_KEY?: string;
  /** Map tile URL template (default OpenStreetMap). */
  readonly VITE_TILE_URL?: string;
  /** The payment service's own URL when the browser calls it directly (default: same-origin /pay, forwarded by the API server). */
  readonly VITE_PAYMENT_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
