/**
 * Which kind of file an import is, from its content first (a JSON's keys, an XML document's
 * root, a table's header), its name and Content-Type only where the content leaves it open.
 * Answers the format, or a refusal in plain words saying what the file looks like and what
 * the import takes instead.
 */
import type { ImportFormat } from '../../events/map-import.js';
import { decodeText, rasterTypeOf, xmlRootName } from '../files/inspect-upload.js';
import { isMapplicCsvHeader } from './mapplic-csv.js';
import { isMapplicMap } from './mapplic-json.js';
import { READABLE_KINDS } from './refusal.js';

export interface DetectInput {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export type Detected = { format: ImportFormat; text: string; json?: unknown } | { refusal: string };

const GEOJSON_TYPES = new Set(['FeatureCollection', 'Feature', 'Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isArrayOfObjects = (value: unknown): value is Array<Record<string, unknown>> => Array.isArray(value) && value.length > 0 && value.every(isObject);

/** Whether a JSON value is a Mapfold document (its own export holds one under `document`). */
export function mapfoldDocumentOf(json: unknown): unknown {
  if (!isObject(json)) return null;
  const isDocument = (value: unknown) => isObject(value) && 'version' in value && Array.isArray(value.layers) && Array.isArray(value.locations);
  if (isDocument(json.document)) return json.document;
  if (isDocument(json)) return json;
  return null;
}

/** The list of objects a store-locator JSON holds: the file itself, or its one array of objects. */
export function storeListOf(json: unknown): { path: string | null; items: Array<Record<string, unknown>> } | null {
  if (isArrayOfObjects(json)) return { path: null, items: json };
  if (!isObject(json)) return null;
  const lists = Object.entries(json).filter((entry): entry is [string, Array<Record<string, unknown>>] => isArrayOfObjects(entry[1]));
  if (lists.length === 0) {
    // One level down: `{data: {stores: [...]}}`.
    for (const [key, value] of Object.entries(json)) {
      const inner = isObject(value) ? storeListOf(value) : null;
      if (inner && inner.path !== null) return { path: `${key}.${inner.path}`, items: inner.items };
    }
    return null;
  }
  const preferred = ['stores', 'locations', 'data', 'items', 'results', 'places', 'markers', 'shops', 'points'];
  const chosen = lists.find(([key]) => preferred.includes(key.toLowerCase())) ?? lists.sort((a, b) => b[1].length - a[1].length)[0]!;
  return { path: chosen[0], items: chosen[1] };
}

/** Where JSON.parse stopped, as a line and character ("near line 3, character 14"); its own words are a programmer's. */
function whereJsonBreaks(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return /end of (JSON|data) input|Unexpected end/i.test(message) ? ' (it ends too early)' : '';
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const character = before.length - before.lastIndexOf('\n');
  return ` (near line ${line}, character ${character})`;
}

function extensionOf(filename: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename.trim());
  return match ? match[1]!.toLowerCase() : '';
}

/** The first line of a table, split by its most likely delimiter, lowercase and trimmed. */
function headerCells(text: string): string[] {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
  const delimiter = [',', '\t', ';', '|'].map((d) => [d, firstLine.split(d).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
  return firstLine.split(delimiter).map((cell) => cell.trim().replace(/^"|"$/g, '').trim().toLowerCase());
}

export function detectFormat({ filename, contentType, bytes }: DetectInput): Detected {
  if (bytes.byteLength === 0) return { refusal: `The file is empty. ${READABLE_KINDS}` };
  const raster = rasterTypeOf(bytes);
  if (raster) {
    return { refusal: `The file is a ${raster.name} image, which has no locations to import. Add it as a floor's drawing (Floors, then Upload), or ${READABLE_KINDS.charAt(0).toLowerCase()}${READABLE_KINDS.slice(1)}` };
  }
  const text = decodeText(bytes);
  const extension = extensionOf(filename);
  if (text === null) {
    if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
      const what = extension === 'kmz' ? 'a KMZ (zipped KML) file' : extension === 'xlsx' || extension === 'xls' ? 'an Excel workbook' : 'a zip archive';
      const todo = extension === 'kmz' ? 'Unzip it and import the .kml file inside.' : 'Save the sheet as CSV (in Excel: File, Save As, CSV UTF-8) and import that.';
      return { refusal: `The file is ${what}, which the import cannot read. ${todo}` };
    }
    return { refusal: `The file is not text in UTF-8 (or it holds characters no text file has). Save it as UTF-8 text (CSV UTF-8 in a spreadsheet) and import it again. ${READABLE_KINDS}` };
  }
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body === '') return { refusal: `The file is empty. ${READABLE_KINDS}` };

  if (body.startsWith('{') || body.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (error) {
      return { refusal: `The file looks like JSON but cannot be read${whereJsonBreaks(body, error)}: it may be cut short or hand-edited. Export it again from the program that made it.` };
    }
    if (mapfoldDocumentOf(json)) return { format: 'mapfold', text, json };
    if (isMapplicMap(json)) return { format: 'mapplic', text, json };
    if (isObject(json) && typeof json.type === 'string' && GEOJSON_TYPES.has(json.type)) return { format: 'geojson', text, json };
    if (Array.isArray(json) && json.length > 0 && json.every((item) => isObject(item) && item.type === 'Feature')) return { format: 'geojson', text, json };
    if (storeListOf(json)) return { format: 'store-locator', text, json };
    return {
      refusal:
        'The file is JSON, but not a kind the import reads: it is not a Mapfold map (with layers and locations), a Mapplic map (with levels), GeoJSON (a FeatureCollection) or a list of locations (an array of objects). ' +
        'Export the map again in one of those forms, or save its locations as CSV.',
    };
  }

  if (body.startsWith('<')) {
    const root = xmlRootName(body)?.toLowerCase() ?? '';
    if (root === 'kml' || root.endsWith(':kml')) return { format: 'kml', text };
    if (root === 'svg' || root.endsWith(':svg')) return { format: 'svg', text };
    if (root === 'gpx') return { refusal: 'The file is GPX (GPS tracks and waypoints), which the import does not read. Convert it to GeoJSON or KML (for example with geojson.io) and import that.' };
    if (root === 'html') return { refusal: 'The file is a web page (HTML), not a map. Save the map or its locations from the site as JSON, CSV, KML or SVG and import that.' };
    return { refusal: `The file is XML${root ? ` (its root is <${root}>)` : ''}, but neither KML nor SVG. ${READABLE_KINDS}` };
  }

  // Anything else is a table: its header decides between Mapplic's CSV (server/import/mapplic-csv.ts) and any other.
  const cells = headerCells(body);
  if (cells.length < 2 && !['csv', 'tsv', 'txt'].includes(extension) && !/csv|tab-separated/.test(contentType)) {
    return { refusal: `The file is text, but not a table with a header row, nor JSON, KML or SVG. ${READABLE_KINDS}` };
  }
  return { format: isMapplicCsvHeader(cells) ? 'mapplic-csv' : 'csv', text };
}
