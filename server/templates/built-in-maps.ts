/**
 * Built-in maps: geographic starting points made from maintained data packages, world
 * countries from Natural Earth (`world-atlas`, 1:50m) and US states from the Census Bureau's
 * cartographic boundaries (`us-atlas`, 1:10m, already projected to Albers USA). Each region
 * becomes one `<path id="...">` in an SVG and one location named after it, bound to that path.
 *
 * Everything is computed from the packages' files on first use and kept in memory: nothing is
 * downloaded at run time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoIdentity, geoNaturalEarth1, geoPath, type GeoPermissibleObjects, type GeoStream, type GeoStreamWrapper } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import {
  defaultRegionStyles,
  defaultSettings,
  MAP_DOCUMENT_VERSION,
  type GeoCalibration,
  type LayerFile,
  type Location,
  type MapDocument,
} from '../../events/map-document.js';
import { LOCATION_DEFAULTS } from '../../events/compact-locations.js';
import { emptyPathNetwork } from '../../events/path-network.js';

export const TEMPLATE_IDS = ['world', 'us-states'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export function isTemplateId(id: string): id is TemplateId {
  return (TEMPLATE_IDS as readonly string[]).includes(id);
}

export interface Region {
  /** The path's id in the SVG, which is also the location's id. */
  id: string;
  name: string;
  /** Where a label or marker for the region sits (its largest part's centroid). */
  centroid: { x: number; y: number };
}

export interface BuiltInMap {
  id: TemplateId;
  name: string;
  description: string;
  /** Where the data comes from, for the credits. */
  source: string;
  layer: { id: string; name: string };
  width: number;
  height: number;
  /** The projection the map is drawn with: latitude/longitude fall where the drawing puts their place. */
  geo: Extract<GeoCalibration, { kind: 'd3' }>;
  regions: Region[];
  /** The full SVG: one path per region. */
  svg: string;
  /** A small, light SVG of the same map for a preview card. */
  preview: string;
}

type Properties = { name?: string } | null;

const require = createRequire(import.meta.url);

function readTopology(path: string): Topology {
  return JSON.parse(readFileSync(require.resolve(path), 'utf8')) as Topology;
}

function featuresOf(topology: Topology, object: string): Feature<Geometry, Properties>[] {
  const collection = feature(topology, topology.objects[object]!) as FeatureCollection<Geometry, Properties> | Feature<Geometry, Properties>;
  return collection.type === 'FeatureCollection' ? collection.features : [collection];
}

/** Natural Earth's short names, spelled out where they are abbreviated. */
const FULL_NAMES: Record<string, string> = {
  'Marshall Is.': 'Marshall Islands',
  'N. Mariana Is.': 'Northern Mariana Islands',
  'U.S. Virgin Is.': 'U.S. Virgin Islands',
  'S. Geo. and the Is.': 'South Georgia and the South Sandwich Islands',
  'Br. Indian Ocean Ter.': 'British Indian Ocean Territory',
  'Pitcairn Is.': 'Pitcairn Islands',
  'Falkland Is.': 'Falkland Islands',
  'Cayman Is.': 'Cayman Islands',
  'British Virgin Is.': 'British Virgin Islands',
  'Turks and Caicos Is.': 'Turks and Caicos Islands',
  'S. Sudan': 'South Sudan',
  'Solomon Is.': 'Solomon Islands',
  'St. Vin. and Gren.': 'Saint Vincent and the Grenadines',
  'St. Kitts and Nevis': 'Saint Kitts and Nevis',
  'Cook Is.': 'Cook Islands',
  'W. Sahara': 'Western Sahara',
  'St. Pierre and Miquelon': 'Saint Pierre and Miquelon',
  'Wallis and Futuna Is.': 'Wallis and Futuna',
  'Fr. Polynesia': 'French Polynesia',
  'Fr. S. Antarctic Lands': 'French Southern and Antarctic Lands',
  'Eq. Guinea': 'Equatorial Guinea',
  'Dominican Rep.': 'Dominican Republic',
  'Faeroe Is.': 'Faroe Islands',
  'N. Cyprus': 'Northern Cyprus',
  'Dem. Rep. Congo': 'Democratic Republic of the Congo',
  'Central African Rep.': 'Central African Republic',
  'Bosnia and Herz.': 'Bosnia and Herzegovina',
  'Indian Ocean Ter.': 'Australian Indian Ocean Territories',
  'Heard I. and McDonald Is.': 'Heard Island and McDonald Islands',
  'Ashmore and Cartier Is.': 'Ashmore and Cartier Islands',
  'Antigua and Barb.': 'Antigua and Barbuda',
  'United States of America': 'United States',
};

/** A name as an id part: ASCII letters, digits and dashes. */
export function slug(name: string): string {
  return (
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'region'
  );
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const round1 = (n: number) => Math.round(n * 10) / 10;

interface Shape {
  id: string;
  name: string;
  d: string;
  centroid: { x: number; y: number };
}

/**
 * Where a region's label or marker sits: the centroid of its largest polygon (inside the
 * mainland, not the sea between islands); null where the projection has no such point. Also
 * used for the regions an import draws (server/import/geo-drawing.ts).
 */
export function labelPoint(path: ReturnType<typeof geoPath>, geometry: Geometry): { x: number; y: number } | null {
  let target: GeoPermissibleObjects = geometry;
  if (geometry.type === 'MultiPolygon') {
    let best = -1;
    for (const coordinates of (geometry as MultiPolygon).coordinates) {
      const polygon: Polygon = { type: 'Polygon', coordinates };
      const area = path.area(polygon);
      if (area > best) {
        best = area;
        target = polygon;
      }
    }
  }
  const [x, y] = path.centroid(target);
  return Number.isFinite(x) && Number.isFinite(y) ? { x: round1(x), y: round1(y) } : null;
}

/** One shape per feature with a drawable outline, ids made unique and safe. */
function shapesOf(
  features: Feature<Geometry, Properties>[],
  path: ReturnType<typeof geoPath>,
  prefix: string,
  nameOf: (raw: string) => string = (raw) => raw,
): Shape[] {
  const seen = new Set<string>();
  const shapes: Shape[] = [];
  for (const item of features) {
    const d = item.geometry ? path(item) : null;
    if (!d) continue;
    const name = nameOf(item.properties?.name?.trim() || String(item.id ?? 'Region'));
    const code = typeof item.id === 'string' || typeof item.id === 'number' ? String(item.id) : '';
    let id = /^[A-Za-z0-9]{1,16}$/.test(code) ? `${prefix}-${code}` : `${prefix}-${slug(name)}`;
    if (seen.has(id)) id = `${prefix}-${slug(name)}`;
    for (let n = 2; seen.has(id); n++) id = `${prefix}-${slug(name)}-${n}`;
    seen.add(id);
    shapes.push({ id, name, d, centroid: labelPoint(path, item.geometry) ?? { x: 0, y: 0 } });
  }
  return shapes.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/**
 * A projection that also leaves out points closer than `minimum` (in output units) to the
 * last one kept on a line or ring: a small file where the eye cannot tell the difference.
 * The last point of every line is always kept, so rings stay closed.
 */
export function thinned(projection: GeoStreamWrapper, minimum: number): GeoStreamWrapper {
  return {
    stream(output) {
      let inLine = false;
      let last: [number, number] | null = null;
      let skipped: [number, number] | null = null;
      const thinning: GeoStream = {
        point(x, y) {
          if (!inLine) return output.point(x, y);
          if (last && Math.hypot(x - last[0], y - last[1]) < minimum) {
            skipped = [x, y];
            return;
          }
          output.point(x, y);
          last = [x, y];
          skipped = null;
        },
        lineStart() {
          inLine = true;
          last = null;
          skipped = null;
          output.lineStart();
        },
        lineEnd() {
          if (skipped) output.point(skipped[0], skipped[1]);
          inLine = false;
          output.lineEnd();
        },
        polygonStart: () => output.polygonStart(),
        polygonEnd: () => output.polygonEnd(),
        sphere: () => output.sphere?.(),
      };
      return projection.stream(thinning);
    },
  };
}

const COLORS = { land: '#e2e8f0', border: '#ffffff', sea: '#f3f8fd', outline: '#cbd5e1' };
/** Previews take the product's accent, to read at a glance on a card. */
const PREVIEW_COLORS = { land: '#c7d2fe', sea: '#eef2ff' };

function svgDocument(options: {
  title: string;
  width: number;
  height: number;
  background?: string;
  groupId: string;
  shapes: { id?: string; name?: string; d: string }[];
  strokeWidth: number;
  land?: string;
}): string {
  const { title, width, height, background = '', groupId, shapes, strokeWidth, land = COLORS.land } = options;
  const paths = shapes
    .map((shape) => (shape.id ? `<path id="${shape.id}" data-name="${escapeXml(shape.name ?? '')}" d="${shape.d}"/>` : `<path d="${shape.d}"/>`))
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<title>${escapeXml(title)}</title>`,
    background,
    `<g id="${groupId}" fill="${land}" stroke="${COLORS.border}" stroke-width="${strokeWidth}" stroke-linejoin="round">`,
    paths,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

function buildWorld(): BuiltInMap {
  const width = 1200;
  const sphere = { type: 'Sphere' } as const;
  const projection = geoNaturalEarth1().fitWidth(width, sphere);
  // Points closer than half a unit (half a pixel at zoom 1) to the last are left out: half the bytes.
  const path = geoPath(thinned(projection, 0.5)).digits(1);
  const height = Math.ceil(path.bounds(sphere)[1][1]);
  const shapes = shapesOf(featuresOf(readTopology('world-atlas/countries-50m.json'), 'countries'), path, 'country', (raw) => FULL_NAMES[raw] ?? raw);
  const sea = `<path id="sphere" d="${path(sphere)}" fill="${COLORS.sea}" stroke="${COLORS.outline}" stroke-width="0.5"/>`;

  // The preview: the 1:110m countries, small and rounded to whole units.
  const previewWidth = 320;
  const previewProjection = geoNaturalEarth1().fitWidth(previewWidth, sphere);
  const previewPath = geoPath(thinned(previewProjection, 1.5)).digits(0);
  const previewHeight = Math.ceil(previewPath.bounds(sphere)[1][1]);
  const previewShapes = featuresOf(readTopology('world-atlas/countries-110m.json'), 'countries').flatMap((item) => {
    const d = item.geometry ? previewPath(item) : null;
    return d ? [{ d }] : [];
  });

  return {
    id: 'world',
    name: 'World countries',
    description: 'Every country of the world, each one a clickable region.',
    source: 'Natural Earth, via world-atlas (1:50m)',
    layer: { id: 'world', name: 'World' },
    width,
    height,
    geo: { kind: 'd3', projection: 'natural-earth-1', scale: projection.scale(), translate: projection.translate() },
    regions: shapes.map(({ id, name, centroid }) => ({ id, name, centroid })),
    svg: svgDocument({ title: 'World countries', width, height, background: sea, groupId: 'countries', shapes, strokeWidth: 0.4 }),
    preview: svgDocument({
      title: 'World countries',
      width: previewWidth,
      height: previewHeight,
      background: `<path d="${previewPath(sphere)}" fill="${PREVIEW_COLORS.sea}"/>`,
      land: PREVIEW_COLORS.land,
      groupId: 'countries',
      shapes: previewShapes,
      strokeWidth: 0.3,
    }),
  };
}

/** us-atlas's own projection (its README: `d3.geoAlbersUsa().scale(1300).translate([487.5, 305])`). */
export const US_ATLAS_PROJECTION: Extract<GeoCalibration, { kind: 'd3' }> = { kind: 'd3', projection: 'albers-usa', scale: 1300, translate: [487.5, 305] };

function buildUsStates(): BuiltInMap {
  // us-atlas ships the states projected with geoAlbersUsa (Alaska and Hawaii inset) to fit 975 × 610.
  const width = 975;
  const height = 610;
  const path = geoPath(thinned(geoIdentity(), 0.25)).digits(1);
  const features = featuresOf(readTopology('us-atlas/states-albers-10m.json'), 'states');
  const shapes = shapesOf(features, path, 'state');

  const scale = 320 / width;
  const previewPath = geoPath(thinned(geoIdentity().scale(scale), 1.5)).digits(0);
  const previewShapes = features.flatMap((item) => {
    const d = item.geometry ? previewPath(item) : null;
    return d ? [{ d }] : [];
  });

  return {
    id: 'us-states',
    name: 'US states',
    description: 'The 50 states and the District of Columbia, each one a clickable region.',
    source: 'US Census Bureau cartographic boundaries, via us-atlas (1:10m)',
    layer: { id: 'usa', name: 'United States' },
    width,
    height,
    geo: US_ATLAS_PROJECTION,
    regions: shapes.map(({ id, name, centroid }) => ({ id, name, centroid })),
    svg: svgDocument({ title: 'US states', width, height, groupId: 'states', shapes, strokeWidth: 0.6 }),
    preview: svgDocument({
      title: 'US states',
      width: 320,
      height: Math.ceil(height * scale),
      groupId: 'states',
      shapes: previewShapes,
      strokeWidth: 0.4,
      land: PREVIEW_COLORS.land,
    }),
  };
}

const builders: Record<TemplateId, () => BuiltInMap> = { world: buildWorld, 'us-states': buildUsStates };
const built = new Map<TemplateId, BuiltInMap>();

/** The built-in map, computed on first use and kept. */
export function builtInMap(id: TemplateId): BuiltInMap {
  let map = built.get(id);
  if (!map) {
    map = builders[id]();
    built.set(id, map);
  }
  return map;
}

/**
 * A complete map document for a built-in map whose SVG is stored as `file`: one layer with
 * that file, one location per region, bound to its path and shown as the region itself.
 */
export function builtInMapDocument(map: BuiltInMap, file: LayerFile): MapDocument {
  const locations: Location[] = map.regions.map((region) => ({
    ...LOCATION_DEFAULTS,
    groups: [],
    entrances: [],
    id: region.id,
    title: region.name,
    layer: map.layer.id,
    position: region.centroid,
    element: region.id,
    marker: 'hidden',
  }));
  return {
    version: MAP_DOCUMENT_VERSION,
    settings: { ...defaultSettings(), size: { width: file.width, height: file.height }, defaultLayer: map.layer.id },
    layers: [{ id: map.layer.id, name: map.layer.name, file, geo: map.geo }],
    locations,
    groups: [],
    styles: { regions: defaultRegionStyles() },
    paths: emptyPathNetwork(),
  };
}
