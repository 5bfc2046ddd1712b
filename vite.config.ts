/**
 * The React client's build: sources in client/, output in dist/client (the server serves its
 * index.html for every non-API GET). In development, /api (and its websocket) goes to the
 * server on port 3000, so the client and the server share one origin as in production.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { embedSdk } from './scripts/embed-sdk-plugin';
import { maplibreFromSource } from './scripts/maplibre-source-plugin';
import { precompress } from './scripts/precompress-plugin';
import { preloadDeps } from './scripts/preload-deps-plugin';
import { viewerMessages } from './scripts/viewer-messages-plugin';

const root = fileURLToPath(new URL('./client', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/client', import.meta.url));
const apiTarget = process.env.MAPFOLD_API_URL ?? 'http://localhost:3000';

/**
 * `vite build --ssr` builds the server renderers instead: the viewer's (client/src/viewer-server.tsx
 * into dist/server/viewer-server.js, loaded by server/public-maps/ssr-viewer-page.ts) and the
 * marketing pages' (client/src/pages-server.tsx, run once by scripts/prerender-pages.ts): the
 * same sources and CSS handling as the browser's build, React left to node_modules.
 */
const serverBuild = {
  root,
  envDir: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), viewerMessages(), maplibreFromSource()],
  // The browser's files (public/) are the browser build's.
  publicDir: false as const,
  build: {
    ssr: true,
    outDir: fileURLToPath(new URL('./dist/server', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      input: {
        'viewer-server': fileURLToPath(new URL('./client/src/viewer-server.tsx', import.meta.url)),
        // The marketing pages, prerendered at build time (scripts/prerender-pages.ts).
        'pages-server': fileURLToPath(new URL('./client/src/pages-server.tsx', import.meta.url)),
      },
      output: { entryFileNames: '[name].js' },
    },
  },
};

/** The dynamic imports' preload lists without the names that do nothing (scripts/preload-deps-plugin.ts). */
const preload = preloadDeps();

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? serverBuild : {
  root,
  // .env files for VITE_* variables live at the repository root, beside package.json.
  envDir: fileURLToPath(new URL('.', import.meta.url)),
  // Precompressed copies of the built files (.br, .gz), served by Accept-Encoding (server/app.ts);
  // /embed.js, the embed SDK, built on the side (scripts/embed-sdk-plugin.ts); MapLibre built from
  // its sources, its worker a chunk sharing code with the page's (scripts/maplibre-source-plugin.ts).
  plugins: [react(), viewerMessages(), embedSdk(), maplibreFromSource(), preload.plugin, precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    // Maps beside the files, not named in them: a `//# sourceMappingURL` line in every chunk
    // costs the viewer's first load about 0.2 KB gzipped (devtools take a map added by hand).
    sourcemap: 'hidden',
    // Which chunks and stylesheets each page's module needs: the prerendered pages link the
    // stylesheets of their own chunk (scripts/prerender-pages.ts).
    manifest: true,
    // No modulepreload polyfill in every page's first chunk: the browsers without
    // <link rel="modulepreload"> still load the same modules, only one import at a time.
    // A dynamic import's preload list (vite's __vite__mapDeps) leaves out what is loaded already
    // and the imported chunk itself unless a stylesheet is waited for (scripts/preload-deps-plugin.ts).
    modulePreload: { polyfill: false, resolveDependencies: preload.resolveDependencies },
    rolldownOptions: {
      // Two pages: the app (index.html) and the public map viewer (viewer.html, served at
      // /m/{id}), which loads only the viewer's code.
      input: {
        main: fileURLToPath(new URL('./client/index.html', import.meta.url)),
        viewer: fileURLToPath(new URL('./client/viewer.html', import.meta.url)),
      },
      // Fewer, larger chunks on the viewer's first load (issue 18: at most 80 KB gzipped with
      // React): gzip compresses one file better than the same code in four, and each file costs
      // a request. React, ReactDOM, the scheduler and Vite's preload helper in one chunk (both
      // pages load it at once); the published viewer's page (published-viewer.tsx) with everything
      // it imports statically in another: the map renderer and camera too, so the editor, which
      // draws with the same renderer, loads the viewer's code and CSS with them (scoped, .mfv and
      // .mf-*); the editor's own pages load far more, and its preview is the viewer anyway.
      // bench/viewer-size.ts measures it; test/bench/viewer-budget.test.ts holds the budget.
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: (id) => /node_modules[\\/](react|react-dom|scheduler)[\\/]|vite[\\/]preload-helper/.test(id), priority: 2 },
            // The viewer's words (client/src/i18n) go with it too: the page's entry reads them first;
            // and the early chips' listener (early-chips.ts), which the directory's chunk imports too.
            { name: 'viewer-core', test: /client[\\/]src[\\/](features[\\/]viewer[\\/](published-viewer\.tsx|early-chips\.ts)|i18n[\\/](translator|format-message|i18n-context)\.tsx?)$|events[\\/]locale-direction\.ts$/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
}));
