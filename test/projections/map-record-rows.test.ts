/**
 * map_data's record rows (projections/map-record-rows.ts): rows appended to several lists in
 * one statement (two maps' locations, a map's path points and links) go after each list's own
 * last row, in the order given. The list's last row is looked up once per list before any row
 * goes in (issue 26 item 8): looked up per appended row, each lookup walked back over the rows
 * the statement had just inserted, and an import's 5,000-row part took 7 s on PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAP_RECORD_ROWS_SCHEMA, RecordRowWrites } from '../../projections/map-record-rows.js';
import { databaseTargets, type TestDatabase } from '../support/databases.js';

const records = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}` }));

describe.each(databaseTargets)('map record rows on $name', (target) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await target.open();
    await database.db.exec(MAP_RECORD_ROWS_SCHEMA);
  });
  afterAll(async () => {
    await database.dispose();
  });

  const order = async (table: 'map_locations' | 'map_paths', mapId: string, kind?: string) =>
    (
      await database.db.query<{ id: string; place: string }>(
        `SELECT id, ord::text AS place FROM ${table} WHERE map_id = $1${kind ? ' AND kind = $2' : ''} ORDER BY ord`,
        kind ? [mapId, kind] : [mapId],
      )
    ).rows.map((row) => `${row.id}@${row.place}`);

  it('appends to each list after its own last row, several lists in one statement', async () => {
    const a = records('a', 3000);
    const b = records('b', 1);
    const first = new RecordRowWrites('map_locations');
    first.rewrite('m1', '', a);
    first.rewrite('m2', '', b);
    await database.db.transaction((tx) => first.write(tx));

    const locations = new RecordRowWrites('map_locations');
    locations.add('m1', '', a, [...a, ...records('new', 1500)]);
    locations.add('m2', '', b, [...b, { id: 'x' }, { id: 'y' }]);
    locations.add('m3', '', [], [{ id: 'z' }]);
    await database.db.transaction((tx) => locations.write(tx));

    const m1 = await order('map_locations', 'm1');
    expect(m1).toHaveLength(4500);
    expect(m1.slice(2999, 3002)).toEqual(['a2999@2999', 'new0@3000', 'new1@3001']);
    expect(m1.at(-1)).toBe('new1499@4499');
    expect(await order('map_locations', 'm2')).toEqual(['b0@0', 'x@1', 'y@2']);
    expect(await order('map_locations', 'm3')).toEqual(['z@0']);

    const paths = new RecordRowWrites('map_paths');
    const nodes = records('n', 2);
    paths.rewrite('m1', 'nodes', nodes);
    await database.db.transaction((tx) => paths.write(tx));
    const more = new RecordRowWrites('map_paths');
    more.add('m1', 'nodes', nodes, [...nodes, { id: 'n9' }]);
    more.add('m1', 'edges', [], [{ id: 'e0' }, { id: 'e1' }]);
    await database.db.transaction((tx) => more.write(tx));
    expect(await order('map_paths', 'm1', 'nodes')).toEqual(['n0@0', 'n1@1', 'n9@2']);
    expect(await order('map_paths', 'm1', 'edges')).toEqual(['e0@0', 'e1@1']);
  });
});
