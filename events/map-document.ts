/**
 * The map document (the spec's "map data"): settings, layers (floors), locations, groups,
 * region styles and the path network (wayfinding). Versioned: documents of an older version are
 * migrated on parse, so events recorded long ago still read as today's model.
 */
import { VIEWER_LANGUAGES } from './locales.js';
import { z } from 'zod';
import { ElementId } from './element-id.js';
import { checkPathNetwork, emptyPathNetwork, missingEntrance, PathNetwork } from './path-network.js';

/** Version 3 added the path network and locations' entrances. */
export const MAP_DOCUMENT_VERSION = 3;

/** Ids inside a document: one rule for every kind (events/element-id.ts). */
export { ElementId };
export const Color = z.string({ error: 'must be text' }).regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #4f46e5');

/** Links and images: web addresses or the product's own files, never `javascript:` or `data:`. */
export const SafeUrl = z
  .string({ error: 'must be text' })
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => /^https?:\/\//i.test(value) || /^\/(files|assets)\//.test(value), 'must be an http(s) address or an uploaded file');

/**
 * The product's own files: `/files/{id}`, an upload the server inspected (and sanitised, for
 * an SVG) and stored, or a built-in map's SVG; the id is the file store's (server/files/
 * file-store.ts, 128 bits in base64url).
 */
const STORED_FILE_URL = /^\/files\/[A-Za-z0-9_-]{22}$/;
/** Floor plans shipped with the client (client/public/assets/demo, the demo mall's floors). */
const BUILT_IN_FLOOR_URL = /^\/assets\/demo\/[a-z0-9-]{1,64}\.svg$/;

/** Whether a floor's drawing at `url` is one of the product's own files (never another site's). */
export function isOwnLayerFileUrl(url: string): boolean {
  return STORED_FILE_URL.test(url) || BUILT_IN_FLOOR_URL.test(url);
}

/**
 * A drawing on another site: its `@import`s and `<image>`s would load in every viewer's
 * browser, past the server's sanitiser. Floors take only the product's own files; an external
 * drawing is added through `POST /api/files/from-url`, which fetches it once, checks it like an
 * upload and stores a copy.
 */
export const FOREIGN_LAYER_FILE =
  'must be a file stored by this site (/files/{id}): upload the drawing, or add it from its address with POST /api/files/from-url';

const layerFileFields = {
  kind: z.enum(['svg', 'image']),
  width: z.number().positive().max(100_000),
  height: z.number().positive().max(100_000),
};

/** A floor's drawing as anyone may set it now (commands, edits, imports): the product's own files only. */
export const LayerFile = z.object({
  kind: layerFileFields.kind,
  /** Path the file is served at (`/files/{id}`). */
  url: z.string({ error: 'must be text' }).trim().max(2000, 'must be at most 2000 characters').refine(isOwnLayerFileUrl, FOREIGN_LAYER_FILE),
  width: layerFileFields.width,
  height: layerFileFields.height,
});
export type LayerFile = z.infer<typeof LayerFile>;

/**
 * A floor's drawing as events and read models recorded it. Before floors had to be the
 * product's own files, any http(s) address was accepted: such a drawing reads as no drawing
 * (null), the floor and its locations kept, so its address reaches no viewer through any
 * reader (read models, history, live data, the public map). Paths on this site the old schema
 * took stay as they were.
 */
export const RecordedLayerFile = z.union([
  LayerFile,
  z
    .object({ ...layerFileFields, url: SafeUrl })
    .transform((file): LayerFile | null => (isForeignLayerFileUrl(file.url) ? null : file)),
]);

/**
 * How latitude and longitude fall on a floor (events/geo-calibration.ts projects with it):
 * - `bounds`: the floor's drawing spans these edges, linearly (`equirectangular`, Mapplic's
 *   topLat/leftLng/bottomLat/rightLng) or in Web Mercator (tiles, screenshots of web maps, a
 *   drawing calibrated by pinning two known points);
 * - `d3`: the drawing was made with this d3-geo projection at this scale and translation, in
 *   the floor's own units (the built-in world map's Natural Earth, the US map's Albers USA, a
 *   GeoJSON import's drawing).
 */
export const GeoCalibration = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('bounds'),
    projection: z.enum(['equirectangular', 'mercator']),
    north: z.number().min(-90).max(90),
    south: z.number().min(-90).max(90),
    west: z.number().min(-540).max(540),
    east: z.number().min(-540).max(540),
  }).refine((bounds) => bounds.north !== bounds.south && bounds.west !== bounds.east, { message: 'must span some latitude and longitude' }),
  z.object({
    kind: z.literal('d3'),
    projection: z.enum(['natural-earth-1', 'albers-usa', 'mercator', 'equirectangular']),
    scale: z.number().positive().finite(),
    translate: z.tuple([z.number().finite(), z.number().finite()]),
  }),
]);
export type GeoCalibration = z.infer<typeof GeoCalibration>;

/** Why a basemap floor's calibration is refused, after its field's name. */
export const BASEMAP_NEEDS_MERCATOR = 'a floor on a street basemap must be calibrated by its Web Mercator bounds';

/** Whether a floor with this calibration can lie on a basemap (its units linear in Web Mercator). */
export function isBasemapCalibration(geo: GeoCalibration | null | undefined): boolean {
  return geo?.kind === 'bounds' && geo.projection === 'mercator';
}

/** A layer's fields but its drawing, which the two schemas below take differently. */
const layerFields = {
  id: ElementId,
  name: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  /** Where latitude/longitude fall on the floor; absent on a floor plan nobody calibrated. */
  geo: GeoCalibration.optional(),
  /**
   * A street basemap under the floor (issue 29 item 1): the viewer draws the floor on a MapLibre
   * map of the basemap's tiles, its drawing (if any: imported regions) and locations placed
   * through `geo`, which must then be Mercator bounds (Web Mercator, as the tiles are: the
   * floor's units map linearly onto the basemap). Absent: a floor drawn on its own.
   * The deciders refuse a basemap on any other calibration; a reader given one anyway (an
   * event of a later version) shows the floor as a drawn one.
   */
  basemap: z.boolean().optional(),
};

/** A layer as anyone may set it now (its drawing one of the product's own files). */
export const Layer = z
  .object({ ...layerFields, file: LayerFile.nullable().default(null) })
  .refine((layer) => !layer.basemap || isBasemapCalibration(layer.geo), { message: BASEMAP_NEEDS_MERCATOR, path: ['geo'] });
export type Layer = z.infer<typeof Layer>;

/** A layer as recorded (a foreign drawing reads as none, see {@link RecordedLayerFile}). */
export const RecordedLayer = z.object({ ...layerFields, file: RecordedLayerFile.nullable().default(null) });

/** Whether a recorded drawing is on another site (anything but a path on this one). */
function isForeignLayerFileUrl(url: unknown): boolean {
  return typeof url !== 'string' || !/^\/(files|assets)\//.test(url);
}

/**
 * The document (as stored, not parsed) with foreign drawings taken off its floors, as
 * {@link RecordedLayerFile} reads them: for rows written before such drawings were refused,
 * handed out without a full parse. Anything but a document's shape is answered as it is.
 */
export function withoutForeignLayerFiles<T>(document: T): T {
  if (typeof document !== 'object' || document === null || !Array.isArray((document as { layers?: unknown }).layers)) return document;
  const layers = (document as unknown as { layers: unknown[] }).layers;
  const foreign = (layer: unknown) => {
    const file = typeof layer === 'object' && layer !== null ? (layer as { file?: unknown }).file : null;
    return typeof file === 'object' && file !== null && isForeignLayerFileUrl((file as { url?: unknown }).url);
  };
  if (!layers.some(foreign)) return document;
  return { ...document, layers: layers.map((layer) => (foreign(layer) ? { ...(layer as object), file: null } : layer)) } as T;
}

export const Point = z.object({ x: z.number().finite(), y: z.number().finite() });
export type Point = z.infer<typeof Point>;

export const MARKER_TYPES = ['circle', 'dot', 'pin', 'label', 'thumbnail', 'hidden'] as const;

/**
 * How precisely a location's position is known, when it was found from an address (geocoding
 * on import, events/geocoding.ts): at its street address, its postcode's middle, its city's,
 * its region's or its country's; `exact` once someone places it by hand. None: placed by hand
 * or from coordinates the file gave.
 */
export const LOCATION_PRECISIONS = ['exact', 'street', 'postcode', 'city', 'region', 'country'] as const;
export const LocationPrecision = z.enum(LOCATION_PRECISIONS);
export type LocationPrecision = z.infer<typeof LocationPrecision>;

/** A location's fields without their defaults: the base of the full schema and of updates. */
export const locationFields = {
  title: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  /** Short text shown in lists and tooltips. */
  about: z.string({ error: 'must be text' }).max(500, 'must be at most 500 characters'),
  /** Rich text (HTML), sanitised before it is shown. */
  description: z.string({ error: 'must be text' }).max(20_000, 'must be at most 20000 characters'),
  image: SafeUrl.nullable(),
  thumbnail: SafeUrl.nullable(),
  link: SafeUrl.nullable(),
  phone: z.string({ error: 'must be text' }).max(40, 'must be at most 40 characters'),
  hours: z.string({ error: 'must be text' }).max(500, 'must be at most 500 characters'),
  layer: ElementId,
  /** Where the marker sits on its layer, in the layer's coordinates. */
  position: Point.nullable(),
  /** The id of the SVG element (a region) the location stands for. */
  element: z.string().max(200).regex(/^[A-Za-z_][\w.:-]*$/, 'must be an SVG element id').nullable(),
  zoom: z.number().min(0.1).max(64).nullable(),
  marker: z.enum(MARKER_TYPES),
  color: Color.nullable(),
  label: z.string({ error: 'must be text' }).max(60, 'must be at most 60 characters'),
  groups: z.array(ElementId).max(50),
  hidden: z.boolean(),
  /** The path points a visitor enters by (wayfinding); none: the point nearest the location. */
  entrances: z.array(ElementId).max(20),
  /** How precisely the position is known (geocoded from an address); absent (or null) when placed by hand or by given coordinates, and in events before it existed. */
  precision: LocationPrecision.nullable().optional(),
};

export const Location = z.object({
  id: ElementId,
  ...locationFields,
  about: locationFields.about.default(''),
  description: locationFields.description.default(''),
  image: locationFields.image.default(null),
  thumbnail: locationFields.thumbnail.default(null),
  link: locationFields.link.default(null),
  phone: locationFields.phone.default(''),
  hours: locationFields.hours.default(''),
  position: locationFields.position.default(null),
  element: locationFields.element.default(null),
  zoom: locationFields.zoom.default(null),
  marker: locationFields.marker.default('pin'),
  color: locationFields.color.default(null),
  label: locationFields.label.default(''),
  groups: locationFields.groups.default([]),
  hidden: locationFields.hidden.default(false),
  entrances: locationFields.entrances.default([]),
});
export type Location = z.infer<typeof Location>;

export const groupFields = {
  name: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  color: Color,
  /** Shown in the viewer's legend. */
  legend: z.boolean(),
};

export const Group = z.object({ id: ElementId, ...groupFields, legend: groupFields.legend.default(true) });
export type Group = z.infer<typeof Group>;

export const RegionStyles = z.object({ base: Color, hover: Color, active: Color });

export const Features = z.object({
  sidebar: z.boolean(),
  search: z.boolean(),
  filters: z.boolean(),
  minimap: z.boolean(),
  zoomButtons: z.boolean(),
  fullscreen: z.boolean(),
  deepLinks: z.boolean(),
});

/**
 * The venue's postal address (what IMDF's Address feature holds, events/imdf-export.ts):
 * street and number, town or city, ISO 3166-2 subdivision (`US-CA`), ISO 3166-1 country
 * (`US`), postal code. Absent on most maps; an IMDF export needs it.
 */
export const VenueAddress = z.object({
  address: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  locality: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  province: z.string({ error: 'must be text' }).regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'must be an ISO 3166-2 code like US-CA').nullable().default(null),
  country: z.string({ error: 'must be text' }).regex(/^[A-Z]{2}$/, 'must be a two-letter country code like US'),
  postalCode: z.string({ error: 'must be text' }).trim().max(20, 'must be at most 20 characters').nullable().default(null),
});
export type VenueAddress = z.infer<typeof VenueAddress>;

export const Settings = z
  .object({
    size: z.object({ width: z.number().positive().max(100_000), height: z.number().positive().max(100_000) }),
    minZoom: z.number().min(0.1).max(64),
    maxZoom: z.number().min(0.1).max(64),
    initialView: z.object({ x: z.number().finite(), y: z.number().finite(), zoom: z.number().min(0.1).max(64) }).nullable(),
    theme: z.object({ mode: z.enum(['light', 'dark']), accent: Color, background: Color }),
    features: Features,
    defaultLayer: ElementId.nullable(),
    /**
     * The viewer's language (its controls' words, not the map's own text): a catalogue's tag,
     * or `auto` for each visitor's browser (events/locales.ts). Absent before issue 19: `auto`.
     */
    language: z.enum(VIEWER_LANGUAGES).default('auto'),
    /** The venue's address, for an IMDF export (issue 28); absent until someone gives it. */
    address: VenueAddress.optional(),
  })
  .refine((settings) => settings.minZoom <= settings.maxZoom, { message: 'Minimum zoom can be at most the maximum zoom.', path: ['minZoom'] });
export type Settings = z.infer<typeof Settings>;

/** Locations a map holds: a store locator's whole CSV (imports take at least 100,000 rows). */
export const MAX_LOCATIONS = 100_000;
/** Floors a map holds. */
export const MAX_LAYERS = 100;
/** Groups a map holds. */
export const MAX_GROUPS = 200;

/** The version 3 document, its layers taken as `layer` says (as set now, or as recorded). */
function documentV3<L extends typeof Layer | typeof RecordedLayer>(layer: L) {
  return z.object({
    version: z.literal(3),
    settings: Settings,
    layers: z.array(layer).max(MAX_LAYERS, `at most ${MAX_LAYERS} layers`),
    locations: z.array(Location).max(MAX_LOCATIONS, `at most ${MAX_LOCATIONS} locations`),
    groups: z.array(Group).max(MAX_GROUPS, `at most ${MAX_GROUPS} groups`),
    styles: z.object({ regions: RegionStyles }),
    paths: PathNetwork,
  });
}
export type MapDocument = z.infer<ReturnType<typeof documentV3<typeof Layer>>>;

export function defaultSettings(): Settings {
  return {
    size: { width: 1200, height: 800 },
    minZoom: 1,
    maxZoom: 8,
    initialView: null,
    theme: { mode: 'light', accent: '#4f46e5', background: '#f8fafc' },
    features: { sidebar: true, search: true, filters: true, minimap: false, zoomButtons: true, fullscreen: true, deepLinks: true },
    defaultLayer: null,
    language: 'auto',
  };
}

export function defaultRegionStyles(): z.infer<typeof RegionStyles> {
  return { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' };
}

/** A blank map: one empty floor. */
export function emptyMapDocument(): MapDocument {
  return {
    version: 3,
    settings: { ...defaultSettings(), defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: null }],
    locations: [],
    groups: [],
    styles: { regions: defaultRegionStyles() },
    paths: emptyPathNetwork(),
  };
}

/**
 * Version 1 (the first walking skeleton) had only `layers: [{id, name}]` and
 * `locations: [{id, title, layer?}]`, with anything else passed through untouched.
 */
const MapDocumentV1 = z.looseObject({
  version: z.literal(1).optional(),
  layers: z.array(z.looseObject({ id: z.string(), name: z.string().optional() })).default([]),
  locations: z.array(z.looseObject({ id: z.string(), title: z.string().optional(), layer: z.string().optional() })).default([]),
});

/** Version 2 had no path network: it gets an empty one (locations' entrances default to none). */
function migrateV2(v2: object): unknown {
  return { ...v2, version: 3, paths: emptyPathNetwork() };
}

function migrateV1(v1: z.infer<typeof MapDocumentV1>): unknown {
  const layers = v1.layers.length > 0 ? v1.layers.map((l, i) => ({ id: l.id, name: l.name?.trim() || `Layer ${i + 1}` })) : emptyMapDocument().layers;
  const firstLayer = layers[0]!.id;
  return {
    version: 3,
    settings: { ...defaultSettings(), defaultLayer: firstLayer },
    layers,
    locations: v1.locations.map((l) => ({ id: l.id, title: l.title?.trim() || l.id, layer: l.layer ?? firstLayer })),
    groups: [],
    styles: { regions: defaultRegionStyles() },
    paths: emptyPathNetwork(),
  };
}

/**
 * A document schema: the current version as it is, older versions migrated first, with
 * cross-references checked: each location's layer and groups exist, ids are unique.
 */
function documentSchema<L extends typeof Layer | typeof RecordedLayer>(layer: L) {
  return z
    .unknown()
    .transform((input, context) => {
      if (typeof input === 'object' && input !== null && (input as { version?: unknown }).version === MAP_DOCUMENT_VERSION) return input;
      if (typeof input === 'object' && input !== null && (input as { version?: unknown }).version === 2) return migrateV2(input);
      const v1 = MapDocumentV1.safeParse(input);
      if (!v1.success) {
        for (const issue of v1.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
        return z.NEVER;
      }
      return migrateV1(v1.data);
    })
    .pipe(documentV3(layer))
    .superRefine((document, context) => {
      const unique = (ids: string[], path: string) => {
        const seen = new Set<string>();
        ids.forEach((id, index) => {
          if (seen.has(id)) context.addIssue({ code: 'custom', message: `repeats the id ${id}`, path: [path, index, 'id'] });
          seen.add(id);
        });
      };
      unique(document.layers.map((l) => l.id), 'layers');
      unique(document.locations.map((l) => l.id), 'locations');
      unique(document.groups.map((g) => g.id), 'groups');
      const layers = new Set(document.layers.map((l) => l.id));
      const groups = new Set(document.groups.map((g) => g.id));
      document.locations.forEach((location, index) => {
        if (!layers.has(location.layer)) context.addIssue({ code: 'custom', message: `names a layer that does not exist: ${location.layer}`, path: ['locations', index, 'layer'] });
        location.groups.forEach((group, g) => {
          if (!groups.has(group)) context.addIssue({ code: 'custom', message: `names a group that does not exist: ${group}`, path: ['locations', index, 'groups', g] });
        });
      });
      if (document.settings.defaultLayer && !layers.has(document.settings.defaultLayer)) {
        context.addIssue({ code: 'custom', message: 'names a layer that does not exist', path: ['settings', 'defaultLayer'] });
      }
      const network = checkPathNetwork(document.paths, layers);
      if (network) {
        const [where, ...problem] = network.split(': ');
        context.addIssue({ code: 'custom', message: problem.join(': '), path: where!.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)) });
      }
      const nodeIds = new Set(document.paths.nodes.map((n) => n.id));
      document.locations.forEach((location, index) => {
        const missing = missingEntrance(nodeIds, location.entrances);
        if (missing) context.addIssue({ code: 'custom', message: `names a path point that does not exist: ${missing}`, path: ['locations', index, 'entrances'] });
      });
    });
}

/**
 * The document as events and read models hold it, the schema every reader uses (events,
 * snapshots, read models, the client's copy): anything ever recorded still reads, a foreign
 * floor drawing as none ({@link RecordedLayerFile}).
 */
export const MapDocument = documentSchema(RecordedLayer);

/**
 * The document as anyone may give it now (createMap, saveMap, adminUpdateMap, an imported
 * map): floors' drawings must be the product's own files, refused with invalid-argument
 * naming the field otherwise.
 */
export const MapDocumentInput = documentSchema(Layer);

export interface MapMetrics {
  layerCount: number;
  locationCount: number;
}

export function metricsOf(document: MapDocument): MapMetrics {
  return { layerCount: document.layers.length, locationCount: document.locations.length };
}

/**
 * What today's readers refuse in a document ("field: problem", the first of them), or null:
 * a document about to be recorded whole (a restored version, folded from events recorded under
 * older rules) is checked with the very schema every reader parses it with.
 */
export function recordedDocumentProblem(document: unknown): string | null {
  const parsed = MapDocument.safeParse(document);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}
