interface ImportMetaEnv {
  /** localStorage key for the stored user record (default `tukio-user`). */
  readonly VITE_LOCALHOST_KEY?: string;
  /** Map tile URL template (default OpenStreetMap). */
  readonly VITE_TILE_URL?: string;
  /** The payment service's URL (default: the page's host on port 27684). */
  readonly VITE_PAYMENT_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
