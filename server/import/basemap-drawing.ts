/**
 * A file's polygons drawn on a street map's floor (issue 29 item 1: regions on a basemap floor):
 * when the floor the file goes to lies on the street basemap, its shapes are drawn in that
 * floor's own units (its Web Mercator bounds: x follows longitude, y Web Mercator's northing,
 * events/geo-calibration.ts projectToFloor) instead of on a drawn floor of their own. The floor
 * keeps the basemap and gains the drawing as its regions, one `<path id>` per region as every
 * drawn floor has them, so a location links to its region by `element` as on any floor and the
 * drawing stays the one source of truth (the viewer's MapLibre view reads it back as GeoJSON,
 * client/src/components/map/basemap-regions.ts). A street map nothing is on yet is fitted to the
 * file's shapes and points, as one is to a file of points.
 */
import { geoPath, geoTransform } from 'd3-geo';
import type { Geometry } from 'geojson';
import { mercatorBoundsFor, MERCATOR_LIMIT, type MercatorBounds } from '../../events/basemap-bounds.js';
import { projectToFloor } from '../../events/geo-calibration.js';
import { isBasemapCalibration, type MapDocument } from '../../events/map-document.js';
import { drawingSvg, positionsOf, shapePaths, type DrawnShape, type GeneratedDrawing } from './geo-drawing.js';

/** The street map's floor a file's shapes are drawn on. */
export interface BasemapTarget {
  id: string;
  name: string;
  geo: MercatorBounds;
  size: { width: number; height: number };
  /** Nothing is on it yet: its bounds are fitted to the file. */
  empty: boolean;
}


/**
 * The floor a file goes to (`?layer=`, else the map's default floor, else its first) when it
 * lies on the street basemap and has no drawing yet; null otherwise (the shapes then get a drawn
 * floor of their own, as before). A floor with a drawing keeps it: an import never replaces a
 * floor's drawing (events/import-planner.ts), so a second file of shapes gets its own floor.
 */
export function basemapTarget(document: MapDocument | undefined, targetLayer?: string): BasemapTarget | null {
  if (!document) return null;
  const id = targetLayer ?? document.settings.defaultLayer ?? document.layers[0]?.id;
  const layer = document.layers.find((candidate) => candidate.id === id);
  if (!layer || layer.basemap !== true || layer.file || !isBasemapCalibration(layer.geo)) return null;
  const empty = !document.locations.some((location) => location.layer === layer.id) && !document.paths.nodes.some((node) => node.layer === layer.id);
  return { id: layer.id, name: layer.name, geo: layer.geo as MercatorBounds, size: { ...document.settings.size }, empty };
}

/**
 * The extent of every position, longitudes as the file writes them (not wrapped: Alaska's
 * Aleutians at -189° stay west of the rest), a tenth more around, widened to the floor's
 * proportions. Within ±540° and Web Mercator's latitudes, as a basemap floor's bounds must be.
 */
export function boundsOfShapes(extent: readonly Geometry[], size: { width: number; height: number }): MercatorBounds | null {
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (const geometry of extent) {
    for (const [lng, lat] of positionsOf(geometry)) {
      if (lng < west) west = lng;
      if (lng > east) east = lng;
      if (lat < south) south = lat;
      if (lat > north) north = lat;
    }
  }
  if (![west, east, south, north].every(Number.isFinite)) return null;
  // About a kilometre at least each way (a single small shape), as a single point's floor.
  const halfLng = Math.max(east - west, 0.01) * 0.6;
  const halfLat = Math.max(north - south, 0.01) * 0.6;
  const lng = (west + east) / 2;
  const lat = (north + south) / 2;
  return mercatorBoundsFor(
    {
      north: Math.min(MERCATOR_LIMIT, lat + halfLat),
      south: Math.max(-MERCATOR_LIMIT, lat - halfLat),
      west: Math.max(-540, lng - halfLng),
      east: Math.min(540, lng + halfLng),
    },
    size,
  );
}

/**
 * The shapes drawn in the floor's units: the planned floor is the street map's own (its id as
 * the key, so the planner puts the drawing on it), still on the basemap, with the bounds fitted
 * to the file when nothing is on it yet. Answers each region's label point (where its location
 * sits) and the regions that could not be drawn, as {@link drawShapes} does.
 */
export function drawOnBasemap(target: BasemapTarget, shapes: readonly DrawnShape[], extent: readonly Geometry[]): GeneratedDrawing {
  const geo = (target.empty ? boundsOfShapes(extent, target.size) : null) ?? target.geo;
  const { width, height } = target.size;
  // Straight lines between the vertices in Web Mercator, as MapLibre draws GeoJSON: the file's
  // longitudes as they are (a floor's bounds may run past ±180), latitudes within Web Mercator's.
  const projection = geoTransform({
    point(lng, lat) {
      const point = projectToFloor(geo, target.size, { lng, lat: Math.max(-MERCATOR_LIMIT, Math.min(MERCATOR_LIMIT, lat)) });
      if (point) this.stream.point(point.x, point.y);
    },
  });
  const exact = geoPath(projection);
  const path = geoPath(projection).digits(1);
  const { regions, lines, labels, undrawn } = shapePaths(shapes, path, exact);
  // No background: the basemap is the floor's background; the drawing is its regions only.
  const svg = drawingSvg({ width, height, title: target.name, regions, lines });
  return {
    floor: { key: target.id, name: target.name, drawing: { kind: 'generated', svg, width, height }, geo, basemap: true },
    labels,
    undrawn,
  };
}
