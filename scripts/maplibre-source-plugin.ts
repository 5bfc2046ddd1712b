/**
 * A Vite plugin: the client's build compiles MapLibre GL JS from its TypeScript sources (the
 * package ships src/) instead of taking its two prebuilt bundles, and builds MapLibre's web worker
 * as one more chunk of the same build (issue 29's benchmark: a basemap map's JavaScript).
 *
 * The prebuilt maplibre-gl.mjs and maplibre-gl-worker.mjs each carry the style specification,
 * the tile parsers, the buckets and the geometry libraries, so a basemap map fetched them twice
 * (285.6 KB and 144.7 KB gzipped). Built here, the worker's entry (maplibre-gl/src/source/worker.ts)
 * shares chunks with the page's MapLibre: the page and the worker (a module worker, from the same
 * origin) load the shared chunk once, from the same address, and the worker's own code is a few KB.
 *
 * `import workerUrl from 'virtual:maplibre-worker'` gives the worker chunk's address (the
 * page hands it to MapLibre's setWorkerUrl, client/src/components/map/maplibre-setup.ts).
 * `maplibre-gl` itself resolves to the sources' index.ts for the browser's build only; types
 * still come from the package's d.ts. MapLibre's sources are compiled as its own build compiles them,
 * with TypeScript's `useDefineForClassFields: false`: its classes declare fields a base constructor
 * fills (the struct arrays' typed views), which this repository's tsconfig (ES2023) would reset
 * to undefined after it. The SSR build (which renders a basemap floor's frame, never
 * MapLibre) gets an empty address and no worker chunk.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { transformWithOxc, type Plugin } from 'vite';

const MAPLIBRE_SRC = path.join(path.dirname(createRequire(import.meta.url).resolve('maplibre-gl/package.json')), 'src');
const WORKER_ENTRY = path.join(MAPLIBRE_SRC, 'source/worker.ts');
const VIRTUAL = 'virtual:maplibre-worker';

export function maplibreFromSource(): Plugin {
  let worker = '';
  let ssr = false;
  return {
    name: 'mapfold-maplibre-from-source',
    apply: 'build',
    config: (_config, env) => (env.isSsrBuild ? {} : { resolve: { alias: [{ find: /^maplibre-gl$/, replacement: path.join(MAPLIBRE_SRC, 'index.ts') }] } }),
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    buildStart() {
      if (ssr) return;
      // 'strict': the worker's chunk holds only the worker's own code; what the page's MapLibre
      // needs too goes to shared chunks, never into the worker's entry (which starts a worker on import).
      worker = this.emitFile({ type: 'chunk', id: WORKER_ENTRY, name: 'maplibre-worker', preserveSignature: 'strict' });
    },
    transform: {
      order: 'pre',
      filter: { id: /\.ts$/ },
      async handler(code, id) {
        if (!id.startsWith(MAPLIBRE_SRC + path.sep)) return null;
        const result = await transformWithOxc(code, id, { lang: 'ts', tsconfig: { compilerOptions: { useDefineForClassFields: false } } });
        return result.map ? { code: result.code, map: result.map } : { code: result.code };
      },
    },
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : null),
    load(id) {
      if (id !== `\0${VIRTUAL}`) return null;
      if (ssr) return `export default '';`;
      if (!worker) throw new Error(`${VIRTUAL}: no worker chunk (the build's buildStart did not run)`);
      return `export default import.meta.ROLLUP_FILE_URL_${worker};`;
    },
  };
}
