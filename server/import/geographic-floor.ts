/**
 * The floor latitude/longitude points go on when the map has no calibrated floor (the
 * planner's `geographicFloor` option, events/import-planner.ts): the place the points cover,
 * drawn so that people recognise it.
 *
 * - A city or a campus (or up to a continent): a base map made for the points' extent,
 *   Mercator fitted to it, land and borders from Natural Earth (world-atlas, the finer scale
 *   the smaller the extent) with US states where it shows the US, on a light sea.
 * - Points all over the United States (Albers USA projects them all): the built-in US map.
 * - Anything wider: the built-in world map.
 *
 * The built-in maps are handed over as their SVG, exactly as the templates store it (content
 * addressed, so the file is the template's own when it is stored), with their calibration.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoBounds, geoMercator, geoPath, type GeoPermissibleObjects } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry, MultiPoint } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { LatLng } from '../../events/geo-calibration.js';
import type { PlannedFloor } from '../../events/map-import.js';
import { builtInMap, thinned, type BuiltInMap } from '../templates/built-in-maps.js';
import { allInUsa, calibrationOf, fitted, rewound } from './geo-drawing.js';

/** Spans (degrees, the larger of latitude and longitude-at-that-latitude) that set which floor. */
const CITY_SPAN = 1;
const CONTINENT_SPAN = 60;
/** A single point or a few metres apart: shown with about a kilometre around it. */
const MIN_SPAN = 0.01;

const require = createRequire(import.meta.url);
const topologies = new Map<string, Topology>();
function topology(path: string): Topology {
  let found = topologies.get(path);
  if (!found) {
    found = JSON.parse(readFileSync(require.resolve(path), 'utf8')) as Topology;
    topologies.set(path, found);
  }
  return found;
}

interface Outlines {
  land: { shape: Feature<Geometry>; box: [[number, number], [number, number]] }[];
  borders: GeoPermissibleObjects;
}
const outlinesByScale = new Map<string, Outlines>();
/** Natural Earth's countries at a scale, with their boxes, and the borders between them: read once. */
function outlines(scale: '10m' | '50m'): Outlines {
  let found = outlinesByScale.get(scale);
  if (!found) {
    const world = topology(`world-atlas/countries-${scale}.json`);
    const countries = world.objects.countries as GeometryCollection;
    const land = (feature(world, countries) as unknown as FeatureCollection<Geometry>).features.map((country) => {
      // Some of Natural Earth's small countries are wound the wrong way at 1:10m (the Maldives would cover the globe).
      const shape = country.geometry ? { ...country, geometry: rewound(country.geometry) } : country;
      return { shape, box: geoBounds(shape) };
    });
    found = { land, borders: mesh(world, countries, (a, b) => a !== b) as GeoPermissibleObjects };
    outlinesByScale.set(scale, found);
  }
  return found;
}

/** The points' extent: west to east the short way round (across the antimeridian if shorter), south to north. */
export function extentOf(points: readonly LatLng[]): { west: number; east: number; south: number; north: number; lngSpan: number; latSpan: number } {
  const lats = points.map((p) => p.lat);
  const lngs = [...new Set(points.map((p) => ((((p.lng + 180) % 360) + 360) % 360) - 180))].sort((a, b) => a - b);
  // The widest gap between neighbouring longitudes is where the extent is not.
  let gap = 360 - (lngs[lngs.length - 1]! - lngs[0]!);
  let west = lngs[0]!;
  let east = lngs[lngs.length - 1]!;
  for (let i = 1; i < lngs.length; i++) {
    const between = lngs[i]! - lngs[i - 1]!;
    if (between > gap) {
      gap = between;
      west = lngs[i]!;
      east = lngs[i - 1]! + 360;
    }
  }
  // Loops, not Math.min(...lats): 100,000 arguments can overflow the stack.
  let south = Infinity;
  let north = -Infinity;
  for (const lat of lats) {
    if (lat < south) south = lat;
    if (lat > north) north = lat;
  }
  return { west, east, south, north, lngSpan: east - west, latSpan: north - south };
}

/** A built-in map as a floor: its SVG (stored on apply, the template's own file) and its projection. */
function builtInFloor(map: BuiltInMap): PlannedFloor {
  return { key: map.layer.id, name: map.layer.name, drawing: { kind: 'generated', svg: map.svg, width: map.width, height: map.height }, geo: map.geo };
}

const COLORS = { sea: '#f3f8fd', land: '#e2e8f0', border: '#94a3b8', states: '#cbd5e1', outline: '#cbd5e1' };

const EARTH_RADIUS_M = 6_371_008.8;

/**
 * A scale bar for the base map's centre (Mercator's scale changes with latitude): a round
 * length (1, 2 or 5 times a power of ten metres) between 80 and 200 units, bottom left.
 */
export function scaleBar(projectionScale: number, latitude: number, height: number): string {
  const metresPerUnit = (EARTH_RADIUS_M * Math.cos((latitude * Math.PI) / 180)) / projectionScale;
  const target = 160 * metresPerUnit;
  const power = 10 ** Math.floor(Math.log10(target));
  const metres = [5, 2, 1].map((m) => m * power).find((m) => m <= target) ?? power;
  const length = Math.round(metres / metresPerUnit);
  const words = metres >= 1000 ? `${metres / 1000} km` : `${metres} m`;
  const x = 24;
  const y = height - 24;
  return [
    `<g id="scale" fill="none" stroke="#475569" stroke-width="2">`,
    `<path d="M${x},${y - 6}V${y}H${x + length}V${y - 6}"/>`,
    `<text x="${x + length / 2}" y="${y - 10}" fill="#334155" stroke="#ffffff" stroke-width="3" paint-order="stroke" font-family="system-ui, sans-serif" font-size="14" text-anchor="middle">${words}</text>`,
    '</g>',
  ].join('');
}

/** A base map around the points: Mercator fitted to their extent, land and borders clipped to it. */
export function baseMapFloor(points: readonly LatLng[]): PlannedFloor {
  const extent = extentOf(points);
  const middle = (extent.south + extent.north) / 2;
  const cos = Math.max(0.05, Math.cos((middle * Math.PI) / 180));
  // At least MIN_SPAN across each way, and a tenth more around (at least about 50 m), so no point sits on the edge.
  const halfLat = Math.max(extent.latSpan, MIN_SPAN) / 2;
  const halfLng = Math.max(extent.lngSpan, MIN_SPAN / cos) / 2;
  const padLat = Math.max(halfLat * 0.2, 0.0005);
  const padLng = Math.max(halfLng * 0.2, 0.0005 / cos);
  const centreLng = (extent.west + extent.east) / 2;
  const south = Math.max(-84, middle - halfLat - padLat);
  const north = Math.min(84, middle + halfLat + padLat);
  const west = centreLng - halfLng - padLng;
  const east = centreLng + halfLng + padLng;
  const frame: MultiPoint = { type: 'MultiPoint', coordinates: [[west, south], [east, north], [west, north], [east, south]] };
  const span = Math.max(extent.latSpan, extent.lngSpan * cos);

  const projection = geoMercator();
  const { width, height } = fitted(projection, frame);
  projection.clipExtent([[0, 0], [width, height]]);
  // Finer outlines for smaller places: 1:10m for a region, 1:50m for a country or more.
  const scale = span < 8 ? '10m' : '50m';
  const { land, borders } = outlines(scale);
  const path = geoPath(thinned(projection, 0.5)).digits(1);
  // Only the countries whose box meets the frame are drawn (the clip would leave the others empty, slowly).
  const landPaths = land
    .filter(({ box: [[w, s], [e, n]] }) => n >= south && s <= north && (w > e || (e >= west && w <= east) || (e + 360 >= west && w + 360 <= east) || (e - 360 >= west && w - 360 <= east)))
    .map(({ shape }) => path(shape))
    .filter((d): d is string => Boolean(d));
  const parts = [
    `<rect width="${width}" height="${height}" fill="${COLORS.sea}"/>`,
    `<g id="land" fill="${COLORS.land}" stroke="none">`,
    ...landPaths.map((d) => `<path d="${d}"/>`),
    '</g>',
  ];
  // US states where the extent shows part of the US (us-atlas, Census boundaries).
  if (allInUsa(points.map((p) => [p.lng, p.lat])) || (extent.west < -66 && extent.east > -125 && extent.south < 49.5 && extent.north > 24)) {
    const us = topology('us-atlas/states-10m.json');
    const states = mesh(us, us.objects.states as GeometryCollection, (a, b) => a !== b);
    const d = path(states);
    if (d) parts.push(`<path id="states" d="${d}" fill="none" stroke="${COLORS.states}" stroke-width="0.8"/>`);
  }
  const borderPath = path(borders);
  if (borderPath) parts.push(`<path id="borders" d="${borderPath}" fill="none" stroke="${COLORS.border}" stroke-width="1"/>`);
  parts.push(scaleBar(projection.scale(), middle, height));
  const svg = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    '<title>Map</title>',
    ...parts,
    `<rect width="${width}" height="${height}" fill="none" stroke="${COLORS.outline}"/>`,
    '</svg>',
    '',
  ].join('\n');
  return { key: 'geographic', name: 'Map', drawing: { kind: 'generated', svg, width, height }, geo: calibrationOf(projection, 'mercator') };
}

/** The floor for points no floor of the map can place. */
export function geographicFloor(points: LatLng[]): PlannedFloor {
  const valid = points.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90);
  if (valid.length === 0) return builtInFloor(builtInMap('world'));
  const extent = extentOf(valid);
  const span = Math.max(extent.latSpan, extent.lngSpan * Math.cos((((extent.south + extent.north) / 2) * Math.PI) / 180));
  // A city or campus: a base map of its own, wherever it is.
  if (span <= CITY_SPAN && Math.abs(extent.north) < 84 && Math.abs(extent.south) < 84) return baseMapFloor(valid);
  if (allInUsa(valid.map((p) => [p.lng, p.lat]))) return builtInFloor(builtInMap('us-states'));
  // A region or a country: a base map, unless it crosses the antimeridian or reaches the poles (Mercator cannot show those well).
  if (span <= CONTINENT_SPAN && extent.east <= 180 && extent.north < 80 && extent.south > -80) return baseMapFloor(valid);
  return builtInFloor(builtInMap('world'));
}
