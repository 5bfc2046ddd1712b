/**
 * The React client's build: sources in client/, output in dist/client (the server serves its
 * index.html for every non-API GET). In development, /api (and its websocket) goes to the
 * server on port 3000, so the client and the server share one origin as in production.
 *
 * Two builds into the same folders (issue 29's benchmark aims): the app (index.html: editor,
 * accounts, router) on React, and the public map viewer (viewer.html, /m/{id}) on Preact
 * (preact/compat: the same sources, `react` and `react-dom` resolved to Preact's compatibility
 * layer, 66.6 KB gzipped of React off the viewer's first load). An alias holds for a whole build,
 * so the viewer's is a build of its own, run by `vite build` once the app's is written
 * ({@link viewerBuild}); likewise `vite build --ssr` builds the viewer's server renderer with
 * Preact (preact-render-to-string) and the marketing pages' with React.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type InlineConfig, type Plugin } from 'vite';
import { VIEWER_MANIFEST } from './server/client-manifest';
import { embedSdk } from './scripts/embed-sdk-plugin';
import { maplibreFromSource } from './scripts/maplibre-source-plugin';
import { PREACT_ALIASES } from './scripts/preact-aliases';
import { precompress } from './scripts/precompress-plugin';
import { preloadDeps } from './scripts/preload-deps-plugin';
import { viewerMessages } from './scripts/viewer-messages-plugin';

const root = fileURLToPath(new URL('./client', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/client', import.meta.url));
const apiTarget = process.env.MAPFOLD_API_URL ?? 'http://localhost:3000';

const envDir = fileURLToPath(new URL('.', import.meta.url));
const serverOutDir = fileURLToPath(new URL('./dist/server', import.meta.url));

/**
 * `vite build --ssr` builds the server renderers instead: the viewer's (client/src/viewer-server.tsx
 * into dist/server/viewer-server.js, loaded by server/public-maps/ssr-viewer-page.ts) and the
 * marketing pages' (client/src/pages-server.tsx, run once by scripts/prerender-pages.ts): the
 * same sources and CSS handling as the browser's build, React (or Preact) left to node_modules.
 * One renderer's build: its entries into dist/server, named as they are.
 */
const serverConfig = (input: Record<string, string>, emptyOutDir: boolean) => ({
  root,
  envDir,
  plugins: [react(), viewerMessages(), maplibreFromSource()],
  // The browser's files (public/) are the browser build's.
  publicDir: false as const,
  build: {
    ssr: true,
    outDir: serverOutDir,
    emptyOutDir,
    sourcemap: true,
    rolldownOptions: {
      input,
      output: { entryFileNames: '[name].js' },
    },
  },
});

/**
 * The viewer's server renderer, on Preact like its browser build: the markup Preact hydrates is
 * Preact's (preact-render-to-string). Preact stays in node_modules, one copy for the renderer
 * and preact-render-to-string.
 */
const viewerServerBuild: InlineConfig = {
  ...serverConfig({ 'viewer-server': fileURLToPath(new URL('./client/src/viewer-server.tsx', import.meta.url)) }, false),
  configFile: false,
  logLevel: 'warn',
  resolve: { alias: PREACT_ALIASES },
};

/**
 * Runs another build once this one is written (`closeBundle`): the viewer's, after the app's,
 * into the same folder (the browser's viewer build then precompresses the whole of dist/client,
 * precompress-plugin.ts). `vite build` alone thus still builds both pages.
 */
function viewerBuild(config: InlineConfig): Plugin {
  return {
    name: 'mapfold:viewer-build',
    apply: 'build',
    closeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        await build(config);
      },
    },
  };
}

/**
 * `vite build --ssr`: the marketing pages' renderer (client/src/pages-server.tsx, run once by
 * scripts/prerender-pages.ts) on React, then the viewer's (viewer-server.js) on Preact.
 */
const serverBuild = {
  ...serverConfig({ 'pages-server': fileURLToPath(new URL('./client/src/pages-server.tsx', import.meta.url)) }, true),
  plugins: [react(), viewerMessages(), maplibreFromSource(), viewerBuild(viewerServerBuild)],
};

const proxy = { '/api': { target: apiTarget, ws: true, changeOrigin: false } };

/**
 * A browser build of one page into dist/client: the app's (index.html, React) or the viewer's
 * (viewer.html, Preact). `framework` names the chunk its framework goes into (React, ReactDOM
 * and the scheduler; or Preact), with Vite's preload helper.
 */
function browserConfig(page: 'main' | 'viewer'): InlineConfig {
  /** The dynamic imports' preload lists without the names that do nothing (scripts/preload-deps-plugin.ts). */
  const preload = preloadDeps();
  const viewer = page === 'viewer';
  const framework = viewer
    ? { name: 'preact', test: /node_modules[\\/]preact[\\/]|vite[\\/]preload-helper/ }
    : { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|vite[\\/]preload-helper/ };
  return {
    root,
    // .env files for VITE_* variables live at the repository root, beside package.json.
    envDir,
    // Precompressed copies of the built files (.br, .gz), served by Accept-Encoding (server/app.ts),
    // written once both builds are (the viewer's, the second, compresses the whole folder);
    // /embed.js, the embed SDK, built on the side (scripts/embed-sdk-plugin.ts); MapLibre built from
    // its sources, its worker a chunk sharing code with the page's (scripts/maplibre-source-plugin.ts).
    plugins: viewer
      ? [react(), viewerMessages(), maplibreFromSource(), preload.plugin, precompress()]
      : [react(), viewerMessages(), embedSdk(), maplibreFromSource(), preload.plugin, viewerBuild({ ...browserConfig('viewer'), configFile: false, logLevel: 'warn' })],
    ...(viewer ? { resolve: { alias: PREACT_ALIASES }, publicDir: false as const } : {}),
    build: {
      outDir,
      // The app's build empties the folder; the viewer's, run after it, adds to it.
      emptyOutDir: !viewer,
      // Maps beside the files, not named in them: a `//# sourceMappingURL` line in every chunk
      // costs the viewer's first load about 0.2 KB gzipped (devtools take a map added by hand).
      sourcemap: 'hidden' as const,
      // Which chunks and stylesheets each page's module needs: the prerendered pages link the
      // stylesheets of their own chunk (scripts/prerender-pages.ts); a published map's page
      // preloads its first render's chunks (server/public-maps/ssr-viewer-page.ts), from the
      // viewer's own manifest.
      manifest: viewer ? VIEWER_MANIFEST : true,
      // No modulepreload polyfill in every page's first chunk: the browsers without
      // <link rel="modulepreload"> still load the same modules, only one import at a time.
      // A dynamic import's preload list (vite's __vite__mapDeps) leaves out what is loaded already
      // and the imported chunk itself unless a stylesheet is waited for (scripts/preload-deps-plugin.ts).
      modulePreload: { polyfill: false, resolveDependencies: preload.resolveDependencies },
      rolldownOptions: {
        // Two pages: the app (index.html) and the public map viewer (viewer.html, served at
        // /m/{id}), which loads only the viewer's code.
        input: viewer
          ? { viewer: fileURLToPath(new URL('./client/viewer.html', import.meta.url)) }
          : { main: fileURLToPath(new URL('./client/index.html', import.meta.url)) },
        // Fewer, larger chunks on the viewer's first load (issue 18: at most 80 KB gzipped with
        // its framework): gzip compresses one file better than the same code in four, and each
        // file costs a request. The framework and Vite's preload helper in one chunk (the page
        // loads it at once); the published viewer's page (published-viewer.tsx) with everything
        // it imports statically in another: the map renderer and camera too. The editor, which
        // draws with the same renderer, has the same chunk in the app's build (on React).
        // bench/viewer-size.ts measures it; test/bench/viewer-budget.test.ts holds the budget.
        output: {
          codeSplitting: {
            groups: [
              { ...framework, priority: 2 },
              // The viewer's words (client/src/i18n) go with it too: the page's entry reads them first;
              // and the early chips' listener (early-chips.ts), which the directory's chunk imports too.
              { name: 'viewer-core', test: /client[\\/]src[\\/](features[\\/]viewer[\\/](published-viewer\.tsx|early-chips\.ts)|i18n[\\/](translator|format-message|i18n-context)\.tsx?)$|events[\\/]locale-direction\.ts$/, priority: 1 },
            ],
          },
        },
      },
    },
    server: { proxy },
    preview: { proxy },
  };
}

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? serverBuild : browserConfig('main')));
