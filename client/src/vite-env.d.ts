/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The documentation site /docs sends visitors to. */
  readonly VITE_DOCS_URL?: string;
  /** The wayfinding marketing site /routes sends visitors to. */
  readonly VITE_ROUTES_URL?: string;
  /** The map /demo opens (as /maps/{id}). */
  readonly VITE_DEMO_MAP_ID?: string;
  /** Where the per-map software licence is sold (the subscribe modal and Publish link to it). */
  readonly VITE_MARKETPLACE_URL?: string;
  /** The footer's social links. */
  readonly VITE_LINKEDIN_URL?: string;
  readonly VITE_X_URL?: string;
  readonly VITE_YOUTUBE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** A viewer catalogue compiled at build time (scripts/viewer-messages-plugin.ts). */
declare module 'virtual:viewer-messages/*' {
  const messages: import('./i18n/translator').CompiledCatalogue;
  export default messages;
}

/** MapLibre's worker, a chunk of the client's build: its address (scripts/maplibre-source-plugin.ts). */
declare module 'virtual:maplibre-worker' {
  const url: string;
  export default url;
}
