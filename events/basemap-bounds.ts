/**
 * Where a floor on a street basemap lies (issue 29): Web Mercator bounds, as the tiles are, so
 * the floor's units map linearly onto the basemap. The bounds are widened to the floor's
 * proportions, so that a unit across is as long on the ground as a unit down and shapes keep
 * their look (the new-map page's street map, the import's floor for coordinates).
 */
import type { GeoCalibration } from './map-document.js';

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
