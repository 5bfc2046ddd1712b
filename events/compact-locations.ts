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

function isDefault(key: keyof typeof LOCATION_DEFAULTS, value: unknown): boolean {
  const fallback: unknown = LOCATION_DEFAULTS[key];
  return Array.isArray(fallback) ? Array.isArray(value) && value.length === 0 : value === fallback;
}

/**
 * The location without its default-valued fields (any other field, known or not, kept as it is).
 * Anything that is not an object is given back unchanged.
 */
export function compactLocation(location: unknown): unknown {
  if (!location || typeof location !== 'object' || Array.isArray(location)) return location;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(location)) {
    if (key in LOCATION_DEFAULTS && isDefault(key as keyof typeof LOCATION_DEFAULTS, value)) continue;
    out[key] = value;
  }
  return out;
}

/** A map document (as the read model holds it: checked loosely) with its locations compact or whole. */
function withLocations(document: unknown, each: (location: unknown) => unknown): unknown {
  if (!document || typeof document !== 'object') return document;
  const { locations } = document as { locations?: unknown };
  return Array.isArray(locations) ? { ...document, locations: locations.map(each) } : document;
}

export const compactDocument = (document: unknown): unknown => withLocations(document, compactLocation);

/**
 * The document made whole again with the defaults given (the page's data block carries them,
 * events/viewer-page-data.ts, so the viewer's first load holds no table of its own). The
 * defaults' arrays are shared by the locations that take them: the viewer only reads them.
 */
export function expandDocument(document: unknown, defaults: Readonly<Record<string, unknown>>): unknown {
  return withLocations(document, (location) => (location && typeof location === 'object' ? { ...defaults, ...location } : location));
}
