/**
 * Geocoding on import (issue 29 item 3): a row with an address and no coordinates placed by
 * what its address says. Pure: the gazetteer (GeoNames places, postcodes, countries) is handed
 * in, built once by server/geocoding/gazetteer.ts from npm data packages; a remote geocoder's
 * answers (GEOCODER_URL: Nominatim, Photon or Pelias, server/geocoding/remote-geocoder.ts)
 * arrive as a map from each query's key. Nothing here reads a file or the network.
 *
 * Names match without regard to case, accents or punctuation ("São Paulo", "sao paulo",
 * "SAO-PAULO"; "St. Louis" and "Saint Louis"). A city named in several countries or states is
 * the one in the row's country and state, else in the file's most common country, else the
 * most populous.
 */
import type { LocationPrecision } from './map-document.js';
import type { ImportPlan, PlannedAddress } from './map-import.js';

/** A populated place: its name, ISO 3166-1 alpha-2 country, GeoNames admin-1 code (a US state's abbreviation), people, and where. */
export interface GazetteerPlace {
  name: string;
  country: string;
  admin: string;
  population: number;
  lat: number;
  lng: number;
}

export interface LatLngPoint {
  lat: number;
  lng: number;
}

/** What the embedded geocoder knows, indexed for lookups by normalised name ({@link placeKey}). */
export interface Gazetteer {
  /** Places by normalised name, the most populous first. */
  places: Map<string, GazetteerPlace[]>;
  /** Postcodes by country (alpha-2), then by the code as {@link postcodeKey} writes it. */
  postcodes: Map<string, Map<string, LatLngPoint>>;
  /** Each country's middle (its largest land's centroid), by alpha-2 code. */
  countries: Map<string, LatLngPoint>;
  /** Country names (in many languages), alpha-2 and alpha-3 codes, normalised, to the alpha-2 code. */
  countryCodes: Map<string, string>;
  /** Per country, region (admin-1) names and abbreviations, normalised, to GeoNames' admin-1 code. */
  regions: Map<string, Map<string, string>>;
  /** Each region's middle (its places weighted by people), by `country:admin`. */
  regionCentres: Map<string, LatLngPoint>;
}

export interface Placement {
  lat: number;
  lng: number;
  precision: LocationPrecision;
}

export type GeocodeOutcome = { placed: Placement } | { unplaced: string };

/** A name as matched: no accents, lowercase letters and digits, single spaces, common abbreviations written out. */
export function placeKey(text: string): string {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[œ]/g, 'oe')
    .replace(/[ø]/g, 'o')
    .replace(/[ł]/g, 'l')
    .replace(/[đð]/g, 'd')
    .replace(/[ı]/g, 'i')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return plain
    .split(' ')
    .map((word) => ABBREVIATIONS[word] ?? word)
    .join(' ');
}

const ABBREVIATIONS: Record<string, string> = { st: 'saint', ste: 'sainte', mt: 'mount', ft: 'fort', pt: 'port' };

/** A postcode as looked up: uppercase letters and digits; a US ZIP+4 or a ZIP that lost its leading zeros (a spreadsheet's doing) as five digits; Canada's by its first three characters. */
export function postcodeKey(country: string, text: string): string {
  const code = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (country === 'US') {
    const digits = /^(\d{3,5})(\d{4})?$/.exec(code);
    return digits ? digits[1]!.padStart(5, '0') : code;
  }
  if (country === 'CA') return code.slice(0, 3);
  return code;
}

/** The key a query is known by, in a cache and between the server and the planner's worker. */
export function addressKey(address: PlannedAddress): string {
  return [address.street, address.city, address.state, address.postcode, address.country].map((part) => placeKey(part)).join('|');
}

const quote = (text: string) => `“${text.length > 60 ? `${text.slice(0, 57)}…` : text}”`;

/** The country a cell names (a name in one of many languages, an alpha-2 or alpha-3 code), or null. */
export function countryOf(gazetteer: Gazetteer, text: string): string | null {
  const key = placeKey(text);
  if (key === '') return null;
  const found = gazetteer.countryCodes.get(key) ?? COUNTRY_ALIASES[key];
  if (found) return found;
  // ISO's long forms: "Virgin Islands, British", "Bolivia, Plurinational State of", "Korea, Republic of".
  const comma = /^([^,]+),\s*(.+)$/.exec(text);
  if (!comma) return null;
  const [, head, tail] = comma as unknown as [string, string, string];
  return gazetteer.countryCodes.get(placeKey(`${tail} ${head}`).replace(/^the /, '')) ?? gazetteer.countryCodes.get(placeKey(head)) ?? null;
}

/** Names people write that the ISO lists give otherwise. */
const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US', 'u s a': 'US', 'u s': 'US', america: 'US', 'united states': 'US', uk: 'GB', 'u k': 'GB', england: 'GB', scotland: 'GB', wales: 'GB',
  'northern ireland': 'GB', 'great britain': 'GB', britain: 'GB', holland: 'NL', 'south korea': 'KR', 'north korea': 'KP', russia: 'RU', 'czech republic': 'CZ',
  uae: 'AE', 'ivory coast': 'CI', vietnam: 'VN', laos: 'LA', syria: 'SY', iran: 'IR', bolivia: 'BO', venezuela: 'VE', tanzania: 'TZ', taiwan: 'TW', moldova: 'MD',
};

/** A free-form address ("1 Main St, Springfield, IL 62701, USA") read into its parts, where the row gives only the one cell. */
export function splitAddress(gazetteer: Gazetteer, address: PlannedAddress): PlannedAddress {
  if (address.city || address.postcode || !address.street.includes(',')) return address;
  const parts = address.street.split(',').map((part) => part.trim()).filter(Boolean);
  const result: PlannedAddress = { ...address, street: parts[0] ?? '' };
  let rest = parts.slice(1);
  const last = rest[rest.length - 1];
  // Not a two-letter code: "Los Angeles, CA" ends with a state.
  if (!result.country && last && last.length > 2 && countryOf(gazetteer, last)) {
    result.country = last;
    rest = rest.slice(0, -1);
  }
  // "IL 62701", "75001 Paris", "SW1A 1AA": a postcode and what is written beside it.
  const kept: string[] = [];
  for (const part of rest) {
    const us = /^([A-Za-z]{2})\s+(\d{5}(?:-\d{4})?)$/.exec(part);
    const before = /^(\d{4,5})\s+(.+)$/.exec(part);
    const after = /^(.+?)\s+(\d{4,5})$/.exec(part);
    if (us) {
      result.state ||= us[1]!;
      result.postcode = us[2]!;
    } else if (/^\d{4,5}(-\d{4})?$/.test(part) || /^[A-Za-z]\d[A-Za-z]\s?\d[A-Za-z]\d$/.test(part)) result.postcode = part;
    else if (before) {
      result.postcode = before[1]!;
      kept.push(before[2]!);
    } else if (after) {
      result.postcode = after[2]!;
      kept.push(after[1]!);
    } else kept.push(part);
  }
  // The city is the last part left that names a place; a part after it names its state.
  for (let i = kept.length - 1; i >= 0; i--) {
    if (gazetteer.places.has(placeKey(kept[i]!))) {
      result.city = kept[i]!;
      if (i < kept.length - 1 && !result.state) result.state = kept[i + 1]!;
      break;
    }
  }
  if (!result.city && kept.length > 0) result.city = kept[kept.length - 1]!;
  return result;
}

/** The region (admin-1 code) a state cell names in `country`, or null. */
function regionOf(gazetteer: Gazetteer, country: string, text: string): string | null {
  const key = placeKey(text);
  if (key === '') return null;
  return gazetteer.regions.get(country)?.get(key) ?? null;
}

/** Where the embedded gazetteer puts an address, or why it cannot. `fallbackCountry`: the file's most common country, for rows that name none. */
export function geocodeEmbedded(gazetteer: Gazetteer, given: PlannedAddress, fallbackCountry: string | null): GeocodeOutcome {
  const address = splitAddress(gazetteer, given);
  const named = address.country ? countryOf(gazetteer, address.country) : null;
  const country = named ?? fallbackCountry;
  const region = country && address.state ? regionOf(gazetteer, country, address.state) : null;

  if (address.postcode && country) {
    const point = gazetteer.postcodes.get(country)?.get(postcodeKey(country, address.postcode));
    if (point) return { placed: { ...point, precision: 'postcode' } };
  }
  if (address.city) {
    const found = gazetteer.places.get(placeKey(address.city));
    if (found) {
      const inCountry = country ? found.filter((place) => place.country === country) : found;
      const inRegion = region && country ? inCountry.filter((place) => place.admin === region) : inCountry;
      // A country the row names is kept to; one only guessed from the file gives way to the city's own.
      const best = inRegion[0] ?? inCountry[0] ?? (named ? undefined : found[0]);
      if (best) return { placed: { lat: best.lat, lng: best.lng, precision: 'city' } };
    }
  }
  // A city too small for the gazetteer still lies in its region (a title tried as a city says nothing of it).
  if (region && country) {
    const centre = gazetteer.regionCentres.get(`${country}:${region}`);
    if (centre) return { placed: { ...centre, precision: 'region' } };
  }
  if (named && (!address.city || address.cityFromTitle) && !address.postcode) {
    const centre = gazetteer.countries.get(named);
    if (centre) return { placed: { ...centre, precision: 'country' } };
  }
  return { unplaced: unplacedReason(address.cityFromTitle ? { ...address, city: '' } : address, named, country) };
}

function unplacedReason(address: PlannedAddress, named: string | null, country: string | null): string {
  if (address.country && !named) return `the country ${quote(address.country)} is not one the geocoder knows (give its name in English or its ISO code, like FR or DEU)`;
  const where = country ? ` in ${country}` : '';
  if (address.city && address.postcode) return `neither the postcode ${quote(address.postcode)} nor the city ${quote(address.city)}${where} is one the built-in geocoder knows (places of 1,000 people or more, US ZIP codes)`;
  if (address.city) return `the city ${quote(address.city)}${where} is not one the built-in geocoder knows (places of 1,000 people or more): check its spelling, or add a postcode or coordinates`;
  if (address.postcode) return country ? `the postcode ${quote(address.postcode)}${where} is not one the built-in geocoder knows (it has US ZIP codes and Canada's first three characters): add the city` : `the postcode ${quote(address.postcode)} names no country: add a country column or the city`;
  if (address.state) return `the region ${quote(address.state)} is not one the geocoder knows${where}: add the city`;
  if (!address.street) return 'it has no street, city, postcode or country the geocoder knows';
  return 'the street address alone cannot be placed by the built-in geocoder: add the city and postcode, or set GEOCODER_URL to a geocoder that knows streets';
}

/** The country most rows name (by their country cell), else the country of most cities that are in one country only; null when none. */
export function commonCountry(gazetteer: Gazetteer, addresses: readonly PlannedAddress[]): string | null {
  const named = new Map<string, number>();
  for (const address of addresses) {
    const code = address.country ? countryOf(gazetteer, address.country) : null;
    if (code) named.set(code, (named.get(code) ?? 0) + 1);
  }
  if (named.size > 0) return [...named].sort((a, b) => b[1] - a[1])[0]![0];
  const byCity = new Map<string, number>();
  for (const address of addresses.slice(0, 5_000)) {
    const found = address.city ? gazetteer.places.get(placeKey(address.city)) : undefined;
    const countries = new Set(found?.map((place) => place.country));
    if (countries.size === 1) {
      const code = [...countries][0]!;
      byCity.set(code, (byCity.get(code) ?? 0) + 1);
    }
    // A US state's name or abbreviation says the country too.
    if (address.state && gazetteer.regions.get('US')?.has(placeKey(address.state))) byCity.set('US', (byCity.get('US') ?? 0) + 1);
  }
  return byCity.size > 0 ? [...byCity].sort((a, b) => b[1] - a[1])[0]![0] : null;
}

/** The geocoding of an import, as its preview shows it. */
export interface GeocodingSummary {
  /** Rows placed, by precision. */
  placed: Partial<Record<LocationPrecision, number>>;
  /** Rows with an address that could not be placed. */
  unplaced: number;
  /** Whether a geocoder of streets (GEOCODER_URL) was asked. */
  remote: boolean;
}

/** A remote geocoder's answers, by {@link addressKey}: a placement, or null for an address it did not find (or did not answer). */
export type RemoteAnswers = ReadonlyMap<string, Placement | null>;

/**
 * The plan with its rows that have an address and no position placed: a remote geocoder's
 * answer first (streets), else the embedded gazetteer (postcodes, cities, regions, countries).
 * Each row placed gets its precision; each left unplaced a problem saying why. Answers are
 * shared between rows of the same address. Changes `plan` in place.
 */
export function geocodePlan(plan: ImportPlan, loadGazetteer: () => Gazetteer | null, remote: RemoteAnswers = new Map()): GeocodingSummary | null {
  const rows = plan.locations.filter((location) => location.position === null && location.address);
  if (rows.length === 0) return null;
  const gazetteer = loadGazetteer();
  const summary: GeocodingSummary = { placed: {}, unplaced: 0, remote: remote.size > 0 };
  const fallback = gazetteer ? commonCountry(gazetteer, rows.map((row) => row.address!)) : null;
  const answers = new Map<string, GeocodeOutcome>();
  for (const row of rows) {
    const address = row.address!;
    const key = addressKey(address);
    let outcome = answers.get(key);
    if (!outcome) {
      const far = remote.get(key);
      outcome = far ? { placed: far } : gazetteer ? geocodeEmbedded(gazetteer, address, fallback) : { unplaced: 'no geocoder is available' };
      answers.set(key, outcome);
    }
    if ('placed' in outcome) {
      row.position = { kind: 'geo', lat: outcome.placed.lat, lng: outcome.placed.lng };
      row.precision = outcome.placed.precision;
      summary.placed[outcome.placed.precision] = (summary.placed[outcome.placed.precision] ?? 0) + 1;
    } else {
      summary.unplaced++;
      plan.problems.push({ row: row.row, field: 'address', message: `Row ${row.row} was not placed: ${outcome.unplaced}. It is imported without a position.` });
    }
  }
  plan.geocoding = summary;
  return summary;
}

/** The distinct addresses of a plan's rows that a geocoder of streets could place (those with a street), for GEOCODER_URL. */
export function streetAddresses(plan: ImportPlan): PlannedAddress[] {
  const seen = new Map<string, PlannedAddress>();
  for (const location of plan.locations) {
    const address = location.address;
    if (location.position !== null || !address || address.street.trim() === '') continue;
    const key = addressKey(address);
    if (!seen.has(key)) seen.set(key, address);
  }
  return [...seen.values()];
}
