/**
 * GeoJSON (RFC 7946, and the older files that predate it): a FeatureCollection, a Feature, a
 * bare geometry or a list of features, read as features and planned by geo-features.ts.
 */
import type { Feature, Geometry } from 'geojson';
import type { DomainError } from '../../events/errors.js';
import type { ImportPlan } from '../../events/map-import.js';
import { planFeatures, type GeoFeature } from './geo-features.js';
import type { ImportInput } from './import-input.js';
import { importRefusal } from './refusal.js';
import { truncateText } from '../../events/safe-text.js';

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const refusal = (wrong: string, todo: string): DomainError => importRefusal('geojson', wrong, todo);

/** A geometry as far as the parser relies on it: a known type with coordinates (or parts) of the right kind. */
function geometryOf(value: unknown): Geometry | null {
  if (!isObject(value) || typeof value.type !== 'string' || !GEOMETRY_TYPES.has(value.type)) return null;
  if (value.type === 'GeometryCollection') return Array.isArray(value.geometries) ? ({ type: 'GeometryCollection', geometries: value.geometries.map(geometryOf).filter((g): g is Geometry => g !== null) } as Geometry) : null;
  return Array.isArray(value.coordinates) ? (value as unknown as Geometry) : null;
}

/** The features of a parsed GeoJSON value, with their numbers for problems. */
export function featuresOf(json: unknown): GeoFeature[] {
  const feature = (value: unknown, n: number): GeoFeature => {
    if (!isObject(value) || value.type !== 'Feature') {
      throw refusal(`item ${n} of its features is not a feature`, 'Check that the file is GeoJSON as a GIS exports it (QGIS, geojson.io, ogr2ogr) and import it again.');
    }
    const geometry = value.geometry === null || value.geometry === undefined ? null : geometryOf(value.geometry);
    if (value.geometry && !geometry) {
      // Kept without a place: planFeatures says it was left out, with its number.
      return { type: 'Feature', id: value.id as Feature['id'], properties: isObject(value.properties) ? value.properties : null, geometry: null };
    }
    return { type: 'Feature', id: value.id as Feature['id'], properties: isObject(value.properties) ? value.properties : null, geometry };
  };
  if (Array.isArray(json)) return json.map((item, i) => feature(item, i + 1));
  if (!isObject(json) || typeof json.type !== 'string') {
    throw refusal('it has no "type" saying what it holds', 'A GeoJSON file is an object with "type": "FeatureCollection" and its "features"; export the data again as GeoJSON and import that.');
  }
  if (json.type === 'FeatureCollection') {
    if (!Array.isArray(json.features)) throw refusal('its FeatureCollection has no list of features', 'Export the layer again as GeoJSON and import that.');
    return json.features.map((item, i) => feature(item, i + 1));
  }
  if (json.type === 'Feature') return [feature(json, 1)];
  const geometry = geometryOf(json);
  if (geometry) return [{ type: 'Feature', properties: null, geometry }];
  throw refusal(`its type "${truncateText(String(json.type), 40)}" is not one GeoJSON has`, 'Export the data again as GeoJSON (a FeatureCollection) and import that.');
}

/** The drawn floor's name: the collection's own name (QGIS and overpass-turbo write one), else the file's name. */
function nameOf(json: unknown, filename: string): string {
  const own = isObject(json) && typeof json.name === 'string' ? json.name.trim() : '';
  const fromFile = filename.replace(/^.*[\\/]/, '').replace(/\.(geo)?json$/i, '').trim();
  return truncateText(own || fromFile || 'Map', 100);
}

export function parseGeoJson(input: ImportInput): ImportPlan {
  let json: unknown;
  try {
    json = JSON.parse(input.text);
  } catch {
    throw refusal('it is not valid JSON (it may be cut short or not be GeoJSON at all)', 'Export it again and import the whole file.');
  }
  return planFeatures(featuresOf(json), input, { format: 'geojson', name: nameOf(json, input.filename) });
}
