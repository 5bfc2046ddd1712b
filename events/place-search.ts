/**
 * A visitor's "near …" search in a store locator (issue 29 item 4): a place name ("Denver",
 * "Springfield, IL", "Lyon, France") or a postcode ("80202", "M5V 3L9") to the places it may
 * mean, the likeliest first, through the same embedded gazetteer that places addresses on
 * import (events/geocoding.ts). Pure: the gazetteer is handed in.
 *
 * Which Springfield: one in the country (and state) the query names; else one in the countries
 * the map's own places are in (a US chain's visitor typing "Springfield" means a US one); else
 * the most populous. Postcodes are known for the US (ZIP) and Canada (its first three
 * characters), as on import; elsewhere a postcode finds nothing and the visitor is told so.
 */
import { z } from 'zod';
import { countryOf, placeKey, postcodeKey, type Gazetteer, type GazetteerPlace, type LatLngPoint } from './geocoding.js';
import { LocationPrecision } from './map-document.js';

export const MAX_PLACE_MATCHES = 5;

export const PlaceSearchQuery = z.object({
  q: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  /** Where the visitor is looking ("lat,lng", the map's view): an ambiguous name is looked for in that country first. */
  near: z
    .string()
    .regex(/^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$/, 'must be a latitude and longitude like 39.74,-104.99')
    .optional(),
  /** A view link's key, for a test map its viewer reaches by a view link. */
  key: z.string().max(200).optional(),
});
export type PlaceSearchQuery = z.infer<typeof PlaceSearchQuery>;

export const PlaceMatch = z.object({
  /** The place's name as the gazetteer writes it, or the postcode as the visitor typed it. */
  name: z.string(),
  /** A US state's or Canadian province's code where the gazetteer has one people read ("IL"); else null. */
  region: z.string().nullable(),
  /** ISO 3166-1 alpha-2: the viewer names it in the visitor's language; null when a remote geocoder (GEOCODER_URL) found it. */
  country: z.string().length(2).nullable(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  precision: LocationPrecision,
});
export type PlaceMatch = z.infer<typeof PlaceMatch>;

export const PlaceSearchAnswer = z.object({ places: z.array(PlaceMatch).max(MAX_PLACE_MATCHES) });
export type PlaceSearchAnswer = z.infer<typeof PlaceSearchAnswer>;

const US_ZIP = /^(\d{5})(?:-?\d{4})?$/;
const CA_POSTCODE = /^([A-Za-z]\d[A-Za-z])\s?(\d[A-Za-z]\d)?$/;

/** Where the region code is one people write (US states, Canadian provinces are GeoNames numbers). */
const READABLE_REGIONS = new Set(['US']);

function postcodeMatches(gazetteer: Gazetteer, query: string): PlaceMatch[] {
  const compact = query.replace(/\s+/g, ' ').trim();
  if (US_ZIP.test(compact)) {
    const point = gazetteer.postcodes.get('US')?.get(postcodeKey('US', compact));
    return point ? [{ name: compact, region: null, country: 'US', lat: point.lat, lng: point.lng, precision: 'postcode' }] : [];
  }
  if (CA_POSTCODE.test(compact)) {
    const point = gazetteer.postcodes.get('CA')?.get(postcodeKey('CA', compact));
    return point ? [{ name: compact.toUpperCase(), region: null, country: 'CA', lat: point.lat, lng: point.lng, precision: 'postcode' }] : [];
  }
  return [];
}

const matchOf = (place: GazetteerPlace): PlaceMatch => ({
  name: place.name,
  region: READABLE_REGIONS.has(place.country) && place.admin ? place.admin : null,
  country: place.country,
  lat: place.lat,
  lng: place.lng,
  precision: 'city',
});

/**
 * The places `query` may mean, the likeliest first (at most {@link MAX_PLACE_MATCHES}).
 * `preferred`: the countries the map's places are in, most first.
 */
export function searchPlaces(gazetteer: Gazetteer, query: string, preferred: readonly string[] = []): PlaceMatch[] {
  const text = query.trim();
  if (text === '') return [];
  const postcode = postcodeMatches(gazetteer, text);
  if (postcode.length > 0) return postcode;

  // "Springfield, IL", "Lyon, France", "Portland, Oregon, USA": a name, then what narrows it.
  const [head = '', ...qualifiers] = text.split(',').map((part) => part.trim()).filter(Boolean);
  const regionIn = (code: string, qualifier: string) => gazetteer.regions.get(code)?.get(placeKey(qualifier)) ?? null;
  let country: string | null = null;
  let region: string | null = null;
  /** A two-letter qualifier read as a state ("San Jose, CA"): read as a country instead if no such place is there ("Toronto, CA"). */
  let twoLetters: string | null = null;
  for (const qualifier of [...qualifiers].reverse()) {
    if (qualifier.length === 2 && !region) {
      const candidates: string[] = country ? [country] : [...preferred, 'US', 'CA'];
      const inCountry = candidates.find((code) => regionIn(code, qualifier) !== null);
      if (inCountry) {
        country = inCountry;
        region = regionIn(inCountry, qualifier);
        twoLetters = qualifier;
        continue;
      }
    }
    const named: string | null = country ? null : countryOf(gazetteer, qualifier);
    if (named) country = named;
    else if (!region) {
      // A state or province by its name ("Springfield, Massachusetts"), in the country named or a likely one.
      const inCountry: string | undefined = (country ? [country] : [...preferred, 'US', 'CA']).find((code) => regionIn(code, qualifier) !== null);
      if (inCountry) {
        country = inCountry;
        region = regionIn(inCountry, qualifier);
      }
    }
  }

  const found = gazetteer.places.get(placeKey(head)) ?? [];
  const rank = new Map(preferred.map((code, index) => [code, index]));
  const within = (inCountry: string | null, inRegion: string | null) =>
    found
      .map((place, index) => ({ place, index, preferred: rank.get(place.country) ?? preferred.length }))
      .filter(({ place }) => (inCountry ? place.country === inCountry : true) && (inRegion ? place.admin === inRegion : true))
      // The map's own countries first (in their order), then the gazetteer's (most populous first).
      .sort((a, b) => a.preferred - b.preferred || a.index - b.index)
      .slice(0, MAX_PLACE_MATCHES)
      .map(({ place }) => matchOf(place));
  let matches = within(country, region);
  if (matches.length === 0 && twoLetters) {
    const asCountry = countryOf(gazetteer, twoLetters);
    if (asCountry) matches = within(asCountry, null);
  }
  if (matches.length > 0) return matches;

  // A country's name alone: its middle, for "stores in Portugal".
  const wholeCountry = qualifiers.length === 0 ? countryOf(gazetteer, head) : null;
  const centre = wholeCountry ? gazetteer.countries.get(wholeCountry) : undefined;
  if (wholeCountry && centre) return [{ name: head, region: null, country: wholeCountry, lat: centre.lat, lng: centre.lng, precision: 'country' }];
  return [];
}

/** `near` as the query gives it, or null. */
export function nearPoint(near: string | undefined): LatLngPoint | null {
  if (!near) return null;
  const [lat, lng] = near.split(',').map(Number) as [number, number];
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

/**
 * The country of the gazetteer's place nearest to `point` (where the visitor is looking), or
 * null: one pass over its places (about 120,000), on a flat approximation that is plenty to
 * tell countries apart.
 */
export function countryNear(gazetteer: Gazetteer, point: LatLngPoint): string | null {
  const cos = Math.cos((point.lat * Math.PI) / 180);
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const places of gazetteer.places.values()) {
    for (const place of places) {
      const dLat = place.lat - point.lat;
      let dLng = Math.abs(place.lng - point.lng);
      if (dLng > 180) dLng = 360 - dLng;
      const distance = dLat * dLat + dLng * cos * (dLng * cos);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = place.country;
      }
    }
  }
  return best;
}
