/**
 * A basemap floor's regions (issue 29 item 1): the floor's drawing, an SVG in the floor's own
 * units as every floor's drawing is (a file of polygons imported into a street map is drawn so,
 * server/import/basemap-drawing.ts), read into outlines and handed to MapLibre as GeoJSON
 * polygons in longitude and latitude. The drawing stays the one source of truth: a location
 * names its region by `element` (an SVG element id) as on a drawn floor, and what is drawn on
 * the basemap is that element's outline, converted here. Only the regions locations stand for
 * are drawn (the basemap is the rest of the floor), coloured as the canvas colours them
 * (svg-layer.ts: the location's colour, else its first group's, tinted; else the map's region
 * styles).
 */
import { REGION_TINT, tint } from '../../../../events/colour-tint';
import { boundsToGeo } from '../../../../events/geo-bounds';
import { isMeaningfulRegion } from '../../../../events/region-ids';
import { elementIdFor } from '../../../../events/svg-element-id';
import type { FloorGeo } from './basemap-floor';
import { apply, ellipseRing, IDENTITY, multiply, parseTransform, pathRings, pointsRing, polygonsOf, type Matrix, type Ring } from './basemap-svg-path';
import { regionFinder } from './find-region';
import type { Location, MapDocument, MapPoint } from './types';

/** A region's outline on its floor: its polygons (an outer ring and its holes each), in the floor's units. */
export interface RegionOutline {
  polygons: Ring[][];
  /** Its extent on the floor. */
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

/** Parts of a drawing that are not drawn where they stand. */
const NOT_DRAWN = new Set(['defs', 'clippath', 'mask', 'pattern', 'symbol', 'marker', 'title', 'desc', 'metadata', 'style', 'script', 'text']);
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/**
 * The drawing's user units to the floor's: its viewBox fitted into the floor's size as the
 * canvas shows it (preserveAspectRatio, xMidYMid meet unless it says none).
 */
export function viewBoxMatrix(svg: Element, size: { width: number; height: number }): Matrix {
  const box = (svg.getAttribute('viewBox') ?? '').split(/[\s,]+/).map(Number);
  if (box.length !== 4 || !box.every(Number.isFinite) || box[2]! <= 0 || box[3]! <= 0) return IDENTITY;
  const [x, y, w, h] = box as [number, number, number, number];
  if ((svg.getAttribute('preserveAspectRatio') ?? '').trim() === 'none') return [size.width / w, 0, 0, size.height / h, (-x * size.width) / w, (-y * size.height) / h];
  const k = Math.min(size.width / w, size.height / h);
  return [k, 0, 0, k, (size.width - w * k) / 2 - x * k, (size.height - h * k) / 2 - y * k];
}

/** The rings an element draws (a group's, every shape in it), through `matrix` and its own transforms. */
function ringsOf(element: Element, matrix: Matrix, root: Element, depth = 0): Ring[] {
  const tag = element.localName.toLowerCase();
  if (NOT_DRAWN.has(tag) || depth > 32) return [];
  const m = multiply(matrix, parseTransform(element.getAttribute('transform')));
  const number = (name: string) => Number.parseFloat(element.getAttribute(name) ?? '') || 0;
  let rings: Ring[] = [];
  switch (tag) {
    case 'path':
      rings = pathRings(element.getAttribute('d') ?? '');
      break;
    case 'polygon':
      rings = [pointsRing(element.getAttribute('points') ?? '')];
      break;
    case 'rect': {
      const [x, y, w, h] = [number('x'), number('y'), number('width'), number('height')];
      if (w > 0 && h > 0) rings = [[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]];
      break;
    }
    case 'circle':
      if (number('r') > 0) rings = [ellipseRing(number('cx'), number('cy'), number('r'), number('r'))];
      break;
    case 'ellipse':
      if (number('rx') > 0 && number('ry') > 0) rings = [ellipseRing(number('cx'), number('cy'), number('rx'), number('ry'))];
      break;
    case 'use': {
      // A shape drawn by reusing another (a kiosk): that shape, moved by the use's x and y.
      const href = (element.getAttribute('href') ?? element.getAttributeNS(XLINK_NS, 'href') ?? '').trim();
      const target = href.startsWith('#') ? ([...root.querySelectorAll('[id]')].find((candidate) => candidate.id === href.slice(1)) ?? null) : null;
      if (!target || target.contains(element)) return [];
      const moved = multiply(m, [1, 0, 0, 1, number('x'), number('y')]);
      const parts = target.localName.toLowerCase() === 'symbol' ? [...target.children] : [target];
      return parts.flatMap((part) => ringsOf(part, moved, root, depth + 1));
    }
    default:
      // A group (or a nested svg, a link): every shape in it.
      return [...element.children].flatMap((child) => ringsOf(child, m, root, depth + 1));
  }
  return rings.filter((ring) => ring.length >= 3).map((ring) => ring.map((point) => apply(m, point)));
}

/** The outlines of the regions locations stand for, by location id (those whose element the drawing lacks are left out). */
export function regionOutlines(svg: Element, regions: ReadonlyArray<{ id: string; element: string }>, size: { width: number; height: number }): Map<string, RegionOutline> {
  const find = regionFinder(svg);
  const toFloor = viewBoxMatrix(svg, size);
  const outlines = new Map<string, RegionOutline>();
  for (const { id, element } of regions) {
    const found = find(element);
    if (!found) continue;
    // The element's ancestors' transforms too (a region inside a moved group).
    let matrix = toFloor;
    const chain: Element[] = [];
    for (let parent = found.parentElement; parent && parent !== svg; parent = parent.parentElement) chain.unshift(parent);
    for (const parent of chain) matrix = multiply(matrix, parseTransform(parent.getAttribute('transform')));
    const polygons = polygonsOf(ringsOf(found, matrix, svg));
    if (polygons.length === 0) continue;
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const polygon of polygons) {
      for (const [x, y] of polygon[0]!) {
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
    }
    outlines.set(id, { polygons, box: { minX, minY, maxX, maxY } });
  }
  return outlines;
}

/**
 * The floor's lines: what its drawing draws as lines, not places (a file's routes, rivers and
 * boundaries, `<g id="lines">` as an import draws them, server/import/geo-drawing.ts), as
 * polylines in the floor's units. A drawn floor shows them in its drawing; a basemap floor draws
 * only its regions from the drawing, so MapLibre draws these too (basemap-region-layers.ts).
 */
export function drawingLines(svg: Element, size: { width: number; height: number }): Ring[] {
  const group = [...svg.querySelectorAll('g[id]')].find((candidate) => candidate.id === 'lines');
  if (!group) return [];
  const toFloor = viewBoxMatrix(svg, size);
  const lines: Ring[] = [];
  for (const element of group.querySelectorAll('path, polyline, line')) {
    let matrix = toFloor;
    const chain: Element[] = [];
    for (let at: Element | null = element; at && at !== svg; at = at.parentElement) chain.unshift(at);
    for (const part of chain) matrix = multiply(matrix, parseTransform(part.getAttribute('transform')));
    const number = (name: string) => Number.parseFloat(element.getAttribute(name) ?? '') || 0;
    const tag = element.localName.toLowerCase();
    const parts: Ring[] =
      tag === 'path' ? pathRings(element.getAttribute('d') ?? '', 2) : tag === 'polyline' ? [pointsRing(element.getAttribute('points') ?? '')] : [[[number('x1'), number('y1')], [number('x2'), number('y2')]]];
    for (const line of parts) if (line.length >= 2) lines.push(line.map((point) => apply(matrix, point)));
  }
  return lines;
}

export interface LineCollection {
  type: 'FeatureCollection';
  features: Array<{ type: 'Feature'; geometry: { type: 'LineString'; coordinates: number[][] }; properties: Record<string, never> }>;
}

/** The floor's lines as GeoJSON for MapLibre, in longitude and latitude. */
export function lineFeatures(lines: readonly Ring[], floor: FloorGeo): LineCollection {
  return {
    type: 'FeatureCollection',
    features: lines.map((line) => ({ type: 'Feature', geometry: { type: 'LineString', coordinates: line.map((point) => outlinePoint(floor, { x: point[0], y: point[1] })) }, properties: {} })),
  };
}

/** How a region looks: its fill at rest, hovered and selected, and its outline's colour. */
export interface RegionLook {
  fill: string;
  hover: string;
  active: string;
  line: string;
}

/** A region's look as the canvas gives it (svg-layer.ts): its location's colour or its first group's, tinted; else the map's region styles. */
export function regionLook(location: Location, groupColors: ReadonlyMap<string, string>, styles: MapDocument['styles']['regions']): RegionLook {
  const colour = location.color ?? (location.groups[0] ? groupColors.get(location.groups[0]) : undefined) ?? null;
  if (colour && /^#[0-9a-f]{6}$/i.test(colour)) return { fill: tint(colour, REGION_TINT.fill), hover: tint(colour, REGION_TINT.hover), active: tint(colour, REGION_TINT.active), line: colour };
  return { fill: styles.base, hover: styles.hover, active: styles.active, line: '#64748b' };
}

export interface RegionFeature {
  type: 'Feature';
  geometry: { type: 'MultiPolygon'; coordinates: number[][][][] };
  properties: { id: string } & RegionLook;
}

export interface RegionCollection {
  type: 'FeatureCollection';
  features: RegionFeature[];
}

/**
 * A point of the floor as [longitude, latitude] for a region's outline: the longitude not
 * wrapped into ±180 (a floor's bounds may run past it, and a shape across the antimeridian
 * must not jump across the world), latitude as every point of the floor converts.
 */
export function outlinePoint({ geo, size }: FloorGeo, point: MapPoint): [number, number] {
  const lat = boundsToGeo(geo, size, point)?.lat ?? geo.north;
  const lng = geo.west + (point.x / size.width) * (geo.east - geo.west);
  return [Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6];
}

/**
 * The regions as GeoJSON for MapLibre (one MultiPolygon each, its properties its look), in the
 * order given: the floor's regions whose locations are shown (hidden ones are left out by the caller).
 */
export function regionFeatures(outlines: ReadonlyMap<string, RegionOutline>, floor: FloorGeo, looks: ReadonlyMap<string, RegionLook>): RegionCollection {
  const features: RegionFeature[] = [];
  for (const [id, outline] of outlines) {
    const look = looks.get(id);
    if (!look) continue;
    const coordinates = outline.polygons.map((polygon) => polygon.map((ring) => {
      const closed = ring.map((point) => outlinePoint(floor, { x: point[0], y: point[1] }));
      closed.push(closed[0]!);
      return closed;
    }));
    features.push({ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates }, properties: { id, ...look } });
  }
  return { type: 'FeatureCollection', features };
}

/** What an editor may link in a drawing (svg-layer.ts mountSvg's `pickable`): shapes and groups with ids. */
const PICKABLE = 'path[id], polygon[id], polyline[id], rect[id], circle[id], ellipse[id], g[id], use[id]';
const PICK_NOT_DRAWN = 'defs, clipPath, mask, pattern, symbol, marker';

/**
 * The regions of the drawing no location stands for, by element reference, for the editor's
 * placing tool to link as on a drawn floor (svg-layer.ts mountSvg's `pickable`): ids a person
 * gave, never a layer, nor a shape covering most of the floor (its background).
 */
export function pickableOutlines(svg: Element, linked: ReadonlySet<string>, size: { width: number; height: number }): Map<string, RegionOutline> {
  const candidates: Array<{ id: string; element: string }> = [];
  for (const element of svg.querySelectorAll(PICKABLE)) {
    if (element.closest(PICK_NOT_DRAWN)) continue;
    const layer = element.localName === 'g' && (element.parentElement === svg || element.getAttribute('inkscape:groupmode') === 'layer');
    if (!isMeaningfulRegion({ id: element.id, tag: element.localName, layer })) continue;
    const reference = elementIdFor(element.id);
    if (!linked.has(reference)) candidates.push({ id: reference, element: reference });
  }
  const outlines = regionOutlines(svg, candidates, size);
  for (const [id, { box }] of outlines) if ((box.maxX - box.minX) * (box.maxY - box.minY) > size.width * size.height * 0.5) outlines.delete(id);
  return outlines;
}

/** The smallest of the outlines a point of the floor is inside (even-odd over each polygon's rings), or null. */
export function outlineAt(outlines: ReadonlyMap<string, RegionOutline>, { x, y }: MapPoint): string | null {
  let found: string | null = null;
  let smallest = Infinity;
  for (const [id, { polygons, box }] of outlines) {
    if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY) continue;
    const area = (box.maxX - box.minX) * (box.maxY - box.minY);
    if (area >= smallest) continue;
    const inside = polygons.some((polygon) => {
      let odd = false;
      for (const ring of polygon) {
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [xi, yi] = ring[i]!;
          const [xj, yj] = ring[j]!;
          if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
        }
      }
      return odd;
    });
    if (inside) {
      found = id;
      smallest = area;
    }
  }
  return found;
}
