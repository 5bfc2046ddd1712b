/**
 * Which kind of file an import is, from its content first (a JSON's keys, an XML document's
 * root, a table's header), its name and Content-Type only where the content leaves it open.
 * Answers the format, or a refusal in plain words saying what the file looks like and what
 * the import takes instead.
 */
import type { ImportFormat } from '../../events/map-import.js';
import { decodeText, rasterTypeOf, xmlRootName } from '../files/inspect-upload.js';
import { isColonSeparated } from './csv-table.js';
import { kmlInZip } from './kmz.js';
import { isMapplicCsvHeader } from './mapplic-csv.js';
import { isMapplicMap } from './mapplic-json.js';
import { READABLE_KINDS } from './refusal.js';

export interface DetectInput {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * `encoding`: set when the bytes were not UTF-8 and were read as Windows-1252; `archived`: the
 * KML's name inside a KMZ, whose text `text` is. The preview says both.
 */
export type Detected = { format: ImportFormat; text: string; json?: unknown; encoding?: 'windows-1252'; archived?: string } | { refusal: string };

const GEOJSON_TYPES = new Set(['FeatureCollection', 'Feature', 'Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isArrayOfObjects = (value: unknown): value is Array<Record<string, unknown>> => Array.isArray(value) && value.length > 0 && value.every(isObject);

/** What Windows-1252 has at 0x80 to 0x9F (the WHATWG index); its five unassigned bytes stay the C1 controls they are in Latin-1. */
const WINDOWS_1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Bytes that are not UTF-8, read as Windows-1252: what Excel on Windows saves as "CSV" and older
 * tools write as "Latin-1" (Windows-1252 is Latin-1 with letters where Latin-1 has controls,
 * and WHATWG's decoder reads ISO-8859-1 as it too). Any byte decodes, so text is told from a
 * binary file as decodeText tells it: no NULs or C0 controls besides tab and line breaks.
 */
export function decodeWindows1252(bytes: Uint8Array): string | null {
  // Node 20.18.3+ and 22.13+ decode 0x80 to 0x9F as Latin-1 does (nodejs/node#60888): put Windows-1252's letters there.
  const text = new TextDecoder('windows-1252').decode(bytes).replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? null : text;
}

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
  if (isColonSeparated(text)) return firstLine.split(':').map((cell) => cell.trim().replace(/^"|"$/g, '').trim().toLowerCase());
  const delimiter = [',', '\t', ';', '|'].map((d) => [d, firstLine.split(d).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
  return firstLine.split(delimiter).map((cell) => cell.trim().replace(/^"|"$/g, '').trim().toLowerCase());
}

export function detectFormat({ filename, contentType, bytes }: DetectInput): Detected {
  if (bytes.byteLength === 0) return { refusal: `The file is empty. ${READABLE_KINDS}` };
  const raster = rasterTypeOf(bytes);
  if (raster) {
    return { refusal: `The file is a ${raster.name} image, which has no locations to import. Add it as a floor's drawing (Floors, then Upload), or ${READABLE_KINDS.charAt(0).toLowerCase()}${READABLE_KINDS.slice(1)}` };
  }
  const utf8 = decodeText(bytes);
  const extension = extensionOf(filename);
  // A zip's local file header, or the end record of an empty one ("PK" alone starts CSVs too: a column called PK).
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
  const legacy = utf8 === null && !isZip ? decodeWindows1252(bytes) : null;
  const text = utf8 ?? legacy;
  if (isZip) {
    const inner = kmlInZip(bytes);
    if (inner && 'tooLarge' in inner) return { refusal: 'The file is a KMZ (zipped KML) whose KML unpacks to more than 64 MB. Split its placemarks over several files and import them one after another.' };
    if (inner) {
      const kmlUtf8 = decodeText(inner.bytes);
      const kmlText = kmlUtf8 ?? decodeWindows1252(inner.bytes);
      const root = kmlText === null ? '' : (xmlRootName(kmlText)?.toLowerCase() ?? '');
      if (kmlText !== null && (root === 'kml' || root.endsWith(':kml'))) {
        return { format: 'kml', text: kmlText, archived: inner.name, ...(kmlUtf8 === null ? { encoding: 'windows-1252' as const } : {}) };
      }
    }
  }
  if (text === null) {
    if (isZip) {
      const what = extension === 'kmz' ? 'a KMZ (zipped KML) file' : extension === 'xlsx' || extension === 'xls' ? 'an Excel workbook' : 'a zip archive';
      const todo = extension === 'kmz' ? 'It holds no KML file that could be read: save the places again from Google Earth or My Maps (as KML) and import that.' : 'Save the sheet as CSV (in Excel: File, Save As, CSV UTF-8) and import that.';
      return { refusal: `The file is ${what}, which the import cannot read. ${todo}` };
    }
    return { refusal: `The file is not text in UTF-8 (or it holds characters no text file has). Save it as UTF-8 text (CSV UTF-8 in a spreadsheet) and import it again. ${READABLE_KINDS}` };
  }
  const detected = detectText(text, extension, contentType);
  return legacy !== null && 'format' in detected ? { ...detected, encoding: 'windows-1252' } : detected;
}

/** The kind of a file read as text. */
function detectText(text: string, extension: string, contentType: string): Detected {
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
