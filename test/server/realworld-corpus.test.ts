/**
 * The real-world corpus (issue 28): every file of test/fixtures/realworld/ (taken whole from
 * public repositories, SOURCES.md) goes through `POST /api/maps/{id}/import` on one shared
 * server a database (PGlite, and PostgreSQL when DATABASE_URL is set: each file on one of them,
 * every format on both, or every file on each with MAPFOLD_FULL_CORPUS=1; corpusImportedOn in
 * test/support/realworld-corpus.ts), as a new user would send it: previewed, then applied to a
 * map of its own.
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
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectToFloor } from '../../events/geo-calibration.js';
import type { ImportPreview } from '../../events/map-import.js';
import { streams } from '../../events/streams.js';
import { databaseTargets } from '../support/databases.js';
import { corpus, corpusDocumentOf, corpusImportedOn, expectedOf, hasTitle, clean, KINDS, ROOT, sendCorpusFile, type CorpusFile, type Expected, type Kind } from '../support/realworld-corpus.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

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
describe.each(databaseTargets)('the real-world import corpus (test/fixtures/realworld) on $name', (target) => {
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

  const send = (mapId: string, file: CorpusFile, user: TestUser, apply: boolean) => sendCorpusFile(server, mapId, file, user, apply);
  const documentOf = (mapId: string, user: TestUser) => corpusDocumentOf(server, mapId, user);

  /** The preview or apply answer, or a failure with the import's own words. */
  async function accepted(mapId: string, file: CorpusFile, user: TestUser, apply: boolean): Promise<ImportPreview> {
    const answer = await send(mapId, file, user, apply);
    if (answer.status !== 200 || !answer.result) throw new Error(`${apply ? 'apply' : 'preview'} answered ${answer.status}: ${answer.message ?? '(no message)'}`);
    return answer.result;
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

  const files = corpusImportedOn(target.name, databaseTargets.map((each) => each.name));

  it('holds at least 60 files, 6 of each format, and the known failures name files that exist', () => {
    const all = corpus();
    expect(all.length + all.reduce((sum, file) => sum + file.attachments.length, 0)).toBeGreaterThanOrEqual(60);
    const byKind = new Map<Kind, number>();
    for (const file of all) byKind.set(file.kind, (byKind.get(file.kind) ?? 0) + 1);
    for (const kind of Object.values(KINDS)) expect(byKind.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(kind === 'mapplic' ? 5 : 6);
    for (const name of [...Object.keys(KNOWN_FAILURES), ...NOTHING_TO_PLACE]) expect(all.some((file) => file.name === name), name).toBe(true);
  });

  it('imports each format on this database', () => {
    for (const kind of Object.values(KINDS)) expect(files.some((file) => file.kind === kind), kind).toBe(true);
  });

  for (const file of files) {
    const reason = KNOWN_FAILURES[file.name];
    const title = reason ? `${file.name} (known failure, issue 28: ${reason})` : `${file.name} comes in whole`;
    (reason ? it.fails : it)(title, () => importWhole(file), 120_000);
  }
});
