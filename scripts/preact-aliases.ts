import type { Alias } from 'vite';

/**
 * The viewer's React, resolved to Preact's compatibility layer (preact/compat): hooks, Suspense
 * and lazy, portals, hydrateRoot, style numbers in px and onChange on inputs as React has them.
 * On the server, react-dom/server is preact-render-to-string (through preact/compat/server).
 * Only the viewer's builds (vite.config.ts) and the viewer's tests on Preact (vitest.config.ts) take
 * these; the app and the marketing pages stay on React.
 */
export const PREACT_ALIASES: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react$/, replacement: 'preact/compat' },
];
