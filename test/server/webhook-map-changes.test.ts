/**
 * A map's edits waiting for the webhooks' map.changed (server/webhooks/webhook-deliveries.ts):
 * each edit adds its location ids to the map's waiting change in one statement (it was a read
 * and a write for every edit of every map, issue 26 item 5), the ids in the order first seen and
 * each once as the worker reads them, the window kept from the first change.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../ports/database.js';
import { dueMapChanges, noteMapChange, WEBHOOK_OUTBOX_SCHEMA } from '../../server/webhooks/webhook-deliveries.js';
import { databaseTargets, type TestDatabase } from '../support/databases.js';

describe.each(databaseTargets)('waiting map changes on $name', (target) => {
  let database: TestDatabase;
  let db: Database;
  let queries = 0;

  beforeEach(async () => {
    database = await target.open();
    await database.db.exec(WEBHOOK_OUTBOX_SCHEMA);
    queries = 0;
    const inner = database.db;
    db = { ...inner, kind: inner.kind, query: (sql, params) => (queries++, inner.query(sql, params)), exec: (sql) => inner.exec(sql), transaction: inner.transaction.bind(inner), listen: inner.listen.bind(inner), openLockSession: inner.openLockSession.bind(inner), close: () => inner.close() };
  });
  afterEach(() => database.dispose());

  it('adds each edit in one statement, the ids in the order first seen, the window from the first change', async () => {
    const at = new Date('2026-11-30T10:00:00.000Z');
    const note = (eventId: string, locationIds: string[], minutes: number) =>
      noteMapChange(db, { mapId: 'm1', eventId, position: `1:${minutes}`, at: new Date(at.getTime() + minutes * 60_000), locationIds, windowMs: 60_000 });
    await note('evt_1', ['b', 'a', 'b'], 0);
    await note('evt_2', ['c', 'a'], 0.5);
    await note('evt_3', ['d', 'b'], 0.75);
    expect(queries).toBe(3);
    expect(await dueMapChanges(db, new Date(at.getTime() + 59_000))).toEqual([]);
    expect(await dueMapChanges(db, new Date(at.getTime() + 60_000))).toEqual([
      { mapId: 'm1', eventId: 'evt_1', position: '1:0', firstChange: at, locationIds: ['b', 'a', 'c', 'd'] },
    ]);
  });

  it('adds an edit’s ids without going over the ids noted before (a big import’s parts)', async () => {
    // The statement of each part reads none of the ids the window holds: the rows' ids are
    // added at the end, and the reader gives each once (issue 26 item 8: grouping them all at
    // every part held PGlite 70-240 ms a part of a 100,000-row import).
    const at = new Date('2026-11-30T10:00:00.000Z');
    const parts = Array.from({ length: 4 }, (_, part) => Array.from({ length: 500 }, (_, i) => `store-${part * 400 + i}`));
    for (const [part, ids] of parts.entries()) await noteMapChange(db, { mapId: 'big', eventId: `evt_${part}`, position: `2:${part}`, at, locationIds: ids, windowMs: 60_000 });
    const stored = await db.query<{ count: number }>(`SELECT jsonb_array_length(location_ids) AS count FROM webhook_map_changes WHERE map_id = 'big'`);
    expect(Number(stored.rows[0]!.count)).toBe(4 * 500);
    const [due] = await dueMapChanges(db, new Date(at.getTime() + 60_000));
    expect(due!.locationIds).toEqual(Array.from({ length: 3 * 400 + 500 }, (_, i) => `store-${i}`));
    expect(due!.eventId).toBe('evt_0');
  });
});
