/**
 * map_data keeps a map's locations and path records as rows and the rest of its document in the
 * map's row (projections/map-data.ts), so an edit writes what it touched. What every reader gets
 * must not change for it: after many edits of every kind, in batches of several sizes, the
 * document read (getMapData, which the editor, export and history use; mapDocumentSql for SQL)
 * is the fold of the map's events (evolveMap) and, byte for byte, the JSON the whole-document row
 * gave before (jsonb's key order, the locations last); the same after a rebuild from the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evolveMap, initialMapState, MapEvent, type MapAggregate } from '../../events/map.js';
import { defaultSettings, emptyMapDocument, Layer, Location, type MapDocument } from '../../events/map-document.js';
import type { MapEdit } from '../../events/map-edits.js';
import type { PathNetwork } from '../../events/path-network.js';
import { comparePositions, type Position } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { getMapData, mapDataProjection, mapDocumentSql } from '../../projections/map-data.js';
import { mapsListProjection } from '../../projections/maps-list.js';
import { ProjectionRunner } from '../../projections/runner.js';
import type { NewEvent } from '../../ports/event-store.js';
import { PostgresEventStore } from '../../server/event-store/postgres-event-store.js';
import { databaseTargets, type TestDatabase } from '../support/databases.js';
import { newEvent } from '../support/events.js';

const shop = (id: string, layer: string, extra: Partial<Location> = {}) => Location.parse({ id, title: `Shop ${id}`, layer, position: { x: 10, y: 20 }, ...extra });
const node = (id: string, layer: string, x = 1) => ({ id, layer, x, y: 2 });
const noPaths = { nodes: [], edges: [], connectors: [] };
const paths = (put: Partial<PathNetwork>, removed: Partial<Record<'nodes' | 'edges' | 'connectors', string[]>> = {}): MapEdit => ({
  type: 'PathsEdited',
  put: { ...noPaths, ...put },
  removed: { ...noPaths, ...removed },
});

/**
 * Round `r` of edits of every kind, made against `document` (the fold so far), after a whole
 * document saved, imported or restored (`earlier`: a document to restore) in another order.
 */
function round(r: number, document: MapDocument, earlier: MapDocument): Array<MapEdit | { save: MapDocument }> {
  const floor = `f${r}`;
  const group = `g${r}`;
  const edits: Array<MapEdit | { save: MapDocument }> = [];
  if (r % 3 === 0) edits.push({ type: 'MapRestored', historyId: `h${r}`, revision: '1', document: earlier });
  if (r % 3 === 1) edits.push({ save: { ...document, locations: [...document.locations].reverse() } });
  if (r % 3 === 2) edits.push({ type: 'DocumentImported', document: { ...document, paths: { ...document.paths, nodes: [...document.paths.nodes].reverse() } } });
  edits.push(
    { type: 'LayerAdded', layer: Layer.parse({ id: floor, name: `Floor ${r}` }) },
    { type: 'GroupAdded', group: { id: group, name: `Group ${r}`, color: '#112233', legend: true } },
    paths({
      nodes: [node(`a${r}`, 'ground'), node(`b${r}`, 'ground', 5), node(`c${r}`, floor), node(`d${r}`, 'ground', 9)],
      edges: [
        { id: `ab${r}`, from: `a${r}`, to: `b${r}`, stepFree: true, oneWay: false },
        { id: `bd${r}`, from: `b${r}`, to: `d${r}`, stepFree: false, oneWay: true },
      ],
      connectors: [{ id: `lift${r}`, kind: 'lift', name: `Lift ${r}`, nodes: [`a${r}`, `c${r}`] }],
    }),
    { type: 'LocationAdded', location: shop(`s${r}a`, 'ground', { groups: [group], entrances: [`a${r}`] }) },
    { type: 'LocationAdded', location: shop(`s${r}b`, floor, { entrances: [`c${r}`] }) },
    { type: 'LocationAdded', location: shop(`s${r}c`, 'ground', { entrances: [`d${r}`], description: '<p>Ünïcode ✓ “quotes”</p>' }) },
    { type: 'LocationUpdated', id: `s${r}a`, changes: { title: `Café ${r}`, phone: '+1 555 0100' } },
    { type: 'LocationMoved', id: `s${r}c`, position: { x: 30 + r, y: 40 } },
    { type: 'GroupUpdated', id: group, changes: { name: `Food ${r}` } },
    { type: 'LayerRenamed', id: 'ground', name: `Ground ${r}` },
    { type: 'LayerCalibrated', id: floor, geo: { kind: 'bounds', projection: 'equirectangular', north: 50, south: 40, west: -5 - r, east: 5 } },
    { type: 'LayerFileReplaced', id: floor, file: null },
    { type: 'LayersReordered', order: [...(r % 3 === 0 ? earlier : document).layers.map((l) => l.id), floor].reverse() },
    { type: 'SettingsChanged', settings: { ...defaultSettings(), minZoom: 1 + (r % 3), defaultLayer: 'ground' } },
    { type: 'RegionStylesChanged', regions: { base: '#aabbcc', hover: `#00000${r % 10}`, active: '#ffffff' } },
    {
      type: 'ImportApplied',
      source: { format: 'csv', name: 'stores.csv', mapping: null },
      layers: [],
      groups: [{ id: `ig${r}`, name: 'Imported', color: '#445566', legend: false }],
      locations: Array.from({ length: 5 }, (_, i) => shop(`i${r}-${i}`, 'ground', { groups: [`ig${r}`] })),
      updates: [{ id: `s${r}b`, changes: { about: `Updated by import ${r}` } }],
    },
    // A point moved, a link changed, a link and a point removed (its links, stops and entrances go).
    paths({ nodes: [node(`b${r}`, 'ground', 7)], edges: [{ id: `ab${r}`, from: `a${r}`, to: `b${r}`, stepFree: false, oneWay: false }] }, { edges: [`bd${r}`] }),
    paths({}, { nodes: [`d${r}`] }),
    { type: 'LocationRemoved', id: `s${r}c` },
    { type: 'LocationsRemoved', ids: [`i${r}-1`, `i${r}-3`] },
    { type: 'GroupRemoved', id: `ig${r}` },
  );
  // Every other floor goes again, with its locations and its path points.
  if (r % 2 === 1) edits.push({ type: 'LayerRemoved', id: floor, removedLocations: [`s${r}b`] });
  return edits;
}

describe.each(databaseTargets)('map_data documents on $name', (target) => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await target.open();
    store = await PostgresEventStore.open(database.db);
  });
  afterAll(async () => {
    await store.close();
    await database.dispose();
  });

  const caughtUp = async (runner: ProjectionRunner, position: Position, batchSize: number) => {
    // One catchUp may stop short of the log's end while another database's transaction is open.
    while (comparePositions(runner.positionOf('map_data'), position) < 0) await runner.catchUp(batchSize);
  };

  /** The fold of the map's recorded events, as every decider sees the map. */
  const fold = async (mapId: string): Promise<MapDocument> => {
    let state: MapAggregate = initialMapState;
    for (const recorded of await store.readStream(streams.map(mapId))) state = evolveMap(state, MapEvent.parse({ type: recorded.type, data: recorded.data }));
    if (state.status !== 'active') throw new Error('the map is not there');
    return state.document;
  };

  /** The JSON a reader got when map_data held the whole document (without locations) as jsonb and the locations as rows. */
  const wholeRowJson = async (document: MapDocument): Promise<string> => {
    const { rows } = await database.db.query<{ data: object; locations: string | null }>(
      `SELECT ($1::jsonb - 'locations') AS data,
              (SELECT string_agg(t.value::text, ',' ORDER BY t.ord) FROM jsonb_array_elements($1::jsonb -> 'locations') WITH ORDINALITY AS t(value, ord)) AS locations`,
      [JSON.stringify(document)],
    );
    return JSON.stringify({ ...rows[0]!.data, locations: JSON.parse(`[${rows[0]!.locations ?? ''}]`) as unknown[] });
  };

  const expectRead = async (mapId: string) => {
    const expected = await fold(mapId);
    const read = await getMapData(database.db, mapId);
    expect(read!.data).toEqual(expected);
    expect(JSON.stringify(read!.data)).toBe(await wholeRowJson(expected));
    const { rows } = await database.db.query<{ same: boolean }>(`SELECT ${mapDocumentSql('d')} = $2::jsonb AS same FROM map_data d WHERE d.id = $1`, [mapId, JSON.stringify(expected)]);
    expect(rows[0]!.same).toBe(true);
  };

  it('reads back the fold of many edits of every kind, byte for byte as the whole document read, and the same after a rebuild', async () => {
    const runner = new ProjectionRunner(database.db, store, [mapsListProjection, mapDataProjection]);
    const mapIds = ['harbour', 'market'];
    const last = new Map<string, Position>();
    const documents = new Map<string, MapDocument>();
    for (const mapId of mapIds) {
      const document: MapDocument = { ...emptyMapDocument(), locations: [shop('first', 'ground'), shop('second', 'ground')] };
      const created = newEvent('MapCreated', { mapId, uid: 'ana', author: 'ana', title: 'Shops', state: 0, document, created: new Date().toISOString() }, 'ana');
      last.set(mapId, (await store.append(streams.map(mapId), [created], 'no_stream')).position);
      documents.set(mapId, document);
    }
    const batchSizes = [1, 3, 7, 500];
    let earlier = documents.get('harbour')!;
    for (let r = 0; r < 6; r++) {
      for (const [m, mapId] of mapIds.entries()) {
        const events: NewEvent[] = [];
        for (const edit of round(r + m, await fold(mapId), earlier)) {
          const edited = new Date().toISOString();
          if ('save' in edit) events.push(newEvent('MapSaved', { mapId, document: edit.save, edited }, 'ana'));
          else {
            const { type, ...fields } = edit;
            events.push(newEvent(type, { ...fields, mapId, edited }, 'ana'));
          }
          // Appended one by one: the fold reads each edit's base from the log.
          last.set(mapId, (await store.append(streams.map(mapId), events.splice(0), 'any')).position);
        }
      }
      await caughtUp(runner, [...last.values()].reduce((a, b) => (comparePositions(a, b) > 0 ? a : b)), batchSizes[r % batchSizes.length]!);
      for (const mapId of mapIds) await expectRead(mapId);
      earlier = await fold('harbour');
    }
    const document = await fold('harbour');
    expect(document.paths.nodes.length).toBeGreaterThan(4);
    expect(document.paths.connectors.length).toBeGreaterThan(0);
    expect(document.locations.length).toBeGreaterThan(10);

    const rebuild = new ProjectionRunner(database.db, store, [mapsListProjection, mapDataProjection]);
    await rebuild.resetAll();
    await caughtUp(rebuild, [...last.values()].reduce((a, b) => (comparePositions(a, b) > 0 ? a : b)), 500);
    for (const mapId of mapIds) await expectRead(mapId);
  }, 300_000);
});
