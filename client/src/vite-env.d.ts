/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The documentation site /docs sends visitors to. */
  readonly VITE_DOCS_URL?: string;
  /** The wayfinding marketing site /routes sends visitors to. */
  readonly VITE_ROUTES_URL?: string;
  /** The map /demo opens (as /maps/{id}). */
  readonly VITE_DEMO_MAP_ID?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
