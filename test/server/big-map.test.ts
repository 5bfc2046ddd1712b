/**
 * A 25,000-location map end to end (issue 19, many points), over HTTP on a real database: the
 * store-chain fixture (25,000 real GeoNames places, test/fixtures/import/csv/SOURCES.md; a third
 * of them on PostgreSQL, see chainFor) imported
 * onto the built-in world map, its stores at their latitude/longitude on the world's calibrated
 * floor; the history in words; one location's edit changing exactly one row of the read model;
 * the read model rebuilt from the events equal to the one built as they came; and the import
 * undone as the editor undoes it (the inverse of its events, sent with editMap).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorToGeo } from '../../events/geo-calibration.js';
import { comparePositions, parsePosition } from '../../events/position.js';
import { editOf, isEditEvent, MapEvent } from '../../events/map.js';
import { MapDocument } from '../../events/map-document.js';
import { invertEdit } from '../../events/map-edit-inverse.js';
import { applyEdit, IMPORT_CHUNK, type MapEdit } from '../../events/map-edits.js';
import { streams } from '../../events/streams.js';
import { allProjections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { databaseTargets } from '../support/databases.js';
import { mapImports } from '../support/map-imports.js';
import { KNOWN_STORES, storeChainCsv, STORE_CHAIN_ROWS } from '../support/store-chain.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/**
 * The whole chain on PGlite, the embedded database whose server does the work; on PostgreSQL
 * every third store and the known ones, still an import of two parts with a row per location:
 * the size is the import's and the projection's question, answered once, and the whole chain
 * took a minute on each database.
 */
function chainFor(target: (typeof databaseTargets)[number]): { csv: string; rows: number } {
  const whole = storeChainCsv();
  if (target.name === 'pglite') return { csv: whole, rows: STORE_CHAIN_ROWS };
  const known = new Set<string>(KNOWN_STORES.map((store) => store.id));
  const [header, ...lines] = whole.trimEnd().split('\n');
  const kept = lines.filter((line, index) => index % 3 === 0 || known.has(line.slice(0, line.indexOf(','))));
  return { csv: [header, ...kept].join('\n'), rows: kept.length };
}

describe.each(databaseTargets)('a 25,000-location map on $name', (target) => {
  const chain = chainFor(target);
  const parts = Math.ceil(chain.rows / IMPORT_CHUNK);
  let server: TestServer;
  let owner: TestUser;
  let mapId: string;
  let world: MapDocument;

  beforeAll(async () => {
    // The production body limit: the world map's document is sent whole to createMap.
    server = await startTestServer(target, { env: { BODY_LIMIT: String(2 * 1024 * 1024) } });
    owner = await registerUser(server);
    const instantiated = await fetch(`${server.url}/api/templates/world/instantiate`, { method: 'POST', headers: { cookie: owner.cookie } });
    world = MapDocument.parse(((await instantiated.json()) as { result: unknown }).result);
    mapId = await createMap('Store chain', world);
  }, 120_000);
  afterAll(() => server.close());

  const { createMap, documentOf, importFile } = mapImports(() => server, () => owner);
  const ok = async (name: string, data: unknown) => {
    const answer = await call(server, name, data, owner);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    return answer.body as { result: unknown; position: string };
  };
  const locationRows = async () => {
    const { rows } = await server.database.db.query<{ id: string; data: string }>('SELECT id, data::text AS data FROM map_locations WHERE map_id = $1', [mapId]);
    return new Map(rows.map((row) => [row.id, row.data]));
  };

  it(`imports the ${chain.rows.toLocaleString('en')} stores onto the world map, each at its latitude/longitude, grouped by format`, async () => {
    expect(parts).toBeGreaterThan(1);
    const csv = chain.csv;
    const preview = await importFile(mapId, csv, 'stores.csv', 'text/csv', false);
    expect(preview.mapping).toMatchObject({ id: 'store_id', title: 'name', lat: 'latitude', lng: 'longitude', groups: 'category' });
    expect(preview.counts).toMatchObject({ locations: chain.rows, skipped: 0, layers: 0, groups: 3 });
    await importFile(mapId, csv, 'stores.csv', 'text/csv');

    const imported = await documentOf(mapId);
    expect(imported.locations).toHaveLength(world.locations.length + chain.rows);
    // The world's own floor, calibrated: no floor of its own for the import.
    expect(imported.layers.map((l) => l.id)).toEqual(world.layers.map((l) => l.id));
    const floor = imported.layers[0]!;
    expect(floor.geo).toBeDefined();
    const size = { width: floor.file?.width ?? imported.settings.size.width, height: floor.file?.height ?? imported.settings.size.height };
    const groupName = new Map(imported.groups.map((g) => [g.id, g.name]));
    for (const known of KNOWN_STORES) {
      const store = imported.locations.find((l) => l.id === known.id);
      expect(store, known.id).toBeDefined();
      expect(store!).toMatchObject({ title: known.name, layer: floor.id });
      expect(store!.about).toBe(`${known.name}, ${known.country}`);
      expect(store!.groups.map((g) => groupName.get(g))).toEqual([known.category]);
      const place = floorToGeo(floor.geo!, size, store!.position!)!;
      expect(place.lat).toBeCloseTo(known.lat, 3);
      expect(place.lng).toBeCloseTo(known.lng, 3);
    }
    expect((await locationRows()).size).toBe(imported.locations.length);

    // The history tells the import's events as the parts of one import.
    const timeline = await fetch(`${server.url}/api/maps/${mapId}/timeline?limit=10`, { headers: { cookie: owner.cookie } });
    const summaries = ((await timeline.json()) as { result: { items: Array<{ summary: string }> } }).result.items.map((item) => item.summary);
    const last = chain.rows - IMPORT_CHUNK * (parts - 1);
    expect(summaries).toContain(`Test User imported 5,000 locations and 3 groups from “stores.csv” (part 1 of ${parts})`);
    expect(summaries).toContain(`Test User imported ${last.toLocaleString('en')} locations from “stores.csv” (part ${parts} of ${parts})`);
  }, 300_000);

  it('an edit of one store changes exactly that row of the read model', async () => {
    const before = await locationRows();
    const edited = await ok('editMap', { id: mapId, edits: [{ type: 'LocationUpdated', id: 'S00141', changes: { title: 'Paris Rivoli', phone: '+33 1 40 00 00 00' } }] });
    await projected(server, edited.position);
    const after = await locationRows();
    expect(after.size).toBe(before.size);
    const changed = [...after].filter(([id, data]) => before.get(id) !== data).map(([id]) => id);
    expect(changed).toEqual(['S00141']);
    expect(JSON.parse(after.get('S00141')!)).toMatchObject({ title: 'Paris Rivoli', phone: '+33 1 40 00 00 00', about: 'Paris, France' });
  }, 120_000);

  it('rebuilt from its events, the read model is the one built as they came', async () => {
    const built = await documentOf(mapId);
    const { rows } = await server.database.db.query<{ position: string }>(`SELECT commit_position::text || ':' || prepare_position::text AS position FROM projection_checkpoints WHERE name = 'map_data'`);
    const end = parsePosition(rows[0]!.position);
    await server.runner.stop();
    try {
      const rebuild = new ProjectionRunner(server.database.db, server.services.store, allProjections);
      await rebuild.resetAll();
      // One catchUp may stop short while another database's transaction is open on the server.
      while (comparePositions(rebuild.positionOf('map_data'), end) < 0) await rebuild.catchUp(1000);
      expect(await documentOf(mapId)).toEqual(built);
    } finally {
      await server.runner.start();
    }
  }, 300_000);

  it('undoes the import as the editor does: the inverse of its events, in editMap calls of 500 edits', async () => {
    const recorded = await server.services.store.readStream(streams.map(mapId));
    let document = world;
    const inverses: MapEdit[][] = [];
    for (const event of recorded.map((r) => MapEvent.parse({ type: r.type, data: r.data }))) {
      if (!isEditEvent(event)) continue;
      const edit = editOf(event);
      if (edit.type === 'ImportApplied') inverses.push(invertEdit(document, edit));
      document = applyEdit(document, edit);
    }
    expect(inverses).toHaveLength(parts);
    const undo = inverses.reverse().flat();
    let position = '';
    for (let start = 0; start < undo.length; start += 500) position = (await ok('editMap', { id: mapId, edits: undo.slice(start, start + 500) })).position;
    await projected(server, position);
    const undone = await documentOf(mapId);
    expect(undone.locations).toEqual(world.locations);
    expect(undone.groups).toEqual(world.groups);
    expect((await locationRows()).size).toBe(world.locations.length);
  }, 300_000);
});
