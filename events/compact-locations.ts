/**
 * A map's locations without the fields that hold their default values, and back: how a
 * published map's page carries its locations (events/viewer-page-data.ts). A location in a
 * map document has every field (the schema fills the defaults), so a store chain's 25,000
 * stores, most of them with no phone, picture, label or description, spent about 180 of each
 * location's 300 bytes of JSON on `"phone":""`, `"image":null` and the like: the page was
 * 7.9 MB, read (and parsed) before the viewer could hydrate. Compact, it is about a third.
 *
 * Pure and without zod: the defaults are written here, and test/events/compact-locations.test.ts
 * checks them against the schema's (events/map-document.ts), which stays their source.
 */
import type { Location } from './map-document.js';

/** Every defaulted field of a location and its default, as the schema fills them. */
export const LOCATION_DEFAULTS = {
  about: '',
  description: '',
  image: null,
  thumbnail: null,
  link: null,
  phone: '',
  hours: '',
  position: null,
  element: null,
  zoom: null,
  marker: 'pin',
  color: null,
  label: '',
  groups: [],
  hidden: false,
  entrances: [],
} as const satisfies Omit<Location, 'id' | 'title' | 'layer'>;

type Defaults = Readonly<Record<string, unknown>>;

function isDefault(defaults: Defaults, key: string, value: unknown): boolean {
  if (!Object.prototype.hasOwnProperty.call(defaults, key)) return false;
  const fallback = defaults[key];
  return Array.isArray(fallback) ? fallback.length === 0 && Array.isArray(value) && value.length === 0 : value === fallback;
}

/**
 * The defaults a page's locations are written against: the schema's, and the layer most of
 * them are on (a store chain's 25,000 stores are all on one: 17 bytes each). A location on
 * another layer keeps its own.
 */
export function pageLocationDefaults(document: unknown): Defaults {
  const locations = document && typeof document === 'object' ? (document as { locations?: unknown }).locations : undefined;
  if (!Array.isArray(locations)) return LOCATION_DEFAULTS;
  const counts = new Map<string, number>();
  let most: string | null = null;
  let mostCount = 0;
  for (const location of locations) {
    const layer = location && typeof location === 'object' ? (location as { layer?: unknown }).layer : undefined;
    if (typeof layer !== 'string') continue;
    const count = (counts.get(layer) ?? 0) + 1;
    counts.set(layer, count);
    if (count > mostCount) [most, mostCount] = [layer, count];
  }
  return most === null ? LOCATION_DEFAULTS : { ...LOCATION_DEFAULTS, layer: most };
}

/**
 * The location without its default-valued fields (any other field, known or not, kept as it is).
 * Anything that is not an object is given back unchanged.
 */
export function compactLocation(location: unknown, defaults: Defaults = LOCATION_DEFAULTS): unknown {
  if (!location || typeof location !== 'object' || Array.isArray(location)) return location;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(location)) {
    if (!isDefault(defaults, key, value)) out[key] = value;
  }
  return out;
}

/** A map document (as the read model holds it: checked loosely) with its locations compact or whole. */
function withLocations(document: unknown, each: (location: unknown) => unknown): unknown {
  if (!document || typeof document !== 'object') return document;
  const { locations } = document as { locations?: unknown };
  return Array.isArray(locations) ? { ...document, locations: locations.map(each) } : document;
}

export const compactDocument = (document: unknown, defaults: Defaults = LOCATION_DEFAULTS): unknown => withLocations(document, (location) => compactLocation(location, defaults));

/**
 * The document made whole again with the defaults given (the page's data block carries them,
 * events/viewer-page-data.ts, so the viewer's first load holds no table of its own). The
 * defaults' arrays are shared by the locations that take them: the viewer only reads them.
 */
export function expandDocument(document: unknown, defaults: Defaults): unknown {
  return withLocations(document, (location) => (location && typeof location === 'object' ? { ...defaults, ...location } : location));
}
