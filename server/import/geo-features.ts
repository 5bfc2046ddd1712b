/**
 * GeoJSON features (a GeoJSON file's, or a KML's converted by @tmcw/togeojson) as an import
 * plan: points become located locations, polygons regions drawn on a floor made for them (with
 * their location at the region's label point), lines are drawn but are not places. Properties
 * fill fields by the column mapping (guessed from their names, or the user's).
 */
import type { Feature, Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import { ElementId, elementIdFor } from '../../events/element-id.js';
import { splitGroupNames } from '../../events/group-list.js';
import { syncKeyId } from '../../events/map-data-source.js';
import {
  type ColumnMapping,
  type ImportField,
  type ImportPlan,
  type ImportProblem,
  type PlannedAddress,
  type PlannedFields,
  type PlannedLocation,
} from '../../events/map-import.js';
import { slug } from '../templates/built-in-maps.js';
import { guessMapping, mappingFits } from './column-mapping.js';
import { addContactFields, composeAddress } from './contact-fields.js';
import { basemapTarget, drawOnBasemap } from './basemap-drawing.js';
import { drawShapes, positionsOf, rewound, type DrawnShape } from './geo-drawing.js';
import type { ImportInput } from './import-input.js';
import { importRefusal } from './refusal.js';
import { addressOf, readPrecision, withKey, withoutKey } from './table-plan.js';

type Properties = Record<string, unknown> | null;
export type GeoFeature = Feature<Geometry | null, Properties>;

/**
 * Fields a feature's properties may fill. Where it is comes from its geometry: a property
 * called `level` or `x` is not taken for a floor or a pixel unless the user maps it.
 */
const GUESSED_FIELDS: readonly ImportField[] = [
  'id', 'title', 'about', 'description', 'address', 'groups', 'phone', 'hours', 'link', 'image', 'thumbnail', 'color', 'marker', 'label', 'zoom', 'hidden', 'element',
  'address2', 'city', 'state', 'postcode', 'country', 'email', 'precision',
];
/** Names of a place in common geographic data (Natural Earth's ADMIN, NAME_LONG; OSM's name:en) when no title column is guessed. */
const TITLE_FALLBACKS = ['name', 'title', 'admin', 'namelong', 'nameen', 'geounit', 'sovereignt', 'label', 'nom', 'nombre', 'naam'];

const isElementId = (id: string) => ElementId.safeParse(id).success;

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** A property's value as text ('' for none); numbers as written, lists joined, objects as JSON. */
export function propertyText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(propertyText).filter(Boolean).join('; ');
  return JSON.stringify(value);
}

/** Every property name, in the order they first appear. */
function propertyNames(features: readonly GeoFeature[]): string[] {
  const names = new Set<string>();
  for (const feature of features) if (feature.properties) for (const key of Object.keys(feature.properties)) names.add(key);
  return [...names];
}

/** The mapping used: the user's, else the map's remembered one if its columns are all here, else a guess. */
export function propertyMapping(columns: readonly string[], input: Pick<ImportInput, 'options' | 'rememberedMapping'>): ColumnMapping {
  const key = input.options.key;
  if (key !== undefined) return withKey(propertyMapping(columns, { ...input, options: withoutKey(input.options) }), key);
  if (input.options.columns) return Object.fromEntries(Object.entries(input.options.columns).filter(([, column]) => columns.includes(column!)));
  if (input.rememberedMapping && mappingFits(input.rememberedMapping, columns)) return input.rememberedMapping;
  const guessed = guessMapping(columns);
  const mapping: ColumnMapping = {};
  for (const field of GUESSED_FIELDS) if (guessed[field]) mapping[field] = guessed[field];
  if (!mapping.title) {
    const fallback = TITLE_FALLBACKS.map((name) => columns.find((c) => normalise(c) === name && !Object.values(mapping).includes(c))).find(Boolean);
    if (fallback) mapping.title = fallback;
  }
  return mapping;
}

/** The fields a feature's properties fill, by the mapping. */
function fieldsOf(properties: Properties, mapping: ColumnMapping): { fields: PlannedFields; groups: string[]; id: string | null; element: string | null; address: string; addressParts: PlannedAddress | null; precision: string } {
  const value = (field: ImportField) => (mapping[field] && properties ? propertyText(properties[mapping[field]!]) : '');
  const fields: PlannedFields = {};
  const text = (field: 'title' | 'about' | 'description' | 'image' | 'thumbnail' | 'link' | 'phone' | 'hours' | 'label' | 'color') => {
    const found = value(field);
    if (found) fields[field] = found;
  };
  for (const field of ['title', 'about', 'description', 'image', 'thumbnail', 'link', 'phone', 'hours', 'label'] as const) text(field);
  const color = value('color');
  if (color) fields.color = /^#[0-9a-f]{3}$/i.test(color) ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color;
  addContactFields(fields, value);
  const zoom = value('zoom');
  if (zoom) fields.zoom = Number.isFinite(Number(zoom)) ? Number(zoom) : (zoom as unknown as number);
  const marker = value('marker');
  if (marker) fields.marker = marker as NonNullable<PlannedFields['marker']>;
  const hidden = value('hidden');
  if (hidden) fields.hidden = /^(true|yes|1|y)$/i.test(hidden);
  const groups = value('groups');
  return { fields, groups: groups ? splitGroupNames(groups) : [], id: value('id') || null, element: value('element') || null, address: composeAddress(value), addressParts: addressOf(value), precision: value('precision') };
}

/** A geometry's parts by what they become: points (locations), polygons (one region), lines (drawn). */
function partsOf(geometry: Geometry): { points: Position[]; polygons: Position[][][]; lines: Position[][] } {
  const parts = { points: [] as Position[], polygons: [] as Position[][][], lines: [] as Position[][] };
  const add = (g: Geometry) => {
    switch (g.type) {
      case 'Point': parts.points.push(g.coordinates); break;
      case 'MultiPoint': parts.points.push(...g.coordinates); break;
      case 'Polygon': parts.polygons.push(g.coordinates); break;
      case 'MultiPolygon': parts.polygons.push(...g.coordinates); break;
      case 'LineString': parts.lines.push(g.coordinates); break;
      case 'MultiLineString': parts.lines.push(...g.coordinates); break;
      case 'GeometryCollection': g.geometries.forEach(add); break;
    }
  };
  add(geometry);
  return parts;
}

const validPosition = (p: Position | undefined): p is Position =>
  Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number' && Number.isFinite(p[0]) && Number.isFinite(p[1]) && Math.abs(p[1]) <= 90 && Math.abs(p[0]) <= 540;

/** Whether the coordinates look projected (metres, feet) rather than longitude/latitude: most beyond ±180/±90. */
function looksProjected(features: readonly GeoFeature[]): boolean {
  let seen = 0;
  let outside = 0;
  for (const feature of features) {
    if (!feature.geometry) continue;
    for (const p of positionsOf(feature.geometry)) {
      seen++;
      if (!validPosition(p)) outside++;
      if (seen >= 2000) break;
    }
    if (seen >= 2000) break;
  }
  return seen > 0 && outside / seen > 0.5;
}

export interface FeaturesPlanOptions {
  format: 'geojson' | 'kml';
  /** The drawn floor's name: the file's own name for its data, else the file name. */
  name: string;
  /** Property names not offered as columns (KML styles' internals). */
  hiddenColumns?: ReadonlySet<string>;
}

/** The plan of a file's features. */
export function planFeatures(features: readonly GeoFeature[], input: Pick<ImportInput, 'options' | 'rememberedMapping'> & Partial<Pick<ImportInput, 'document' | 'targetLayer'>>, options: FeaturesPlanOptions): ImportPlan {
  const { format } = options;
  if (features.length === 0) {
    throw importRefusal(format, 'it holds no features', 'Export the layer again with its features and import that.');
  }
  if (looksProjected(features)) {
    throw importRefusal(
      format,
      'its coordinates are not longitudes and latitudes (they look like metres of a projected system)',
      'Export it again in WGS 84 (EPSG:4326), as GeoJSON requires, and import that.',
    );
  }
  const columns = propertyNames(features).filter((name) => !options.hiddenColumns?.has(name));
  const mapping = propertyMapping(columns, input);
  const used = new Set(Object.values(mapping) as string[]);
  const problems: ImportProblem[] = [];
  const problem = (row: number | null, field: string | null, message: string) => problems.push({ row, field, message });

  const floorKey = format;
  const locations: PlannedLocation[] = [];
  const shapes: DrawnShape[] = [];
  const extent: Geometry[] = [];
  const regionIds = new Set<string>();
  const regionRows = new Map<string, PlannedLocation>();
  let lineCount = 0;
  const pointRows: PlannedLocation[] = [];
  const unplaced: PlannedLocation[] = [];
  let leftOut = 0;

  features.forEach((feature, index) => {
    const row = index + 1;
    const before = locations.length;
    planFeature(feature, row);
    if (locations.length === before) leftOut++;
  });

  /** A feature's locations, region or line; each feature that makes no location is named in a problem. */
  function planFeature(feature: GeoFeature, row: number): void {
    const { fields, groups, id: mappedId, element, address, addressParts, precision: precisionText } = fieldsOf(feature.properties, mapping);
    const given = mappedId ?? (typeof feature.id === 'string' || typeof feature.id === 'number' ? String(feature.id) : null);
    // A data source's key: the same location id at every sync (syncKeyId).
    const fileId = given !== null && input.options.key !== undefined ? syncKeyId(given) : given;
    if (!feature.geometry) {
      // A placemark with only an <address> (Google Earth geocodes it): a place all the same, brought in unplaced as a table's row with an address is.
      if (address) {
        // Its address is what geocoding places it by (events/geocoding.ts), unless it stands for a region.
        const location: PlannedLocation = { row, id: fileId, fields: { ...fields, title: fields.title || fileId || address }, floor: null, position: null, groups, element, ...(addressParts && !element ? { address: addressParts } : {}) };
        unplaced.push(location);
        locations.push(location);
      } else problem(row, null, `Feature ${row}${fields.title ? ` (${fields.title})` : ''} has no geometry and no address (no place on the map), so it was left out.`);
      return;
    }
    const geometry = rewound(feature.geometry);
    const parts = partsOf(geometry);
    const title = fields.title || fileId || `${geometry.type} ${row}`;

    const polygons = parts.polygons.filter((polygon) => polygon.length > 0 && polygon.every((ring) => ring.length >= 4 && ring.every(validPosition)));
    if (polygons.length < parts.polygons.length) problem(row, null, `${title}: ${parts.polygons.length - polygons.length} of its shapes have coordinates that are not longitudes and latitudes, so they were left out.`);
    if (polygons.length > 0) {
      // The file's id is the location's as it is (a customer's own system names places by it:
      // FIPS "11", ISO "-99"); the drawing's path gets the valid SVG id made from it, which the
      // location's `element` names (an SVG id cannot start with a digit or a minus sign).
      const locationId = fileId && isElementId(fileId) ? fileId : slug(title);
      const base = elementIdFor(locationId);
      let id = base;
      for (let n = 2; regionIds.has(id); n++) id = `${base}-${n}`;
      regionIds.add(id);
      const region: Polygon | MultiPolygon = polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0]! } : { type: 'MultiPolygon', coordinates: polygons };
      shapes.push({ id, name: title, geometry: region });
      extent.push(region);
      // Shown as the region itself, as the built-in maps' regions are (a pin on each of 52 states
      // hides the map), unless the file gives a marker.
      const location: PlannedLocation = { row, id: locationId, fields: { marker: 'hidden', ...fields, title }, floor: floorKey, position: null, groups, element: null, drawnRegion: id };
      regionRows.set(id, location);
      locations.push(location);
    }
    const lines = parts.lines.filter((line) => line.length >= 2 && line.every(validPosition));
    if (lines.length > 0) {
      lineCount++;
      const drawn: Geometry = lines.length === 1 ? { type: 'LineString', coordinates: lines[0]! } : { type: 'MultiLineString', coordinates: lines };
      shapes.push({ id: null, name: title, geometry: drawn });
      extent.push(drawn);
      if (polygons.length === 0 && parts.points.length === 0) {
        problem(row, null, `${title} is a line (a route or a boundary): it is drawn on the map, but a line is not a location, so none was made for it.`);
      }
    }
    // Points: a location each (a MultiPoint's second point onwards numbered).
    if (polygons.length > 0) {
      if (parts.points.length > 0) problem(row, null, `${title} has both a shape and points: the location sits on its shape, the points were left out.`);
      return;
    }
    parts.points.forEach((point, n) => {
      if (!validPosition(point)) {
        problem(row, null, `${title}: the point [${propertyText(point)}] is not a longitude and latitude, so it was left out.`);
        return;
      }
      const suffix = parts.points.length > 1 ? ` (${n + 1})` : '';
      // How the point was found, as Mapfold's own export says (a geocoded store: "city").
      const precision = n === 0 ? readPrecision(precisionText, row, true, problems) : precisionText ? readPrecision(precisionText, row, true, []) : null;
      const location: PlannedLocation = {
        row,
        id: fileId ? `${fileId}${n > 0 ? `-${n + 1}` : ''}` : null,
        fields: { ...fields, title: `${title}${suffix}` },
        floor: null,
        position: { kind: 'geo', lat: point[1]!, lng: point[0]! },
        groups,
        // The region a point stands for, as Mapfold's own GeoJSON export names it.
        element: n === 0 ? element : null,
        ...(precision ? { precision } : {}),
      };
      extent.push({ type: 'Point', coordinates: point });
      pointRows.push(location);
      locations.push(location);
    });
    if (parts.points.length === 0 && polygons.length === 0 && lines.length === 0) problem(row, null, `Feature ${row} (${title}) has no usable coordinates, so it was left out.`);
  }
  if (unplaced.length > 0) {
    problem(null, null, `${unplaced.length === 1 ? 'One feature has' : `${unplaced.length} features have`} an address but no coordinates: placed by ${unplaced.length === 1 ? 'its' : 'their'} address where the geocoder knows it, else brought in without a position, to be placed on the map by hand.`);
  }

  const floors: ImportPlan['floors'] = [];
  if (shapes.length > 0) {
    // A street map's floor takes the shapes in its own units, the basemap under them (basemap-drawing.ts).
    const onBasemap = basemapTarget(input.document, input.targetLayer);
    const drawing = onBasemap ? drawOnBasemap(onBasemap, shapes, extent) : drawShapes(floorKey, options.name, shapes, extent, format);
    const drawnKey = drawing.floor.key;
    for (const location of regionRows.values()) location.floor = drawnKey;
    floors.push(drawing.floor);
    for (const [id, location] of regionRows) {
      const label = drawing.labels.get(id);
      if (label) location.position = { kind: 'pixel', x: label.x, y: label.y };
    }
    for (const id of drawing.undrawn) {
      const location = regionRows.get(id)!;
      problem(location.row, null, `${location.fields.title} could not be drawn with the other shapes (it falls outside the map's projection); its location was made without a region.`);
      delete location.drawnRegion;
    }
    // The file's points (and its unplaced places) go on the same floor, which shows them all.
    for (const location of [...pointRows, ...unplaced]) location.floor = drawnKey;
    if (lineCount > 0 && regionRows.size === 0 && pointRows.length === 0) {
      problem(null, null, `The file holds only lines (${lineCount}): they are drawn on a new floor, but lines are not locations, so no location was made.`);
    }
  }

  // Every group a feature names, in the order first named (colours are the planner's).
  const groupNames = [...new Set(locations.flatMap((location) => location.groups))];
  return {
    format,
    floors,
    groups: groupNames.map((name) => ({ key: name, name, color: null })),
    locations,
    columns: { used: columns.filter((c) => used.has(c)), ignored: columns.filter((c) => !used.has(c)) },
    mapping,
    problems,
    leftOut,
  };
}
