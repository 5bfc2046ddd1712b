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
 * MapLibre) gets an empty address and no worker chunk; the dev server (`npx vite`) keeps the
 * package's prebuilt bundles, its worker's address being the prebuilt worker's.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { transformWithOxc, type Plugin } from 'vite';

const MAPLIBRE_SRC = path.join(path.dirname(createRequire(import.meta.url).resolve('maplibre-gl/package.json')), 'src');
const WORKER_ENTRY = path.join(MAPLIBRE_SRC, 'source/worker.ts');
const VIRTUAL = 'virtual:maplibre-worker';
const PROJECTION_FACTORY = path.join(MAPLIBRE_SRC, 'geo/projection/projection_factory.ts');

/**
 * MapLibre's projection factory drawing every style in Web Mercator (and in a projection a page
 * registers, as MapLibre's own does): the globe and vertical-perspective projections, their
 * transforms and camera helpers (about 55 KB before gzip) are left out of the build. A street
 * map's overlays need Mercator anyway: the floor maps linearly onto the screen only on a flat,
 * unrotated map (client/src/components/map/maplibre-map-view.ts), so a style asking for a globe
 * (a BASEMAP_URL style) is drawn flat, with MapLibre's warning for an unknown projection.
 * Its imports (MapLibre's modules, relative to the factory's folder) are in double quotes: the
 * build's input check (test/server/build-if-stale.test.ts) reads single-quoted ones as this file's own.
 */
const MERCATOR_ONLY_FACTORY = `
import {warnOnce} from "../../util/util.ts";
import {MercatorProjection} from "./mercator_projection.ts";
import {createMercatorTransform} from "./mercator_transform.ts";
import {MercatorCameraHelper} from "./mercator_camera_helper.ts";
import {CRSWorldCoordinateHelper} from "./crs.ts";
import {getRegisteredProjection} from "./projection_crud.ts";

export function createProjectionFromName(name, transformConstrain) {
    const transformOptions = {constrainOverride: transformConstrain};
    const registered = typeof name === 'string' ? getRegisteredProjection(name) : undefined;
    if (registered) {
        const worldCoordinateHelper = new CRSWorldCoordinateHelper(registered);
        return {
            projection: new MercatorProjection(worldCoordinateHelper),
            transform: createMercatorTransform({...transformOptions, worldCoordinateHelper}),
            cameraHelper: new MercatorCameraHelper(),
        };
    }
    if (name !== 'mercator') warnOnce(\`Projection \${JSON.stringify(name)} is drawn as mercator (this build of MapLibre draws Web Mercator only).\`);
    return {
        projection: new MercatorProjection(),
        transform: createMercatorTransform(transformOptions),
        cameraHelper: new MercatorCameraHelper(),
    };
}
`;

export function maplibreFromSource(): Plugin {
  let worker = '';
  let ssr = false;
  let serve = false;
  return {
    name: 'mapfold-maplibre-from-source',
    config: (_config, env) => (env.command !== 'build' || env.isSsrBuild ? {} : { resolve: { alias: [{ find: /^maplibre-gl$/, replacement: path.join(MAPLIBRE_SRC, 'index.ts') }] } }),
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
      serve = config.command === 'serve';
    },
    buildStart() {
      if (ssr || serve) return;
      // 'strict': the worker's chunk holds only the worker's own code; what the page's MapLibre
      // needs too goes to shared chunks, never into the worker's entry (which starts a worker on import).
      worker = this.emitFile({ type: 'chunk', id: WORKER_ENTRY, name: 'maplibre-worker', preserveSignature: 'strict' });
    },
    transform: {
      order: 'pre',
      filter: { id: /\.ts$/ },
      async handler(code, id) {
        if (!id.startsWith(MAPLIBRE_SRC + path.sep)) return null;
        if (id === PROJECTION_FACTORY) {
          // The replacement must stand for the whole module: a factory that grew another export (a newer MapLibre) stops the build.
          const exported = [...code.matchAll(/^export\s+(?:async\s+)?(?:function|const|let|class)\s+(\w+)/gm)].map((match) => match[1]);
          if (exported.join() !== 'createProjectionFromName' || !/export function createProjectionFromName\(name: [^,]+, transformConstrain: [^,]+, globalState/.test(code)) {
            throw new Error(`${PROJECTION_FACTORY} no longer matches its Web Mercator replacement (exports: ${exported.join(', ')}); update scripts/maplibre-source-plugin.ts`);
          }
          code = MERCATOR_ONLY_FACTORY;
        }
        const result = await transformWithOxc(code, id, { lang: 'ts', tsconfig: { compilerOptions: { useDefineForClassFields: false } } });
        return result.map ? { code: result.code, map: result.map } : { code: result.code };
      },
    },
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : null),
    load(id) {
      if (id !== `\0${VIRTUAL}`) return null;
      if (ssr) return `export default '';`;
      if (serve) return `export { default } from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';`;
      if (!worker) throw new Error(`${VIRTUAL}: no worker chunk (the build's buildStart did not run)`);
      return `export default import.meta.ROLLUP_FILE_URL_${worker};`;
    },
  };
}
