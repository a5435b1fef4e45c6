interface ImportMetaEnv {
  /** localStorage key for the stored user record (default `tukio-user`). */
  readonly VITE_LOCALHOST_KEY?: string;
  /** Map tile URL template (default OpenStreetMap). */
  readonly VITE_TILE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
