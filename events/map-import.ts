/**
 * Imports (POST /api/maps/{id}/import): what a file's parser finds in it (an {@link ImportPlan},
 * in the file's own terms: its floor keys, group names, fractional or geographic positions),
 * and the preview the endpoint answers. The planner (events/import-planner.ts) turns a plan
 * into edits against the map as it is: ids made safe and unique, positions on floors,
 * locations linked to regions, geographic floors made where points need one.
 *
 * Pure: the server's parsers produce plans, the planner and the preview are shared with the
 * client (which shows the preview and never parses files itself).
 */
import { z } from 'zod';
import { LocationPrecision, type GeoCalibration, type Location } from './map-document.js';
import { ImportSource } from './map-edits.js';

export const IMPORT_FORMATS = ImportSource.shape.format.options;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Formats in words, for previews and refusals ("The file was read as a Mapplic map, but …"). */
export const IMPORT_FORMAT_NAMES: Record<ImportFormat, string> = {
  mapfold: 'a Mapfold map (JSON)',
  mapplic: 'a Mapplic map (JSON)',
  'mapplic-csv': 'a Mapplic locations CSV',
  csv: 'a table of locations (CSV)',
  geojson: 'GeoJSON',
  kml: 'KML placemarks',
  'store-locator': 'a store-locator list (JSON)',
  svg: 'an SVG drawing',
};

/**
 * The fields a table's columns can fill: a location's own, plus where it is (lat/lng, x/y, the
 * floor by name), the parts of a postal address (`address` the street or the whole address,
 * then line 2, city, state, postcode, country: joined in that order into the location's short
 * text, or after its description when the file has a short text of its own) and an email
 * address (a mail link under the description): a location has no fields of their own for them.
 */
export const IMPORT_FIELDS = [
  'id', 'title', 'about', 'description', 'address', 'lat', 'lng', 'x', 'y', 'floor', 'groups', 'element',
  'phone', 'hours', 'link', 'image', 'thumbnail', 'color', 'marker', 'label', 'zoom', 'hidden',
  'address2', 'city', 'state', 'postcode', 'country', 'email',
  /** How precisely a row's coordinates are known (a Mapfold export's `precision` column): kept with them. */
  'precision',
] as const;
/** The parts of a postal address, in the order they are written. */
export const ADDRESS_FIELDS = ['address', 'address2', 'city', 'state', 'postcode', 'country'] as const satisfies readonly ImportFieldName[];
type ImportFieldName = (typeof IMPORT_FIELDS)[number];
export const ImportField = z.enum(IMPORT_FIELDS);
export type ImportField = z.infer<typeof ImportField>;

/** Which column fills which field (`{title: "store_name", lat: "Latitude"}`); a field left out is not filled. */
export const ColumnMapping = z.partialRecord(ImportField, z.string().min(1).max(200));
export type ColumnMapping = z.infer<typeof ColumnMapping>;

/**
 * What the user may change of a guessed import (`?mapping=`, JSON): the columns of a table,
 * and the regions of a drawing left out of the locations made from it.
 */
export const ImportOptions = z.object({
  columns: ColumnMapping.optional(),
  /** Region ids (SVG element ids) not to make locations of. */
  skipRegions: z.array(z.string().max(200)).max(100_000).optional(),
  /** Region ids to make locations of although they look auto-generated (`path3677`). */
  includeRegions: z.array(z.string().max(200)).max(100_000).optional(),
  /**
   * The column whose values are the locations' ids (a data source's key column, issue 30 item
   * 4), whatever the mapping (given, remembered or guessed) says of the other fields.
   */
  key: z.string().max(200).optional(),
});
export type ImportOptions = z.infer<typeof ImportOptions>;

/** A position as the file gives it; the planner puts it on a floor. */
export type SourcePosition =
  | { kind: 'pixel'; x: number; y: number }
  /** 0 to 1 of the floor's width and height (Mapplic's convention). */
  | { kind: 'fraction'; x: number; y: number }
  | { kind: 'geo'; lat: number; lng: number };

/** A floor the file names. */
export interface PlannedFloor {
  /** The file's name for it (a Mapplic level id, a CSV "floor" value); matched to an existing floor by id or name first. */
  key: string;
  name: string;
  /**
   * Its drawing: a file uploaded alongside (by name, stored on apply), one stored already,
   * a drawing the server made (a GeoJSON's shapes, stored on apply), or none.
   */
  drawing:
    | { kind: 'attachment'; name: string }
    | { kind: 'stored'; url: string; type: 'svg' | 'image'; width: number; height: number }
    | { kind: 'generated'; svg: string; width: number; height: number }
    | null;
  /** The floor's size when there is no drawing yet (Mapplic's mapwidth × mapheight). */
  size?: { width: number; height: number };
  geo?: GeoCalibration;
  /** On the street basemap (then `geo` is Web Mercator bounds): the floor made for coordinates no floor of the map places. */
  basemap?: boolean;
}

export interface PlannedGroup {
  /** The file's id or name for it; locations name groups by either. */
  key: string;
  name: string;
  color: string | null;
  legend?: boolean;
}

/** Fields a file may set on a location, beyond where it is and what it belongs to. */
export type PlannedFields = Partial<Pick<Location, 'title' | 'about' | 'description' | 'image' | 'thumbnail' | 'link' | 'phone' | 'hours' | 'zoom' | 'marker' | 'color' | 'label' | 'hidden'>>;

/** A row's postal address in its parts, as the file writes them ('' where it gives none): what geocoding places a row by. */
export interface PlannedAddress {
  /** The street address (with its second line), or the whole address in one cell. */
  street: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  /** The city is the row's title, tried as a place's name (a list of cities by name and country): not one, the row is placed by its region or country. */
  cityFromTitle?: boolean;
}

export interface PlannedLocation {
  /** Where it came from: the row (1 is a table's first data row) or the feature's number, for problems. */
  row: number;
  /** The file's id for it, if any (kept when safe, else made from the title). */
  id: string | null;
  fields: PlannedFields;
  /** The floor's key; null: the map's default floor, or a geographic floor for a geographic position. */
  floor: string | null;
  position: SourcePosition | null;
  /** Group keys or names. */
  groups: string[];
  /** The SVG element it stands for, if the file says; otherwise matched by id or title to a region of its floor. */
  element: string | null;
  /** The region the file drew for it (GeoJSON polygons): its path id on the generated drawing. */
  drawnRegion?: string;
  /** Its postal address, when the file gives one and no position: geocoding places it by that (events/geocoding.ts). */
  address?: PlannedAddress;
  /** How precisely a geocoded position is known. */
  precision?: LocationPrecision;
}

/** Something the user should know: a row refused, a field not read, a file to upload. */
export const ImportProblem = z.object({
  /** The row or feature (1-based), or null for the file as a whole. */
  row: z.number().int().nullable(),
  /** The field or column concerned, or null. */
  field: z.string().nullable(),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof ImportProblem>;

export interface ImportPlan {
  format: ImportFormat;
  floors: PlannedFloor[];
  groups: PlannedGroup[];
  locations: PlannedLocation[];
  columns: { used: string[]; ignored: string[] };
  /** The column mapping used (tables), or null. */
  mapping: ColumnMapping | null;
  problems: ImportProblem[];
  /**
   * Items of the file the parser made no location of (a feature without geometry, a line),
   * each named in a problem: counted with the rows the planner leaves out, so a preview's
   * locations and skipped add up to what the file holds.
   */
  leftOut?: number;
  /** A whole Mapfold document (its own JSON export): applied in place of the map. */
  replaces?: unknown;
  /** The floor an SVG's regions belong to when they are made into locations of an existing floor. */
  targetFloor?: string;
  /** A drawing's regions offered as locations (format `svg`), for the preview's list; `linked` is worked out by the planner. */
  regions?: Array<{ id: string; title: string; selected: boolean; linked?: boolean; fromText?: boolean }>;
  /** How rows with an address and no coordinates were placed (events/geocoding.ts), when there were any. */
  geocoding?: z.infer<typeof PreviewGeocoding>;
}

/** Rows placed by their address: how many at each precision, how many could not be (each with a problem), and whether a street geocoder (GEOCODER_URL) was asked. */
export const PreviewGeocoding = z.object({
  placed: z.partialRecord(LocationPrecision, z.number().int()),
  unplaced: z.number().int(),
  remote: z.boolean(),
});

/** One row of a preview's sample: what a location will be. */
export const PreviewRow = z.object({
  row: z.number().int(),
  id: z.string(),
  title: z.string(),
  floor: z.string(),
  groups: z.array(z.string()),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  x: z.number().nullable(),
  y: z.number().nullable(),
  region: z.string().nullable(),
  /** Whether it changes an existing location (same id) rather than adding one. */
  update: z.boolean(),
  /** Why the row is left out (the same words as its problem), or null: it is imported. */
  skipped: z.string().nullable().default(null),
});

/** A floor the import's locations land on (or that it makes), with how many of them. */
export const PreviewFloor = z.object({
  id: z.string(),
  name: z.string(),
  /** Made by the import. */
  new: z.boolean(),
  /** New locations on it. */
  locations: z.number().int(),
  /** Existing locations the import changes that are on it afterwards. */
  updated: z.number().int(),
});

/** A drawing's region offered as a location (format `svg`); `fromText`: the title is the text written inside the shape, the drawing naming it only by a made-up id. */
export const PreviewRegion = z.object({ id: z.string(), title: z.string(), selected: z.boolean(), linked: z.boolean(), fromText: z.boolean().optional() });

/** What the endpoint answers, for a preview and for an apply alike. */
export const ImportPreview = z.object({
  format: z.enum(IMPORT_FORMATS),
  counts: z.object({
    layers: z.number().int(),
    locations: z.number().int(),
    groups: z.number().int(),
    regionsLinked: z.number().int(),
    /** Existing locations the import changes (same id). */
    updated: z.number().int(),
    /** Rows or features left out (each has a problem). */
    skipped: z.number().int(),
  }),
  columns: z.object({ used: z.array(z.string()), ignored: z.array(z.string()) }),
  /** The column mapping used (tables), or null. */
  mapping: ColumnMapping.nullable(),
  /** Every column of a table, for the mapping's choices. */
  availableColumns: z.array(z.string()),
  problems: z.array(ImportProblem),
  /** How many problems there were in all (the list stops at 1,000). */
  problemCount: z.number().int(),
  /** The first rows as they will be, those left out included (with why). */
  sample: z.array(PreviewRow),
  /** Where the locations land, floor by floor (every row, not only the sample's), in the map's order. */
  floors: z.array(PreviewFloor).default([]),
  /** The empty floor a new map started with, which the file's floors take the place of (its name), or null. */
  removedFloor: z.string().nullable().default(null),
  /** An SVG's regions (format `svg`), every one, to untick. */
  regions: z.array(PreviewRegion),
  /** Whether the import replaces the whole map (a Mapfold JSON) rather than adding to it. */
  replaces: z.boolean(),
  /** Rows placed by their address (geocoding); absent: no row needed it. */
  geocoding: PreviewGeocoding.optional(),
  /** Set on an apply: the map's revision after it. */
  revision: z.string().nullable(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;
