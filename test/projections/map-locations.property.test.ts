/**
 * map_data keeps a map's locations as rows (projections/map-data.ts, location-changes.ts): an
 * edit writes the rows it changed. Property: over any sequence of edits (adds, changes, moves,
 * removals one by one and many at once, imports, groups removed from locations, a floor removed
 * with its locations, whole documents saved or restored in another order), applied in batches
 * of any size, with the kept documents sometimes not usable (another process wrote the row),
 * the document read back is the fold of the events; and rebuilt from zero it is the same.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyMapDocument, Layer, Location, MapDocument } from '../../events/map-document.js';
import { applyEdit, type MapEdit } from '../../events/map-edits.js';
import { comparePositions, type Position } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { locationChanges } from '../../projections/location-changes.js';
import { mapDataProjection, mapDocumentSql } from '../../projections/map-data.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { PostgresEventStore } from '../../server/event-store/postgres-event-store.js';
import { databaseTargets, type TestDatabase } from '../support/databases.js';
import { newEvent } from '../support/events.js';

const location = (id: string, layer = 'ground', groups: string[] = []) => Location.parse({ id, title: `Shop ${id}`, layer, groups, position: { x: 10, y: 20 } });

describe('locationChanges', () => {
  const a = location('a');
  const b = location('b');
  const c = location('c');
  it('names only what changed, kept in place, and what was added at the end', () => {
    const b2 = { ...b, title: 'B' };
    expect(locationChanges([a, b, c], [a, b2, c, location('d')])).toMatchObject({ kind: 'some', changed: [b2], added: [{ id: 'd' }], removed: [] });
    expect(locationChanges([a, b, c], [a, c])).toEqual({ kind: 'some', changed: [], added: [], removed: ['b'] });
    expect(locationChanges([a, b, c], [a, b, c])).toEqual({ kind: 'some', changed: [], added: [], removed: [] });
  });
  it('rewrites every row when the order changed or a location came before an old one', () => {
    expect(locationChanges([a, b, c], [b, a, c]).kind).toBe('all');
    expect(locationChanges([a, b], [location('z'), a, b]).kind).toBe('all');
  });
});

/** One step of a scenario, turned into an edit against the document as it is then. */
type Step = { op: number; pick: number; flag: boolean };

function editFor(document: MapDocument, step: Step, counter: { n: number }): MapEdit | { save: MapDocument } | null {
  const locations = document.locations;
  const some = locations.length > 0 ? locations[step.pick % locations.length]! : null;
  const groupIds = document.groups.map((g) => g.id);
  const layerIds = document.layers.map((l) => l.id);
  const fresh = () => `l${++counter.n}`;
  switch (step.op) {
    case 0:
      return { type: 'LocationAdded', location: location(fresh(), layerIds[step.pick % layerIds.length]!, step.flag && groupIds[0] ? [groupIds[0]] : []) };
    case 1:
      return some && { type: 'LocationUpdated', id: some.id, changes: { title: `Title ${counter.n++}`, ...(step.flag ? { about: 'changed' } : {}) } };
    case 2:
      return some && { type: 'LocationMoved', id: some.id, position: { x: step.pick % 500, y: 7 } };
    case 3:
      return some && { type: 'LocationRemoved', id: some.id };
    case 4: {
      const ids = locations.filter((_, i) => (i + step.pick) % 3 === 0).map((l) => l.id);
      return ids.length > 0 ? { type: 'LocationsRemoved', ids } : null;
    }
    case 5: {
      const count = 1 + (step.pick % 70);
      const added = Array.from({ length: count }, () => location(fresh()));
      const updates = some ? [{ id: some.id, changes: { phone: '+1 555 0100' } }] : [];
      return { type: 'ImportApplied', source: { format: 'csv', name: 'stores.csv', mapping: null }, layers: [], groups: [], locations: added, updates };
    }
    case 6: {
      if (groupIds.length === 0) return { type: 'GroupAdded', group: { id: `g${++counter.n}`, name: 'Food', color: '#ff0000', legend: true } };
      return step.flag ? { type: 'GroupRemoved', id: groupIds[0]! } : { type: 'GroupAdded', group: { id: `g${++counter.n}`, name: 'More', color: '#00ff00', legend: true } };
    }
    case 7:
      if (layerIds.length < 2) return { type: 'LayerAdded', layer: Layer.parse({ id: `f${++counter.n}`, name: 'Upper' }) };
      return step.flag ? { type: 'LayerRemoved', id: layerIds[layerIds.length - 1]!, removedLocations: locations.filter((l) => l.layer === layerIds[layerIds.length - 1]).map((l) => l.id) } : null;
    case 8:
      // A whole document restored with its locations in another order.
      return { type: 'MapRestored', historyId: 'h1', revision: '1', document: { ...document, locations: [...locations].reverse() } };
    default:
      // A whole document saved (MapSaved), one location fewer.
      return { save: { ...document, locations: locations.slice(1) } };
  }
}

describe.each(databaseTargets)('map_data location rows on $name', (target) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let maps = 0;

  beforeAll(async () => {
    database = await target.open();
    store = await PostgresEventStore.open(database.db);
    await database.db.exec(mapDataProjection.schema);
  });
  afterAll(async () => {
    await store.close();
    await database.dispose();
  });

  /**
   * Catches up to `position`: one catchUp may stop short of the log's end while a transaction
   * of another database on the server is open (the store reads below the cluster's oldest one).
   */
  const caughtUp = async (runner: ProjectionRunner, position: Position, batchSize: number) => {
    while (comparePositions(runner.positionOf('map_data'), position) < 0) {
      await runner.catchUp(batchSize);
      if (comparePositions(runner.positionOf('map_data'), position) < 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  const documentOf = async (mapId: string) => {
    const { rows } = await database.db.query<{ data: unknown }>(`SELECT ${mapDocumentSql('d')} AS data FROM map_data d WHERE d.id = $1`, [mapId]);
    return MapDocument.parse(rows[0]!.data);
  };

  it('reads back the fold of any edits, in batches of any size, and the same after a rebuild', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ op: fc.nat(9), pick: fc.nat(1000), flag: fc.boolean() }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 25 }),
        async (steps, batchSizes, forget) => {
          const mapId = `m${++maps}`;
          const counter = { n: 0 };
          let document: MapDocument = { ...emptyMapDocument(), locations: [location('a'), location('b'), location('c')] };
          const created = newEvent('MapCreated', { mapId, uid: 'ana', author: 'ana', title: 'Shops', state: 0, document, created: new Date().toISOString() }, 'ana');
          let last = (await store.append(streams.map(mapId), [created], 'no_stream')).position;
          const runner = new ProjectionRunner(database.db, store, [mapDataProjection]);
          const edited = new Date().toISOString();
          for (const [i, step] of steps.entries()) {
            const edit = editFor(document, step, counter);
            if (!edit) continue;
            let event;
            if ('save' in edit) event = newEvent('MapSaved', { mapId, document: edit.save, edited }, 'ana');
            else {
              const { type, ...fields } = edit;
              event = newEvent(type, { ...fields, mapId, edited }, 'ana');
            }
            document = 'save' in edit ? edit.save : applyEdit(document, edit);
            last = (await store.append(streams.map(mapId), [event], 'any')).position;
            if (i % 2 === 0 || i === steps.length - 1) {
              // Another process (or a rollback) wrote the row: the kept document must not be used.
              if (forget[i % forget.length]) await database.db.query(`UPDATE map_data SET token = 'elsewhere' WHERE id = $1`, [mapId]);
              await runner.catchUp(batchSizes[i % batchSizes.length]);
            }
          }
          await caughtUp(runner, last, 1);
          const expected = MapDocument.parse(document);
          expect(await documentOf(mapId)).toEqual(expected);
          const { rows } = await database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM map_locations WHERE map_id = $1', [mapId]);
          expect(Number(rows[0]!.n)).toBe(expected.locations.length);

          // Rebuilt from the events, in big batches: the same document.
          const rebuild = new ProjectionRunner(database.db, store, [mapDataProjection]);
          await rebuild.resetAll();
          await caughtUp(rebuild, last, 500);
          expect(await documentOf(mapId)).toEqual(expected);
        },
      ),
      { numRuns: target.name === 'pglite' ? 25 : 15 },
    );
  }, 300_000);
});
