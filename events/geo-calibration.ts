/**
 * Latitude/longitude on a calibrated floor and back (see GeoCalibration in map-document.ts).
 * Pure, d3-geo for the drawn projections (the same functions the built-in maps and GeoJSON
 * drawings are made with, so a point lands where the drawing puts its place).
 */
import { geoAlbersUsa, geoEquirectangular, geoMercator, geoNaturalEarth1, type GeoProjection } from 'd3-geo';
import type { GeoCalibration, Point } from './map-document.js';

export interface LatLng {
  lat: number;
  lng: number;
}

export interface FloorSize {
  width: number;
  height: number;
}

const RADIANS = Math.PI / 180;
/** Web Mercator's latitude limit (degrees): beyond it, web maps show nothing. */
export const MERCATOR_MAX_LATITUDE = 85.05113;

/** Web Mercator's y of a latitude (unscaled); the poles are cut at ±85.05°, as web maps do. */
const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-MERCATOR_MAX_LATITUDE, Math.min(MERCATOR_MAX_LATITUDE, lat)) * RADIANS) / 2));
const mercatorLat = (y: number) => (2 * Math.atan(Math.exp(y)) - Math.PI / 2) / RADIANS;

type D3Calibration = Extract<GeoCalibration, { kind: 'd3' }>;

const projections: Record<D3Calibration['projection'], () => GeoProjection> = {
  'natural-earth-1': geoNaturalEarth1,
  'albers-usa': geoAlbersUsa as unknown as () => GeoProjection,
  mercator: geoMercator,
  equirectangular: geoEquirectangular,
};

/** The d3 projection a calibration names, at its scale and translation. */
export function d3ProjectionOf(geo: D3Calibration): GeoProjection {
  return projections[geo.projection]().scale(geo.scale).translate(geo.translate);
}

/** Why a calibration is refused, after its field's name. */
export const UNPROJECTABLE = `must span some latitude within Web Mercator's ±${MERCATOR_MAX_LATITUDE}° (north and south are both beyond it)`;

/**
 * Whether the calibration puts places somewhere: a Mercator floor whose north and south both
 * lie beyond Web Mercator's limit (north 90, south 86) spans no height once the poles are cut,
 * and every place would land at a y of NaN or Infinity.
 */
export function isProjectableCalibration(geo: GeoCalibration): boolean {
  if (geo.kind !== 'bounds' || geo.projection !== 'mercator') return true;
  return mercatorY(geo.north) !== mercatorY(geo.south);
}

/**
 * Where a place falls on the floor, in the floor's units; null where the projection has no
 * such place (Albers USA outside the US) or no finite one (a calibration that spans nothing):
 * a point is never NaN or Infinity.
 */
export function projectToFloor(geo: GeoCalibration, size: FloorSize, { lat, lng }: LatLng): Point | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90) return null;
  if (geo.kind === 'd3') {
    const projected = d3ProjectionOf(geo)([lng, lat]);
    return projected && Number.isFinite(projected[0]) && Number.isFinite(projected[1]) ? { x: projected[0], y: projected[1] } : null;
  }
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

/** The place at a point of the floor; null where the projection has none. */
export function floorToGeo(geo: GeoCalibration, size: FloorSize, point: Point): LatLng | null {
  if (geo.kind === 'd3') {
    const inverted = d3ProjectionOf(geo).invert?.([point.x, point.y]);
    return inverted && Number.isFinite(inverted[0]) && Number.isFinite(inverted[1]) ? { lat: inverted[1], lng: inverted[0] } : null;
  }
  const unwrapped = geo.west + (point.x / size.width) * (geo.east - geo.west);
  // Bounds across the antimeridian run past 180: the place's longitude is within ±180 (x of 540° at most).
  const lng = unwrapped > 180 ? unwrapped - 360 : unwrapped < -180 ? unwrapped + 360 : unwrapped;
  const lat =
    geo.projection === 'mercator'
      ? mercatorLat(mercatorY(geo.north) - (point.y / size.height) * (mercatorY(geo.north) - mercatorY(geo.south)))
      : geo.north - (point.y / size.height) * (geo.north - geo.south);
  return Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;
}

/**
 * A floor calibrated from two points whose places are known (a user pins two landmarks on an
 * uploaded plan): the bounds that put both where they are. The points must differ in both x
 * and y, and their places in both latitude and longitude, the same way round (north up).
 */
export function calibrateFromTwoPoints(
  size: FloorSize,
  first: { point: Point; place: LatLng },
  second: { point: Point; place: LatLng },
  projection: 'mercator' | 'equirectangular' = 'mercator',
): { ok: true; geo: GeoCalibration } | { ok: false; message: string } {
  const dx = second.point.x - first.point.x;
  const dy = second.point.y - first.point.y;
  const dLng = second.place.lng - first.place.lng;
  const toY = projection === 'mercator' ? mercatorY : (lat: number) => lat;
  const fromY = projection === 'mercator' ? mercatorLat : (y: number) => y;
  const dGeoY = toY(second.place.lat) - toY(first.place.lat);
  if (Math.abs(dx) < 1 || Math.abs(dy) < 1) return { ok: false, message: 'Pin two points further apart, both across and up and down.' };
  if (dLng === 0 || dGeoY === 0) return { ok: false, message: 'The two places must differ in both latitude and longitude.' };
  if (Math.sign(dx) !== Math.sign(dLng) || Math.sign(dy) !== -Math.sign(dGeoY)) {
    return { ok: false, message: 'The places are the other way round from the points: check that north is up and the points match their places.' };
  }
  const lngPerUnit = dLng / dx;
  const west = first.place.lng - first.point.x * lngPerUnit;
  const east = west + size.width * lngPerUnit;
  const geoYPerUnit = dGeoY / dy;
  const top = toY(first.place.lat) - first.point.y * geoYPerUnit;
  const bottom = top + size.height * geoYPerUnit;
  const north = fromY(top);
  const south = fromY(bottom);
  if (![west, east, north, south].every(Number.isFinite) || north > 90 || south < -90 || west < -540 || east > 540) {
    return { ok: false, message: 'Those two points put the drawing beyond the globe: check their places.' };
  }
  return { ok: true, geo: { kind: 'bounds', projection, north, south, west, east } };
}
