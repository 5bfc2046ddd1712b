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

/**
 * Layer types no Mapfold style draws: the basemap's (server/basemap/basemap-style.ts, Protomaps'
 * light and dark layers: background, fill, line, symbol) and those the client adds over it
 * (client/src/components/map: circle, fill, line, symbol). test/server/build-inputs-maplibre-cuts.test.ts
 * fails when one of Mapfold's styles or the client's code names one. Left out with their style layer,
 * bucket, draw function, program and shaders (about 9 KB gzipped):
 * - fill-extrusion: 3D buildings; a street map is drawn flat and unrotated (its floor's overlay
 *   maps linearly onto the screen), where an extrusion is only its roof.
 * - heatmap: Mapfold's stores are pins and clusters, never a density surface.
 * - hillshade, color-relief: shading and colouring of raster-dem elevation tiles; no Mapfold
 *   source has elevation.
 * A layer of these in a BASEMAP_URL style (a third party's) is left out, with MapLibre's
 * one-time warning naming it, as its globe is drawn flat: the rest of that style still draws.
 */
export const MAPLIBRE_CUT_LAYER_TYPES = ['fill-extrusion', 'heatmap', 'hillshade', 'color-relief'] as const;
/**
 * Source types no Mapfold style uses (its basemap is one vector source, its overlays GeoJSON):
 * image, video and canvas sources (a picture pinned to four corners). A style asking for one
 * fails to load with an error naming the cut (MapLibre's error event), not a blank map.
 */
export const MAPLIBRE_CUT_SOURCE_TYPES = ['image', 'video', 'canvas'] as const;
/**
 * MapLibre Tiles (MLT), a columnar tile encoding read only for a vector source that says
 * `encoding: "mlt"`: Mapfold's archive and Protomaps' builds are Mapbox Vector Tiles (the
 * default encoding). Its decoder (@maplibre/mlt, about 17 KB gzipped) is left out; such a tile
 * fails to load with an error naming the cut.
 */
export const MAPLIBRE_CUT_ENCODINGS = ['mlt'] as const;
/**
 * 3D terrain (a style's `terrain`, or map.setTerrain): the map's surface raised by raster-dem
 * elevation, drawn through textures of every layer (render-to-texture). A street map is flat and
 * unrotated, and no Mapfold source has elevation. Left out (about 4 KB gzipped): the terrain, its
 * tile manager, the render-to-texture pass and their shaders; map.setTerrain with a terrain
 * warns once and draws the style flat (a BASEMAP_URL style asking for terrain stays readable).
 */
const SET_TERRAIN = /^(\s*setTerrain\(options: TerrainSpecification \| null, styleOptions: StyleSetterOptions = \{\}\): this \{\n)/m;
const MAP_MODULE = path.join(MAPLIBRE_SRC, 'ui/map.ts');

/** What a style asks of the parts this build leaves out: one line for each (empty: the build draws it all). */
export function maplibreCutsIn(style: { sources?: Record<string, { type: string; encoding?: string }>; layers?: Array<{ id: string; type: string }>; terrain?: unknown }): string[] {
  const cuts: string[] = [];
  for (const [id, source] of Object.entries(style.sources ?? {})) {
    if ((MAPLIBRE_CUT_SOURCE_TYPES as readonly string[]).includes(source.type)) cuts.push(`source ${id}: type ${source.type}`);
    if (source.encoding && (MAPLIBRE_CUT_ENCODINGS as readonly string[]).includes(source.encoding)) cuts.push(`source ${id}: encoding ${source.encoding}`);
  }
  if (style.terrain) cuts.push('terrain');
  for (const layer of style.layers ?? []) if ((MAPLIBRE_CUT_LAYER_TYPES as readonly string[]).includes(layer.type)) cuts.push(`layer ${layer.id}: type ${layer.type}`);
  return cuts;
}

const CUT_MESSAGE = 'is not in this build of MapLibre (scripts/maplibre-source-plugin.ts leaves out what Mapfold never draws)';

/**
 * MapLibre's modules replaced by stand-ins that keep their exports: each export throws when
 * called or constructed (nothing calls them once the types above are not created), except the
 * painter's `is…StyleLayer` checks, which say no. The shaders of the left-out layers are empty
 * strings (never compiled: no program of theirs is made). Named relative to MapLibre's src/
 * (the build-inputs test checks each stand-in against its module).
 */
export const MAPLIBRE_STUBBED_FILES = [
  ...['heatmap', 'hillshade', 'color_relief', 'fill_extrusion'].flatMap((type) => [
    `style/style_layer/${type}_style_layer.ts`,
    `webgl/draw/draw_${type}.ts`,
    `webgl/program/${type}_program.ts`,
  ]),
  'source/image_source.ts',
  'source/video_source.ts',
  'source/canvas_source.ts',
  'source/vector_tile_mlt.ts',
  'render/terrain.ts',
  'webgl/render_to_texture.ts',
  'webgl/draw/draw_terrain.ts',
];
const STUBBED_MODULES = MAPLIBRE_STUBBED_FILES.map((file) => path.join(MAPLIBRE_SRC, file));
const EMPTIED_SHADERS = new RegExp(`[\\\\/]shaders[\\\\/]glsl[\\\\/](heatmap|heatmap_texture|hillshade|hillshade_prepare|color_relief|fill_extrusion|fill_extrusion_pattern|_projection_globe|terrain|terrain_depth|terrain_height)\\.(fragment|vertex)\\.glsl\\.g\\.ts$`);
const CREATE_STYLE_LAYER = path.join(MAPLIBRE_SRC, 'style/create_style_layer.ts');

/** A module's exported values (not its types), as written in MapLibre's sources. */
export function exportedValues(code: string): string[] {
  const names = [...code.matchAll(/^export\s+(?:async\s+)?(?:abstract\s+)?(?:function|const|let|class)\s+(\w+)/gm)].map((match) => match[1]!);
  for (const block of code.matchAll(/^export\s*\{([^}]*)\}\s*;?/gm)) {
    for (const part of block[1]!.split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/).pop()!);
    }
  }
  if (/^export\s+default\s/m.test(code)) names.push('default');
  return names;
}

function stubModule(code: string, id: string): string {
  const module = path.relative(MAPLIBRE_SRC, id);
  const names = exportedValues(code);
  if (names.length === 0) throw new Error(`${id}: no exports found to stand in for; update scripts/maplibre-source-plugin.ts`);
  const message = JSON.stringify(`${module} ${CUT_MESSAGE}`);
  return names
    .map((name) => {
      if (/^is\w+StyleLayer$/.test(name)) return `export const ${name} = () => false;`;
      const body = `function ${name === 'default' ? 'cut' : name}() { throw new Error(${message}); }`;
      return name === 'default' ? `export default ${body}` : `export ${body}`;
    })
    .join('\n');
}

/**
 * createStyleLayer with the kept types; a left-out type becomes a hidden fill layer of the same
 * id and source (drawn never, its source not loaded for it), with a one-time warning.
 */
const CREATE_STYLE_LAYER_KEPT = `
import {CircleStyleLayer} from "./style_layer/circle_style_layer.ts";
import {FillStyleLayer} from "./style_layer/fill_style_layer.ts";
import {LineStyleLayer} from "./style_layer/line_style_layer.ts";
import {SymbolStyleLayer} from "./style_layer/symbol_style_layer.ts";
import {BackgroundStyleLayer} from "./style_layer/background_style_layer.ts";
import {RasterStyleLayer} from "./style_layer/raster_style_layer.ts";
import {CustomStyleLayer} from "./style_layer/custom_style_layer.ts";
import {warnOnce} from "../util/util.ts";

export function createStyleLayer(layer, globalState) {
    switch (layer.type) {
        case 'custom': return new CustomStyleLayer(layer, globalState);
        case 'background': return new BackgroundStyleLayer(layer, globalState);
        case 'circle': return new CircleStyleLayer(layer, globalState);
        case 'fill': return new FillStyleLayer(layer, globalState);
        case 'line': return new LineStyleLayer(layer, globalState);
        case 'raster': return new RasterStyleLayer(layer, globalState);
        case 'symbol': return new SymbolStyleLayer(layer, globalState);
    }
    warnOnce(\`Layer \${JSON.stringify(layer.id)} of type \${JSON.stringify(layer.type)} is left out: \${layer.type} layers ${CUT_MESSAGE}.\`);
    const hidden = {id: layer.id, type: 'fill', layout: {visibility: 'none'}};
    for (const key of ['source', 'source-layer', 'minzoom', 'maxzoom', 'metadata']) if (layer[key] !== undefined) hidden[key] = layer[key];
    return new FillStyleLayer(hidden, globalState);
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
        } else if (id === CREATE_STYLE_LAYER) {
          // The replacement must create every kept type the original does, and the original no type beyond them and the cut ones.
          const types = [...code.matchAll(/case '([\w-]+)':/g)].map((match) => match[1]!).concat(/layer\.type === 'custom'/.test(code) ? ['custom'] : []);
          const known = ['custom', 'background', 'circle', 'fill', 'line', 'raster', 'symbol', ...MAPLIBRE_CUT_LAYER_TYPES];
          const unknown = types.filter((type) => !known.includes(type));
          if (unknown.length > 0 || !/export function createStyleLayer\(layer: [^,]+, globalState/.test(code)) {
            throw new Error(`${CREATE_STYLE_LAYER} creates layer types its replacement does not know (${unknown.join(', ') || 'signature changed'}); update scripts/maplibre-source-plugin.ts`);
          }
          code = CREATE_STYLE_LAYER_KEPT;
        } else if (id === MAP_MODULE) {
          if (!SET_TERRAIN.test(code) || !/^import \{[^}]*\bwarnOnce\b/m.test(code)) throw new Error(`${MAP_MODULE}: setTerrain no longer matches the build's terrain cut; update scripts/maplibre-source-plugin.ts`);
          code = code.replace(SET_TERRAIN, `$1        if (options) {\n            warnOnce(${JSON.stringify(`3D terrain ${CUT_MESSAGE}: the map is drawn flat.`)});\n            options = null;\n        }\n`);
        } else if (STUBBED_MODULES.includes(id)) {
          code = stubModule(code, id);
        } else if (EMPTIED_SHADERS.test(id)) {
          code = `export default '';`;
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
