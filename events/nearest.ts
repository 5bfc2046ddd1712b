/**
 * "Find the nearest" (issue 29 item 4): a map's places ordered by their distance from where a
 * visitor is or searched, within a radius, in the unit the visitor's language reads distances
 * in. Pure: the places' latitudes and longitudes are handed in (a floor's calibration gives
 * them, events/geo-calibration.ts), so the viewer and the server sort alike.
 *
 * Distances are great-circle distances (haversine on the mean Earth radius): within 0.5% of
 * the ellipsoid's, far below what a visitor choosing between stores can tell, and what every
 * store locator shows ("as the crow flies"); the visitor's own maps app gives the way there.
 */
import type { LatLngPoint } from './geocoding.js';

/** The Earth's mean radius (IUGG), in kilometres. */
const EARTH_RADIUS_KM = 6371.0088;
export const KM_PER_MILE = 1.609344;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance between two places, in kilometres. */
export function distanceKm(a: LatLngPoint, b: LatLngPoint): number {
  const dLat = radians(b.lat - a.lat);
  const dLng = radians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface NearestOptions {
  /** Only places at most this far, in kilometres. */
  radiusKm?: number;
  /** At most this many, the nearest first. */
  limit?: number;
}

export interface Near<T> {
  item: T;
  km: number;
}

/**
 * The items with a place, nearest to `origin` first (ties in the items' own order), within the
 * radius and the limit. Items without a place (`placeOf` answers null) are left out.
 */
export function nearestFirst<T>(items: readonly T[], placeOf: (item: T) => LatLngPoint | null, origin: LatLngPoint, options: NearestOptions = {}): Near<T>[] {
  const radius = options.radiusKm ?? Number.POSITIVE_INFINITY;
  const near: Array<Near<T> & { index: number }> = [];
  items.forEach((item, index) => {
    const place = placeOf(item);
    if (!place) return;
    const km = distanceKm(origin, place);
    if (km <= radius) near.push({ item, km, index });
  });
  near.sort((a, b) => a.km - b.km || a.index - b.index);
  return near.slice(0, options.limit ?? near.length).map(({ item, km }) => ({ item, km }));
}

export type DistanceUnit = 'km' | 'mi';

/**
 * Where road distances are read in miles: the United States, the United Kingdom, Liberia and
 * Myanmar (and the US territories). A language without a region ("en") reads them as most of
 * its speakers do: English in miles, every other language in kilometres.
 */
const MILE_REGIONS = new Set(['US', 'GB', 'LR', 'MM', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM']);

export function distanceUnit(locale: string): DistanceUnit {
  const [language, ...rest] = locale.split(/[-_]/);
  const region = rest.find((part) => /^[A-Za-z]{2}$/.test(part))?.toUpperCase();
  if (region) return MILE_REGIONS.has(region) ? 'mi' : 'km';
  return language?.toLowerCase() === 'en' ? 'mi' : 'km';
}

/** A distance as the visitor reads it: "350 m", "1.2 km", "12 km"; "0.2 mi", "3.4 mi", "25 mi". */
export function formatDistance(km: number, unit: DistanceUnit, locale: string): string {
  const format = (value: number, name: 'meter' | 'kilometer' | 'mile', digits: number) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: digits }).format(value);
  if (unit === 'mi') {
    const miles = km / KM_PER_MILE;
    return format(miles, 'mile', miles < 10 ? 1 : 0);
  }
  if (km < 1) return format(Math.max(10, Math.round((km * 1000) / 10) * 10), 'meter', 0);
  return format(km, 'kilometer', km < 10 ? 1 : 0);
}

/** The radii a visitor picks from, in their unit (the viewer's radius filter). */
export const RADIUS_CHOICES: Record<DistanceUnit, readonly number[]> = { km: [5, 10, 25, 50, 100], mi: [5, 10, 25, 50, 100] };

/** A radius in the visitor's unit, in kilometres. */
export function radiusInKm(value: number, unit: DistanceUnit): number {
  return unit === 'mi' ? value * KM_PER_MILE : value;
}
