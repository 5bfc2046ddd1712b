/**
 * The floor a GeoJSON's or KML's shapes are drawn on: a d3-geo projection fitted to the
 * features' extent (Albers USA for the United States, Natural Earth for the world, Mercator for
 * anything smaller), one `<path id>` per region, lines drawn without an id (they are not
 * places). The floor carries the projection (`geo`), so points and latitude/longitude land
 * where the drawing puts their place (events/geo-calibration.ts replays it).
 */
import {
  geoAlbersUsa,
  geoArea,
  geoBounds,
  geoMercator,
  geoNaturalEarth1,
  geoPath,
  type GeoGeometryObjects,
  type GeoPath,
  type GeoPermissibleObjects,
  type GeoProjection,
} from 'd3-geo';
import type { Geometry, Position } from 'geojson';
import type { GeoCalibration } from '../../events/map-document.js';
import type { PlannedFloor } from '../../events/map-import.js';
import { labelPoint, thinned } from '../templates/built-in-maps.js';
import { importRefusal } from './refusal.js';

type D3Calibration = Extract<GeoCalibration, { kind: 'd3' }>;

export interface DrawnShape {
  /** The path's id (the location's id); null: drawn but not a place (a line). */
  id: string | null;
  name: string;
  geometry: Geometry;
}

/** A drawn floor's width; its height follows the extent's shape (within 0.4 to 1.5 times). */
export const DRAWING_WIDTH = 1200;
const PADDING = 24;
const COLORS = { background: '#f3f8fd', land: '#e2e8f0', border: '#ffffff', line: '#64748b' };

/** Longitude span (degrees) from which an extent is drawn as the world (Natural Earth). */
const WORLD_SPAN = 150;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Rings wound the way d3-geo reads them. GeoJSON (RFC 7946) winds outer rings anticlockwise,
 * d3 clockwise, and files come both ways: a polygon read the wrong way round is the whole
 * globe but the country. A polygon larger than a hemisphere is taken as wound the other way.
 */
export function rewound(geometry: Geometry): Geometry {
  const polygon = (rings: Position[][]): Position[][] => {
    const area = geoArea({ type: 'Polygon', coordinates: rings });
    return area > 2 * Math.PI ? rings.map((ring) => [...ring].reverse()) : rings;
  };
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: polygon(geometry.coordinates) };
  if (geometry.type === 'MultiPolygon') return { ...geometry, coordinates: geometry.coordinates.map(polygon) };
  if (geometry.type === 'GeometryCollection') return { ...geometry, geometries: geometry.geometries.map(rewound) };
  return geometry;
}

/** Every position of a geometry, for the extent and the Albers USA test. */
export function* positionsOf(geometry: Geometry): Generator<[number, number]> {
  switch (geometry.type) {
    case 'Point':
      yield geometry.coordinates as [number, number];
      break;
    case 'MultiPoint':
    case 'LineString':
      for (const p of geometry.coordinates) yield p as [number, number];
      break;
    case 'MultiLineString':
    case 'Polygon':
      for (const line of geometry.coordinates) for (const p of line) yield p as [number, number];
      break;
    case 'MultiPolygon':
      for (const polygon of geometry.coordinates) for (const ring of polygon) for (const p of ring) yield p as [number, number];
      break;
    case 'GeometryCollection':
      for (const part of geometry.geometries) yield* positionsOf(part);
      break;
  }
}

/** The share (0 to 1) of positions Albers USA projects (in the US, Alaska and Hawaii included), on a sample. */
export function shareInUsa(positions: readonly [number, number][]): number {
  if (positions.length === 0) return 0;
  const albers = geoAlbersUsa();
  const step = Math.max(1, Math.floor(positions.length / 5000));
  let seen = 0;
  let inside = 0;
  for (let i = 0; i < positions.length; i += step) {
    seen++;
    if (albers(positions[i]!)) inside++;
  }
  return inside / seen;
}

/** Whether Albers USA projects every position. */
export function allInUsa(positions: readonly [number, number][]): boolean {
  return positions.length > 0 && shareInUsa(positions) === 1;
}

/** The longitude span (degrees) of an object, across the antimeridian where that is shorter. */
export function lngSpan(object: GeoPermissibleObjects): number {
  const [[west], [east]] = geoBounds(object);
  const span = east - west;
  return span < 0 ? span + 360 : span;
}

/** The projection for an extent: Albers USA, Natural Earth for the world, otherwise Mercator. */
function projectionFor(object: GeoPermissibleObjects, positions: readonly [number, number][]): { projection: GeoProjection; name: D3Calibration['projection'] } {
  const span = lngSpan(object);
  // The US with a few territories beyond Albers USA's insets (Guam, the Marianas) is still the US: those are reported undrawn.
  if (span > 25 && shareInUsa(positions) >= 0.9) return { projection: geoAlbersUsa() as unknown as GeoProjection, name: 'albers-usa' };
  const [[, south], [, north]] = geoBounds(object);
  if (span >= WORLD_SPAN || north - south >= 100) return { projection: geoNaturalEarth1(), name: 'natural-earth-1' };
  return { projection: geoMercator(), name: 'mercator' };
}

/**
 * Fits the projection to the object: DRAWING_WIDTH wide (less padding) and as tall as the
 * extent's shape makes it, within 0.4 to 1.5 times the width (a tall country is fitted to
 * the height instead). Only scale and translation change: that is all a calibration keeps.
 */
export function fitted(projection: GeoProjection, object: GeoPermissibleObjects): { width: number; height: number } {
  const inner = DRAWING_WIDTH - 2 * PADDING;
  projection.fitWidth(inner, object);
  let [[x0, y0], [x1, y1]] = geoPath(projection).bounds(object);
  if (y1 - y0 > 1.5 * inner) {
    projection.fitHeight(1.5 * inner, object);
    [[x0, y0], [x1, y1]] = geoPath(projection).bounds(object);
  }
  const width = DRAWING_WIDTH;
  const height = Math.max(Math.round(0.4 * DRAWING_WIDTH), Math.ceil(y1 - y0) + 2 * PADDING);
  const [tx, ty] = projection.translate();
  // Centred in the box, whatever its shape.
  projection.translate([tx + (width - (x1 - x0)) / 2 - x0, ty + (height - (y1 - y0)) / 2 - y0]);
  return { width, height };
}

/** Degrees an extent spans at least each way (about a kilometre), as a single point's basemap floor (events/basemap-bounds.ts). */
const MIN_SPAN = 0.01;

/**
 * The extent to fit, at least {@link MIN_SPAN} across each way around its centre: shapes that
 * span nothing (a line of two identical points, a ring drawn on one spot) would fit at an
 * infinite scale, and a calibration of Infinity or NaN is no calibration.
 */
function withMinimumExtent(object: GeoGeometryObjects): GeoGeometryObjects {
  const [[west, south], [east, north]] = geoBounds(object);
  const span = lngSpan(object);
  if (![west, south, east, north].every(Number.isFinite) || (span >= MIN_SPAN && north - south >= MIN_SPAN)) return object;
  const lat = (north + south) / 2;
  const lng = west + span / 2;
  const halfLat = Math.max(north - south, MIN_SPAN) / 2;
  const halfLng = Math.max(span, MIN_SPAN) / 2;
  // Anticlockwise as d3 reads a small ring (clockwise would be the whole globe but this box).
  const box: Geometry = {
    type: 'Polygon',
    coordinates: [[[lng - halfLng, lat - halfLat], [lng - halfLng, lat + halfLat], [lng + halfLng, lat + halfLat], [lng + halfLng, lat - halfLat], [lng - halfLng, lat - halfLat]]],
  };
  return { type: 'GeometryCollection', geometries: [object as Geometry, box] };
}

/** The d3 calibration of a fitted projection (what events/geo-calibration.ts replays). */
export function calibrationOf(projection: GeoProjection, name: D3Calibration['projection']): D3Calibration {
  const [x, y] = projection.translate();
  return { kind: 'd3', projection: name, scale: projection.scale(), translate: [x, y] };
}

/** What the shapes draw: one `<path id>` per region with its label point, lines without an id. */
export interface ShapePaths {
  regions: string[];
  lines: string[];
  labels: Map<string, { x: number; y: number }>;
  /** Region ids whose outline the projection could not draw. */
  undrawn: string[];
}

/**
 * The shapes' paths, as `path` writes them (rounded, maybe thinned), each region's label point
 * found on the `exact` path; shared by a drawn floor and a street map's floor.
 */
export function shapePaths(shapes: readonly DrawnShape[], path: GeoPath, exact: GeoPath): ShapePaths {
  const labels = new Map<string, { x: number; y: number }>();
  const undrawn: string[] = [];
  const regions: string[] = [];
  const lines: string[] = [];
  for (const shape of shapes) {
    const d = path(shape.geometry);
    if (!d) {
      if (shape.id) undrawn.push(shape.id);
      continue;
    }
    if (shape.id === null) {
      lines.push(`<path d="${d}"/>`);
      continue;
    }
    regions.push(`<path id="${shape.id}" data-name="${escapeXml(shape.name)}" d="${d}"/>`);
    const label = labelPoint(exact, shape.geometry);
    if (label) labels.set(shape.id, label);
  }
  return { regions, lines, labels, undrawn };
}

/** The drawing's SVG: its background if any (a street map's floor has the basemap), its regions, its lines. */
export function drawingSvg({ width, height, title, background, regions, lines }: { width: number; height: number; title: string; background?: string } & Pick<ShapePaths, 'regions' | 'lines'>): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
    `<title>${escapeXml(title)}</title>`,
    ...(background ? [background] : []),
    `<g id="regions" fill="${COLORS.land}" stroke="${COLORS.border}" stroke-width="0.6" stroke-linejoin="round">`,
    ...regions,
    '</g>',
    ...(lines.length ? [`<g id="lines" fill="none" stroke="${COLORS.line}" stroke-width="1.2" stroke-linejoin="round" stroke-linecap="round">`, ...lines, '</g>'] : []),
    '</svg>',
  ].join('\n');
}

export interface GeneratedDrawing {
  floor: PlannedFloor;
  /** Each region's label point on the drawing, by path id. */
  labels: Map<string, { x: number; y: number }>;
  /** Region ids whose outline the projection could not draw (outside Albers USA's insets, say). */
  undrawn: string[];
}

/**
 * The floor drawn from the shapes. `extent` is everything the floor must show (points too), so
 * the points of the same file fall on it.
 */
export function drawShapes(key: string, name: string, shapes: readonly DrawnShape[], extent: readonly Geometry[], format: 'geojson' | 'kml' = 'geojson'): GeneratedDrawing {
  const everything: GeoGeometryObjects = { type: 'GeometryCollection', geometries: extent as Geometry[] };
  const positions: [number, number][] = [];
  for (const geometry of extent) for (const p of positionsOf(geometry)) positions.push(p);
  const { projection, name: projectionName } = projectionFor(everything, positions);
  const world = projectionName === 'natural-earth-1' && lngSpan(everything) >= 300;
  // The whole globe is fitted as a sphere: the countries' shapes, not their bounding box, would crop the oceans.
  const { width, height } = fitted(projection, world ? { type: 'Sphere' } : withMinimumExtent(everything));
  const calibration = calibrationOf(projection, projectionName);
  if (!Number.isFinite(calibration.scale) || calibration.scale <= 0 || !calibration.translate.every(Number.isFinite)) {
    throw importRefusal(format, 'its shapes cover no area that can be drawn', 'Check the coordinates of its shapes (longitude first, then latitude) and import it again.');
  }
  const exact = geoPath(projection);
  // Points closer than half a unit to the last are left out (half the bytes, no visible change).
  const path = geoPath(thinned(projection, 0.5)).digits(1);

  const { regions, lines, labels, undrawn } = shapePaths(shapes, path, exact);
  const background = world
    ? `<path id="sphere" d="${path({ type: 'Sphere' })}" fill="${COLORS.background}" stroke="#cbd5e1" stroke-width="0.5"/>`
    : `<rect width="${width}" height="${height}" fill="${COLORS.background}"/>`;
  const svg = drawingSvg({ width, height, title: name, background, regions, lines });
  return {
    floor: { key, name, drawing: { kind: 'generated', svg, width, height }, geo: calibration },
    labels,
    undrawn,
  };
}
