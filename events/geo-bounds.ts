/**
 * Latitude/longitude on a floor calibrated by bounds (Web Mercator or equirectangular) and back:
 * the arithmetic of events/geo-calibration.ts without d3-geo, which only a drawn projection's
 * floor (a `d3` calibration) needs. A street map's floors are Web Mercator bounds
 * (client/src/components/map/basemap-floor.ts), so its MapLibre view converts through this
 * module and does not fetch d3-geo (issue 29: a basemap map's JavaScript).
 */
import type { GeoCalibration, Point } from './map-document.js';

export interface LatLng {
  lat: number;
  lng: number;
}

export interface FloorSize {
  width: number;
  height: number;
}

export type BoundsCalibration = Extract<GeoCalibration, { kind: 'bounds' }>;

const RADIANS = Math.PI / 180;
/** Web Mercator's latitude limit (degrees): beyond it, web maps show nothing. */
export const MERCATOR_MAX_LATITUDE = 85.05113;

/** Web Mercator's y of a latitude (unscaled); the poles are cut at ±85.05°, as web maps do. */
export const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-MERCATOR_MAX_LATITUDE, Math.min(MERCATOR_MAX_LATITUDE, lat)) * RADIANS) / 2));
export const mercatorLat = (y: number) => (2 * Math.atan(Math.exp(y)) - Math.PI / 2) / RADIANS;

/** Where a place falls on a bounds floor, in the floor's units; null where it has no finite point. */
export function boundsToFloor(geo: BoundsCalibration, size: FloorSize, { lat, lng }: LatLng): Point | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90) return null;
  // Longitude turns: one outside the bounds is taken on the turn of the world nearest their middle (bounds across the antimeridian run east past 180).
  const inBounds = lng >= Math.min(geo.west, geo.east) && lng <= Math.max(geo.west, geo.east);
  const near = inBounds ? lng : lng + 360 * Math.round(((geo.west + geo.east) / 2 - lng) / 360);
  const x = ((near - geo.west) / (geo.east - geo.west)) * size.width;
  const y =
    geo.projection === 'mercator'
      ? ((mercatorY(geo.north) - mercatorY(lat)) / (mercatorY(geo.north) - mercatorY(geo.south))) * size.height
      : ((geo.north - lat) / (geo.north - geo.south)) * size.height;
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
}

/** The place at a point of a bounds floor; null where it has none. */
export function boundsToGeo(geo: BoundsCalibration, size: FloorSize, point: Point): LatLng | null {
  const unwrapped = geo.west + (point.x / size.width) * (geo.east - geo.west);
  // Bounds across the antimeridian run past 180: the place's longitude is within ±180 (x of 540° at most).
  const lng = unwrapped > 180 ? unwrapped - 360 : unwrapped < -180 ? unwrapped + 360 : unwrapped;
  const lat =
    geo.projection === 'mercator'
      ? mercatorLat(mercatorY(geo.north) - (point.y / size.height) * (mercatorY(geo.north) - mercatorY(geo.south)))
      : geo.north - (point.y / size.height) * (geo.north - geo.south);
  return Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;
}
