/**
 * The newest state of a map kept in memory between commands (server/history/map-history.ts):
 * a kept state plus the stream's tail must always be the map now, whoever appended the tail
 * (another process: here a second MapHistory on the same database), and snapshots are still
 * kept on the way for processes that start cold.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { emptyMapDocument } from '../../events/map-document.js';
import type { MapEvent } from '../../events/map.js';
import { streams } from '../../events/streams.js';
import { MapHistory, SNAPSHOT_EVERY } from '../../server/history/map-history.js';
import { eventStoreTargets, type TestEventStore } from '../support/event-stores.js';
import { newEvent } from '../support/events.js';

const at = '2026-11-24T10:00:00.000Z';

for (const target of eventStoreTargets.filter((t) => t.name !== 'kurrentdb')) {
  describe(`the newest map state kept between commands, on ${target.name}`, () => {
    let opened: TestEventStore | null = null;
    afterEach(async () => {
      await opened?.dispose();
      opened = null;
    });

    const saved = (mapId: string, title: string): MapEvent => ({ type: 'MapSaved', data: { mapId, title, edited: at } });
    const append = (store: TestEventStore, mapId: string, events: MapEvent[]) =>
      store.store.append(streams.map(mapId), events.map((event) => newEvent(event.type, event.data)), 'any');
    const titleOf = (state: Awaited<ReturnType<MapHistory['stateAt']>>['state']) => (state.status === 'active' ? state.title : null);

    it('sees what another process appended after it kept the state, and reads old revisions as they were', async () => {
      opened = await target.open();
      const db = opened.database!.db;
      const [here, there] = [await MapHistory.open(db, opened.store), await MapHistory.open(db, opened.store)];
      const mapId = `${opened.prefix}m1`;
      await append(opened, mapId, [
        { type: 'MapCreated', data: { mapId, uid: 'ada', author: 'ada', title: 'One', state: 0, document: emptyMapDocument(), created: at } },
      ]);
      expect(titleOf((await here.stateAt(mapId)).state)).toBe('One');
      await append(opened, mapId, [saved(mapId, 'Two'), saved(mapId, 'Three')]);
      expect(await here.stateAt(mapId)).toMatchObject({ revision: 2n, state: { title: 'Three', revision: 2 } });
      expect(await there.stateAt(mapId)).toMatchObject({ revision: 2n, state: { title: 'Three' } });
      expect(titleOf((await here.stateAt(mapId, 1n)).state)).toBe('Two');
      await append(opened, mapId, [saved(mapId, 'Four')]);
      expect(titleOf((await here.stateAt(mapId)).state)).toBe('Four');
    });

    it('keeps snapshots when the tail it folds crosses a snapshot revision', async () => {
      opened = await target.open();
      const db = opened.database!.db;
      const history = await MapHistory.open(db, opened.store);
      const mapId = `${opened.prefix}m2`;
      await append(opened, mapId, [
        { type: 'MapCreated', data: { mapId, uid: 'ada', author: 'ada', title: 'T0', state: 0, document: emptyMapDocument(), created: at } },
      ]);
      await history.stateAt(mapId);
      await append(opened, mapId, Array.from({ length: SNAPSHOT_EVERY + 10 }, (_, i) => saved(mapId, `T${i + 1}`)));
      expect(titleOf((await history.stateAt(mapId)).state)).toBe(`T${SNAPSHOT_EVERY + 10}`);
      const { rows } = await db.query<{ revision: string }>('SELECT revision::text AS revision FROM map_snapshots WHERE map_id = $1', [mapId]);
      expect(rows.map((row) => row.revision)).toEqual([String(SNAPSHOT_EVERY - 1)]);
    });

    it('does not take a map never written for one', async () => {
      opened = await target.open();
      const history = await MapHistory.open(opened.database!.db, opened.store);
      await expect(history.stateAt(`${opened.prefix}none`)).rejects.toThrow('There is no such revision of this map.');
    });
  });
}
