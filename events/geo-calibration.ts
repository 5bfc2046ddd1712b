/**
 * Latitude/longitude on a calibrated floor and back (see GeoCalibration in map-document.ts).
 * Pure, d3-geo for the drawn projections (the same functions the built-in maps and GeoJSON
 * drawings are made with, so a point lands where the drawing puts its place); bounds floors'
 * arithmetic is events/geo-bounds.ts, which a street map's view imports without d3-geo.
 */
import { geoAlbersUsa, geoEquirectangular, geoMercator, geoNaturalEarth1, type GeoProjection } from 'd3-geo';
import { boundsToFloor, boundsToGeo, mercatorLat, mercatorY, MERCATOR_MAX_LATITUDE, type FloorSize, type LatLng } from './geo-bounds.js';
import type { GeoCalibration, Point } from './map-document.js';

export { MERCATOR_MAX_LATITUDE, type FloorSize, type LatLng };

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
  return boundsToFloor(geo, size, { lat, lng });
}

/** The place at a point of the floor; null where the projection has none. */
export function floorToGeo(geo: GeoCalibration, size: FloorSize, point: Point): LatLng | null {
  if (geo.kind === 'd3') {
    const inverted = d3ProjectionOf(geo).invert?.([point.x, point.y]);
    return inverted && Number.isFinite(inverted[0]) && Number.isFinite(inverted[1]) ? { lat: inverted[1], lng: inverted[0] } : null;
  }
  return boundsToGeo(geo, size, point);
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
