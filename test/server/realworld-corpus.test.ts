/**
 * The real-world corpus (issue 28): every file of test/fixtures/realworld/ (taken whole from
 * public repositories, SOURCES.md) goes through `POST /api/maps/{id}/import` on one shared
 * PGlite server, as a new user would send it: previewed, then applied to a map of its own.
 *
 * What is checked is read from the file itself, not from what the importer made of it:
 * - every feature, placemark, row, store or Mapplic location comes in, or is listed as skipped
 *   with a reason (`counts.locations + counts.skipped` = what the file holds);
 * - the applied map holds as many locations as the preview promised;
 * - names the file gives (a feature's `name`, a placemark's `<name>`, a store's `name`, a
 *   Mapplic location's `title`) are locations' titles afterwards;
 * - a named point (a GeoJSON or KML Point, a store with a latitude and longitude) sits on its
 *   floor within 2 of the floor's units of where the floor's calibration puts the file's place;
 * - a Mapplic location whose id is an element of its floor's drawing is linked to it, and an
 *   SVG's regions taken as locations are linked to their elements;
 * - the service's projections still run afterwards: `/api/ready` answers, and sets no stream of
 *   the map aside (`degraded` names it otherwise).
 *
 * Files that fail today are listed in KNOWN_FAILURES with why (issue 28): their tests are
 * `it.fails`, so one that starts passing fails the run until its entry is taken out.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectToFloor } from '../../events/geo-calibration.js';
import type { MapDocument } from '../../events/map-document.js';
import type { ImportPreview } from '../../events/map-import.js';
import { streams } from '../../events/streams.js';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const ROOT = path.resolve(import.meta.dirname, '../fixtures/realworld');

type Kind = 'csv' | 'geojson' | 'kml' | 'store-locator' | 'svg' | 'mapplic';

interface CorpusFile {
  /** Its path under test/fixtures/realworld, as SOURCES.md names it. */
  name: string;
  kind: Kind;
  /** Files sent with it (a Mapplic map's floor drawings): those beside it in its own folder. */
  attachments: string[];
}

/**
 * Files that do not come in whole today, and why (issue 28). Each is still imported; its test is
 * expected to fail, so fixing the importer shows up here as a test to take off this list.
 */
const KNOWN_FAILURES: Record<string, string> = {
  'csv/rust-csv-strange-semicolon.csv': 'no header row (its first line is a wrestler and a year) and no column that looks like names: read whole now (backslash-escaped quotes), but no row has a title unless a column is chosen',
};

/**
 * Files with little or nothing a map could place: most items lack a position (and an address)
 * or a name in the file itself. They need not bring in most of their items, only say of each
 * item left out why.
 */
const NOTHING_TO_PLACE = new Set([
  'csv/papaparse-utf8-bom.csv', // a header A,B,C and one row X,Y,Z
  'geojson/feature-null-geometry-geojson-vt.json', // one feature, geometry null
  'geojson/geojsonhint-nullgeometry.geojson', // one feature, geometry null
  'kml/togeojson-multigeometry.kml', // one placemark made of lines only
  'kml/togeojson-nogeomplacemark.kml', // one placemark without geometry
  // A Google location history: 8 of its 15 placemarks are time spans ("Walking") with empty <coordinates> and an empty <address>,
  // 2 are tracks (lines); its 5 places (2 with an address) come in, the 10 others are counted as skipped, each with why.
  'kml/togeojson-addresses.kml',
]);

const KINDS: Record<string, Kind> = { csv: 'csv', geojson: 'geojson', kml: 'kml', 'store-locator': 'store-locator', svg: 'svg', mapplic: 'mapplic' };

/** Every corpus file: the folders by format, a Mapplic map's folder with its drawings, and the older SVG at the top. */
function corpus(): CorpusFile[] {
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
const contentTypeOf = (name: string) => CONTENT_TYPES[name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What the file holds, read without the importer: how many things to import (null: the importer decides) and the names it gives them. */
interface Expected {
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

function expectedOf(file: CorpusFile, bytes: Buffer): Expected {
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
function hasTitle(titles: Set<string>, shortened: string[], title: string): boolean {
  if (titles.has(title)) return true;
  return shortened.some((prefix) => title.startsWith(prefix));
}

const target = databaseTargets.find((candidate) => candidate.name === 'pglite')!;

describe('the real-world import corpus (test/fixtures/realworld)', () => {
  let server: TestServer;
  let owner: TestUser;
  let imports = 0;

  beforeAll(async () => {
    server = await startTestServer(target, { env: { IMPORT_LIMIT: String(32 * 1024 * 1024), UPLOAD_LIMIT: String(16 * 1024 * 1024) } });
    owner = await registerUser(server);
  }, 60_000);
  afterAll(() => server?.close());

  /** The owner, a new one once this one nears the 200 imports an hour an account may send. */
  async function importer(): Promise<TestUser> {
    imports += 2;
    if (imports > 150) {
      owner = await registerUser(server);
      imports = 2;
    }
    return owner;
  }

  /** Sends the file (with its drawings, as a form) to the import; answers the status and the preview or the refusal's words. */
  async function send(mapId: string, file: CorpusFile, user: TestUser, apply: boolean): Promise<{ status: number; result?: ImportPreview; message?: string }> {
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

  /** The preview or apply answer, or a failure with the import's own words. */
  async function accepted(mapId: string, file: CorpusFile, user: TestUser, apply: boolean): Promise<ImportPreview> {
    const answer = await send(mapId, file, user, apply);
    if (answer.status !== 200 || !answer.result) throw new Error(`${apply ? 'apply' : 'preview'} answered ${answer.status}: ${answer.message ?? '(no message)'}`);
    return answer.result;
  }

  async function documentOf(mapId: string, user: TestUser): Promise<MapDocument> {
    const response = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: user.cookie } });
    return ((await response.json()) as { result: { data: MapDocument } }).result.data;
  }

  async function importWhole(file: CorpusFile) {
    const bytes = readFileSync(path.join(ROOT, file.name));
    const expected = expectedOf(file, bytes);
    const user = await importer();
    const made = await call(server, 'createMap', { title: `Corpus: ${file.name}` }, user);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await projected(server, made.body.position);
    const mapId = made.body.result as string;
    try {
      await importInto(mapId, file, user, expected);
    } finally {
      // An account has two free test maps: each file's goes once it is checked.
      const deleted = await call(server, 'deleteMap', { id: mapId }, user);
      if (deleted.status === 200 && deleted.body.position) await projected(server, deleted.body.position);
    }
  }

  async function importInto(mapId: string, file: CorpusFile, user: TestUser, expected: Expected) {
    const preview = await accepted(mapId, file, user, false);
    const { counts } = preview;
    // A file that is not UTF-8 is read as Windows-1252, and the preview says so.
    if (file.name.includes('latin1')) expect(preview.problems.map((problem) => problem.message).join(' '), `${file.name}: the preview names the encoding`).toMatch(/read as Windows-1252/);
    // Items the problems name by number: left out by the parser (no geometry), or drawn but not made locations (lines).
    const named = new Set(preview.problems.map((problem) => problem.row).filter((row): row is number => row !== null));
    if (expected.items !== null) {
      // Counts in = counts out: every item comes in, or is counted as skipped, or is named in a problem.
      const missing = expected.items - counts.locations - counts.skipped;
      expect(missing, `${file.name}: ${counts.locations} locations and ${counts.skipped} skipped of ${expected.items} in the file (problems: ${JSON.stringify(preview.problems.slice(0, 5))})`).toBeGreaterThanOrEqual(0);
      expect(named.size, `${file.name}: ${missing} items neither imported nor skipped, ${named.size} rows named in problems`).toBeGreaterThanOrEqual(missing);
      // Features the parser makes no location of (no geometry, lines) are counted as skipped too: the counts add up.
      if (file.kind === 'geojson' || file.kind === 'kml') expect(missing, `${file.name}: items neither imported nor counted as skipped`).toBe(0);
    }
    if (!NOTHING_TO_PLACE.has(file.name) && expected.items !== 0) {
      // Something comes in, and (where the file says how many) most of it: a file that lists places is not a file of problems.
      const most = expected.items === null ? 1 : Math.ceil(expected.items / 2);
      expect(counts.locations, `${file.name}: locations of ${expected.items ?? 'the drawing’s regions'} (problems: ${JSON.stringify(preview.problems.slice(0, 3))})`).toBeGreaterThanOrEqual(most);
    }
    expect(preview.problemCount, `${file.name}: each row left out has a problem`).toBeGreaterThanOrEqual(Math.min(counts.skipped, 1));
    for (const row of preview.sample.filter((sample) => sample.skipped !== null)) expect(row.skipped, `${file.name}: row ${row.row} is left out with a reason`).not.toBe('');
    if (file.kind === 'svg') {
      const selected = preview.regions.filter((region) => region.selected).length;
      expect(counts.locations + counts.skipped, `${file.name}: every ticked region is a location`).toBe(selected);
    }

    if (counts.locations === 0 && expected.items !== null && expected.items > 0 && named.size >= expected.items) {
      // Nothing to import, each item left out with its reason: the apply may refuse, saying so.
      const refused = await send(mapId, file, user, true);
      if (refused.status !== 200) expect(refused.message, `${file.name}: the refusal says why`).toMatch(/nothing in it can be imported \(.+\)/);
    } else {
      await appliedWhole(mapId, file, user, expected, preview, named);
    }

    // The projections run on: none set this map's stream aside (another file's would show in the status too, so only this map's counts here).
    const ready = (await (await fetch(`${server.url}/api/ready`)).json()) as { status: string; setAside?: Array<{ by: string; stream: string; error: string }> };
    expect(ready.status, `${file.name}: /api/ready after the import`).not.toBe('unavailable');
    const setAside = (ready.setAside ?? []).filter((entry) => entry.stream === streams.map(mapId));
    expect(setAside.map((entry) => `${entry.by}: ${entry.error}`), `${file.name}: projections that set the map aside`).toEqual([]);
  }

  async function appliedWhole(mapId: string, file: CorpusFile, user: TestUser, expected: Expected, preview: ImportPreview, named: Set<number>) {
    const { counts } = preview;
    const applied = await accepted(mapId, file, user, true);
    expect(applied.revision, `${file.name}: the apply recorded a revision`).not.toBeNull();
    expect(applied.counts).toEqual(counts);
    const document = await documentOf(mapId, user);
    expect(document.locations.length, `${file.name}: the map holds what the preview promised`).toBe(counts.locations);

    // Titles kept, of the items that came in (an item a problem names may have been left out).
    const titles = new Set(document.locations.map((location) => clean(location.title)));
    const shortened = [...titles].filter((title) => title.endsWith('…')).map((title) => title.slice(0, -1));
    const missing = expected.titles.filter(({ row, title }) => !named.has(row) && !hasTitle(titles, shortened, title)).map(({ title }) => title);
    expect(missing.slice(0, 10), `${file.name}: ${missing.length} of ${expected.titles.length} names in the file are no location's title`).toEqual([]);

    // Points where the file puts them: each named point, projected onto its floor as the floor's calibration says, within 2 of the floor's units of where the location sits.
    const off: string[] = [];
    let placed = 0;
    for (const location of document.locations) {
      const sources = expected.points.get(clean(location.title));
      const layer = document.layers.find((candidate) => candidate.id === location.layer);
      if (!sources || sources.length !== 1 || !location.position || !layer?.geo || !layer.file) continue;
      const where = projectToFloor(layer.geo, { width: layer.file.width, height: layer.file.height }, sources[0]!);
      if (!where) continue;
      placed++;
      const distance = Math.hypot(where.x - location.position.x, where.y - location.position.y);
      if (distance > 2) off.push(`${location.title}: ${distance.toFixed(1)} units off`);
    }
    expect(off.slice(0, 10), `${file.name}: ${off.length} of ${placed} named points are not where the file puts them`).toEqual([]);

    // Regions the file names are linked.
    const linked = document.locations.filter((location) => location.element).length;
    if (expected.linkable !== undefined) expect(linked, `${file.name}: Mapplic locations whose id is an element of their floor`).toBeGreaterThanOrEqual(expected.linkable);
    if (file.kind === 'svg') expect(linked, `${file.name}: each region taken is linked to its element`).toBe(document.locations.length);
  }

  const files = corpus();

  it('holds at least 60 files, 6 of each format, and the known failures name files that exist', () => {
    expect(files.length + files.reduce((sum, file) => sum + file.attachments.length, 0)).toBeGreaterThanOrEqual(60);
    const byKind = new Map<Kind, number>();
    for (const file of files) byKind.set(file.kind, (byKind.get(file.kind) ?? 0) + 1);
    for (const kind of Object.values(KINDS)) expect(byKind.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(kind === 'mapplic' ? 5 : 6);
    for (const name of [...Object.keys(KNOWN_FAILURES), ...NOTHING_TO_PLACE]) expect(files.some((file) => file.name === name), name).toBe(true);
  });

  for (const file of files) {
    const reason = KNOWN_FAILURES[file.name];
    const title = reason ? `${file.name} (known failure, issue 28: ${reason})` : `${file.name} comes in whole`;
    (reason ? it.fails : it)(title, () => importWhole(file), 120_000);
  }
});
