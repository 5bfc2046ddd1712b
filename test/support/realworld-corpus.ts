/**
 * The real-world corpus (test/fixtures/realworld, issue 28) as the tests read it: its files by
 * format, what each holds read from the file itself (not from what the importer makes of it),
 * and sending one to `POST /api/maps/{id}/import` as a user uploads it (a Mapplic map with its
 * floor drawings as a form). Shared by the corpus test and the round-trip test.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { MapDocument } from '../../events/map-document.js';
import type { ImportPreview } from '../../events/map-import.js';
import { projected, type TestServer, type TestUser } from './test-server.js';

export const ROOT = path.resolve(import.meta.dirname, '../fixtures/realworld');

export type Kind = 'csv' | 'geojson' | 'kml' | 'store-locator' | 'svg' | 'mapplic';

export interface CorpusFile {
  /** Its path under test/fixtures/realworld, as SOURCES.md names it. */
  name: string;
  kind: Kind;
  /** Files sent with it (a Mapplic map's floor drawings): those beside it in its own folder. */
  attachments: string[];
}

export const KINDS: Record<string, Kind> = { csv: 'csv', geojson: 'geojson', kml: 'kml', 'store-locator': 'store-locator', svg: 'svg', mapplic: 'mapplic' };

/** Every corpus file: the folders by format, a Mapplic map's folder with its drawings, and the older SVG at the top. */
export function corpus(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const entry of readdirSync(ROOT).sort()) {
    const full = path.join(ROOT, entry);
    if (statSync(full).isFile()) {
      if (entry.endsWith('.svg')) files.push({ name: entry, kind: 'svg', attachments: [] });
      continue;
    }
    const kind = KINDS[entry];
    if (!kind) continue;
    for (const inner of readdirSync(full).sort()) {
      const innerPath = path.join(full, inner);
      if (statSync(innerPath).isFile()) {
        files.push({ name: `${entry}/${inner}`, kind, attachments: [] });
        continue;
      }
      // A Mapplic map with its floors: the JSON is the file, the rest go with it.
      const parts = readdirSync(innerPath).sort();
      for (const json of parts.filter((part) => part.endsWith('.json'))) {
        files.push({ name: `${entry}/${inner}/${json}`, kind, attachments: parts.filter((part) => part !== json).map((part) => `${entry}/${inner}/${part}`) });
      }
    }
  }
  return files;
}

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  geojson: 'application/geo+json',
  kml: 'application/vnd.google-earth.kml+xml',
  kmz: 'application/vnd.google-earth.kmz',
  svg: 'image/svg+xml',
};
export const contentTypeOf = (name: string) => CONTENT_TYPES[name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What the file holds, read without the importer: how many things to import (null: the importer decides) and the names it gives them. */
export interface Expected {
  items: number | null;
  /** The names it gives, with the item's number (1-based, as problems number them). */
  titles: Array<{ row: number; title: string }>;
  /** Mapplic: how many locations name an element of their floor's drawing. */
  linkable?: number;
  /** Where the file puts its named points (GeoJSON and KML points, stores with a latitude and longitude), by name. */
  points: Map<string, Array<{ lat: number; lng: number }>>;
}

/** Named places, by name: a name the file gives twice is left out of the check, as it cannot tell which is which. */
function pointsByName(points: Array<{ title: string | null; lat: number; lng: number } | null>): Expected['points'] {
  const byName = new Map<string, Array<{ lat: number; lng: number }>>();
  for (const point of points) {
    if (!point || !point.title || !Number.isFinite(point.lat) || !Number.isFinite(point.lng)) continue;
    byName.set(point.title, [...(byName.get(point.title) ?? []), { lat: point.lat, lng: point.lng }]);
  }
  return byName;
}

const numberOf = (value: unknown): number => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN);

/** A store's latitude and longitude, at the top (lat/lng, latitude/longitude, lon) or under `location`. */
function storePoint(item: unknown): { lat: number; lng: number } | null {
  if (!isObject(item)) return null;
  const from = (object: Record<string, unknown>) => ({ lat: numberOf(object.lat ?? object.latitude), lng: numberOf(object.lng ?? object.lon ?? object.longitude) });
  const top = from(item);
  if (Number.isFinite(top.lat) && Number.isFinite(top.lng)) return top;
  return isObject(item.location) ? from(item.location) : null;
}

/** Records of a delimited table, quotes respected (a quoted field may hold the delimiter or a line break), blank lines left out. */
function tableRecords(text: string): number {
  const body = text.replace(/^\uFEFF/, '');
  let records = 0;
  let quoted = false;
  let content = false;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '"') quoted = !quoted;
    if (!quoted && (char === '\n' || char === '\r')) {
      if (content) records++;
      content = false;
      if (char === '\r' && body[i + 1] === '\n') i++;
      continue;
    }
    if (char.trim() !== '') content = true;
  }
  if (content) records++;
  return records;
}

function geojsonFeatures(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (isObject(json) && json.type === 'FeatureCollection' && Array.isArray(json.features)) return json.features;
  return [json];
}

/**
 * How many locations a feature is: one, or one per point of a MultiPoint (and of a collection
 * of points without a shape), as the file gives several places there.
 */
function placesOf(feature: unknown): number {
  const geometry = isObject(feature) && isObject(feature.geometry) ? feature.geometry : null;
  if (!geometry) return 1;
  const parts = geometry.type === 'GeometryCollection' && Array.isArray(geometry.geometries) ? geometry.geometries.filter(isObject) : [geometry];
  if (parts.some((part) => part.type === 'Polygon' || part.type === 'MultiPolygon')) return 1;
  const points = parts.reduce((sum, part) => sum + (part.type === 'Point' ? 1 : part.type === 'MultiPoint' && Array.isArray(part.coordinates) ? part.coordinates.length : 0), 0);
  return Math.max(1, points);
}

const nameOf = (properties: unknown, keys: readonly string[]): string | null => {
  if (!isObject(properties)) return null;
  for (const key of keys) {
    const value = properties[key];
    if (typeof value === 'string' && clean(value) !== '') return clean(value);
  }
  return null;
};

/** The list a store-locator JSON holds: the file itself, or its one array of objects. */
function storeList(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (isObject(json)) for (const value of Object.values(json)) if (Array.isArray(value)) return value;
  return [];
}

/** Names with their item numbers, the nameless left out. */
const numbered = (names: Array<string | null>) =>
  names.flatMap((title, i) => (title === null || title === '' ? [] : [{ row: i + 1, title }]));

export function expectedOf(file: CorpusFile, bytes: Buffer): Expected {
  const text = bytes.toString('utf8');
  switch (file.kind) {
    case 'csv':
      // The first record is the header.
      return { items: Math.max(0, tableRecords(text) - 1), titles: [], points: new Map() };
    case 'geojson': {
      const features = geojsonFeatures(JSON.parse(text));
      const points = features.map((feature) => {
        if (!isObject(feature) || !isObject(feature.geometry) || feature.geometry.type !== 'Point' || !Array.isArray(feature.geometry.coordinates)) return null;
        const [lng, lat] = feature.geometry.coordinates as number[];
        return { title: nameOf(feature.properties, ['name', 'title']), lat: lat!, lng: lng! };
      });
      return { items: features.reduce((sum: number, feature) => sum + placesOf(feature), 0), titles: numbered(features.map((feature) => (isObject(feature) ? nameOf(feature.properties, ['name', 'title']) : null))), points: pointsByName(points) };
    }
    case 'kml': {
      if (file.name.endsWith('.kmz')) return { items: null, titles: [], points: new Map() };
      const placemarks = text.match(/<Placemark\b[\s\S]*?<\/Placemark>/g) ?? [];
      const names = placemarks.map((placemark) => /<name>([^<&]*)<\/name>/.exec(placemark)?.[1] ?? null);
      const points = placemarks.map((placemark, i) => {
        const coordinates = /<Point>\s*<coordinates>\s*([-\d.eE]+)\s*,\s*([-\d.eE]+)/.exec(placemark);
        return coordinates ? { title: names[i] ? clean(names[i]!) : null, lat: Number(coordinates[2]), lng: Number(coordinates[1]) } : null;
      });
      return { items: placemarks.length, titles: numbered(names.map((name) => (name === null ? null : clean(name)))), points: pointsByName(points) };
    }
    case 'store-locator': {
      const items = storeList(JSON.parse(text));
      const points = items.map((item) => {
        const point = storePoint(item);
        return point ? { title: nameOf(item, ['name', 'title']), ...point } : null;
      });
      return { items: items.length, titles: numbered(items.map((item) => nameOf(item, ['name', 'title']))), points: pointsByName(points) };
    }
    case 'mapplic': {
      const json = JSON.parse(text) as { levels?: Array<{ map?: string; locations?: Array<{ id?: string; title?: string }> }> };
      const levels = json.levels ?? [];
      const locations = levels.flatMap((level) => level.locations ?? []);
      let linkable = 0;
      for (const level of levels) {
        const drawing = file.attachments.find((attachment) => level.map && path.basename(attachment) === path.basename(level.map));
        if (!drawing) continue;
        const ids = new Set([...readFileSync(path.join(ROOT, drawing), 'utf8').matchAll(/\bid="([^"]+)"/g)].map((match) => match[1]!));
        linkable += (level.locations ?? []).filter((location) => location.id && ids.has(location.id)).length;
      }
      return { items: locations.length, titles: numbered(locations.map((location) => (typeof location.title === 'string' ? clean(location.title) : null))), linkable, points: new Map() };
    }
    case 'svg':
      return { items: null, titles: [], points: new Map() };
  }
}

/** Whether a title the file gives is among the map's, allowing for one cut short (with an ellipsis) because it was long. */
export function hasTitle(titles: Set<string>, shortened: string[], title: string): boolean {
  if (titles.has(title)) return true;
  return shortened.some((prefix) => title.startsWith(prefix));
}

/** Sends the file (with its drawings, as a form) to the import; answers the status and the preview or the refusal's words. */
export async function sendCorpusFile(server: TestServer, mapId: string, file: CorpusFile, user: TestUser, apply: boolean): Promise<{ status: number; result?: ImportPreview; message?: string }> {
  const bytes = readFileSync(path.join(ROOT, file.name));
  const query = new URLSearchParams({ filename: path.basename(file.name), ...(apply ? { apply: '1' } : {}) });
  let body: BodyInit;
  const headers: Record<string, string> = { cookie: user.cookie };
  if (file.attachments.length > 0) {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: contentTypeOf(file.name) }), path.basename(file.name));
    for (const attachment of file.attachments) {
      form.append('drawing', new Blob([readFileSync(path.join(ROOT, attachment))], { type: contentTypeOf(attachment) }), path.basename(attachment));
    }
    body = form;
  } else {
    headers['content-type'] = contentTypeOf(file.name);
    body = bytes;
  }
  const response = await fetch(`${server.url}/api/maps/${mapId}/import?${query}`, { method: 'POST', headers, body });
  const answer = (await response.json()) as { result?: ImportPreview; position?: string | null; error?: { message: string } };
  if (answer.position) await projected(server, answer.position);
  return { status: response.status, ...(answer.result ? { result: answer.result } : {}), ...(answer.error ? { message: answer.error.message } : {}) };
}

/** The map's document as the editor reads it. */
export async function corpusDocumentOf(server: TestServer, mapId: string, user: TestUser): Promise<MapDocument> {
  const response = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: user.cookie } });
  return ((await response.json()) as { result: { data: MapDocument } }).result.data;
}

/**
 * The corpus's largest file (34,000 rows, 1.3 MB), imported on PGlite only: the other files ask
 * what PostgreSQL could do differently of each format and quirk (corpusImportedOn); this file
 * only asks the same at a size that took a minute a database on CI's two cores
 * (test/server/big-map.test.ts asks PostgreSQL about thousands of rows in one import).
 */
const PGLITE_ONLY = new Set(['csv/world-cities.csv']);

/** The corpus files a suite on this database imports. */
export function corpusOn(database: 'pglite' | 'postgres'): CorpusFile[] {
  return corpus().filter((file) => database === 'pglite' || !PGLITE_ONLY.has(file.name));
}

/**
 * The files the corpus test imports on this database, when it runs on `databases`. With both
 * (CI), each file once, on one of them: every second file of each format on PostgreSQL (the
 * first, the third, … by name), the others and PGLITE_ONLY on PGlite, so each format and its
 * quirks still reach both adapters, deterministically. Every file on both asked the same
 * engine (PGlite is PostgreSQL's own code in WebAssembly) the same SQL twice: some 50 s of a
 * CI run (issue 26 item 9). `MAPFOLD_FULL_CORPUS=1`, or a run on one database, imports every
 * file on each.
 */
export function corpusImportedOn(database: 'pglite' | 'postgres', databases: readonly string[]): CorpusFile[] {
  const files = corpusOn(database);
  if (FULL_CORPUS || databases.length < 2) return files;
  const seen = new Map<Kind, number>();
  const home = new Map<string, 'pglite' | 'postgres'>();
  for (const file of corpus()) {
    const index = seen.get(file.kind) ?? 0;
    seen.set(file.kind, index + 1);
    home.set(file.name, PGLITE_ONLY.has(file.name) || index % 2 === 1 ? 'pglite' : 'postgres');
  }
  return files.filter((file) => home.get(file.name) === database);
}

/**
 * Tables of tens of thousands of rows: their round trips (an import and three exports brought
 * back) took minutes on a busy machine; the round-trip test leaves them to the corpus test.
 */
export const LARGE = new Set(['csv/world-cities.csv', 'csv/worldcitiespop-sample.csv']);

/** `MAPFOLD_FULL_CORPUS=1`: the round trips of every corpus file instead of CI's sample. */
export const FULL_CORPUS = process.env.MAPFOLD_FULL_CORPUS === '1';

/**
 * Files CI's round trips always take: the largest table they bring back (3,376 rows, the size
 * the round trips ask about) and the US states with their numeric ids (the District of
 * Columbia's "11", issue 26).
 */
const ALWAYS_ROUND_TRIPPED = new Set(['csv/vega-airports.csv', 'geojson/us-states-geojson-vt.json']);

/**
 * CI's round trips: every second file of each format (the first, the third, … in corpus order,
 * by name), so each format's sources stay spread over its files, and ALWAYS_ROUND_TRIPPED;
 * deterministic, so a failure comes back on the next run.
 */
export function roundTripSample(files: CorpusFile[]): CorpusFile[] {
  const seen = new Map<Kind, number>();
  return files.filter((file) => {
    const index = seen.get(file.kind) ?? 0;
    seen.set(file.kind, index + 1);
    return index % 2 === 0 || ALWAYS_ROUND_TRIPPED.has(file.name);
  });
}
