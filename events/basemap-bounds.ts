/**
 * Where a floor on a street basemap lies (issue 29): Web Mercator bounds, as the tiles are, so
 * the floor's units map linearly onto the basemap. The bounds are widened to the floor's
 * proportions, so that a unit across is as long on the ground as a unit down and shapes keep
 * their look (the new-map page's street map, the import's floor for coordinates).
 */
import type { LatLng } from './geo-calibration.js';
import type { GeoCalibration } from './map-document.js';
import type { PlannedFloor } from './map-import.js';

/** How far north and south a Web Mercator map goes (the tiles stop at about 85.05°). */
export const MERCATOR_LIMIT = 85;

export interface LatLngBox {
  north: number;
  south: number;
  west: number;
  east: number;
}

export type MercatorBounds = Extract<GeoCalibration, { kind: 'bounds' }> & { projection: 'mercator' };

const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
const mercatorLatitude = (y: number) => (2 * Math.atan(Math.exp(y)) * 180) / Math.PI - 90;

/**
 * The box, within the Mercator limit, with its shorter side widened about its middle until it
 * has the proportions of `size` in Web Mercator units. Longitudes stay within ±540 (a box
 * across the antimeridian runs east past 180).
 */
export function mercatorBoundsFor(box: LatLngBox, size: { width: number; height: number }): MercatorBounds {
  let north = Math.min(MERCATOR_LIMIT, Math.max(box.north, box.south));
  let south = Math.max(-MERCATOR_LIMIT, Math.min(box.north, box.south));
  let { west, east } = box;
  const wanted = size.height / size.width;
  const lngSpan = ((east - west) * Math.PI) / 180;
  const span = mercatorY(north) - mercatorY(south);
  if (span / lngSpan < wanted) {
    const grow = (wanted * lngSpan - span) / 2;
    north = Math.min(MERCATOR_LIMIT, mercatorLatitude(mercatorY(north) + grow));
    south = Math.max(-MERCATOR_LIMIT, mercatorLatitude(mercatorY(south) - grow));
  } else {
    const grow = ((span / wanted - lngSpan) * 90) / Math.PI;
    west = Math.max(-540, west - grow);
    east = Math.min(540, east + grow);
  }
  return { kind: 'bounds', projection: 'mercator', north, south, west, east };
}

/**
 * The points' extent, west to east within ±180: never across the antimeridian, since the
 * basemap's view shows one world (a chain in Fiji and Samoa is shown with the Pacific between).
 */
export function extentOf(points: readonly LatLng[]): LatLngBox {
  // Loops, not Math.min(...lats): 100,000 arguments can overflow the stack.
  let south = Infinity;
  let north = -Infinity;
  let west = Infinity;
  let east = -Infinity;
  for (const { lat, lng } of points) {
    const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
    if (lat < south) south = lat;
    if (lat > north) north = lat;
    if (wrapped < west) west = wrapped;
    if (wrapped > east) east = wrapped;
  }
  return { west, east, south, north };
}

/** A single point, or a few metres apart: shown with about a kilometre around it (degrees). */
const MIN_SPAN = 0.01;

/**
 * The Web Mercator bounds that show the points: their extent (at least about a kilometre each
 * way), a tenth more on each side so none sits on the edge, widened to the floor's proportions.
 */
export function boundsAround(points: readonly LatLng[], size: { width: number; height: number }): MercatorBounds {
  const extent = extentOf(points);
  const north = Math.min(MERCATOR_LIMIT, extent.north);
  const south = Math.max(-MERCATOR_LIMIT, extent.south);
  const middle = (north + south) / 2;
  const cos = Math.max(0.05, Math.cos((middle * Math.PI) / 180));
  const halfLat = Math.max(north - south, MIN_SPAN) / 2;
  const halfLng = Math.max(extent.east - extent.west, MIN_SPAN / cos) / 2;
  const centreLng = (extent.west + extent.east) / 2;
  return mercatorBoundsFor(
    { north: middle + halfLat * 1.2, south: middle - halfLat * 1.2, west: centreLng - halfLng * 1.2, east: centreLng + halfLng * 1.2 },
    size,
  );
}

/**
 * The floor for latitude/longitude points no floor of the map places (an import's, issue 29
 * item 5): on the street basemap, without a drawing, at the map's size, its bounds fitted to
 * the points.
 */
export function basemapFloorAround(points: readonly LatLng[], size: { width: number; height: number }): PlannedFloor {
  return { key: 'geographic', name: 'Map', drawing: null, size: { ...size }, geo: boundsAround(points, size), basemap: true };
}
