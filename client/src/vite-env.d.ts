interface ImportMetaEnv {
  /** localStorage key for the stored user record (default `tukio-user`). */
  readonly VITE_LOCALHOST_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
