/**
 * A big map's live snapshot is bounded work (issue 26 item 8): re-subscribing in a loop to a
 * 100,000-location map held a PGlite server for seconds on the first snapshot's one query. The
 * snapshot is read once for all the subscribers asking at the same time, its locations in pages
 * with other requests answered between them (checked by the order of the queries, not by a
 * clock), and it is exactly the message the whole map read at once gave: same text, same
 * revision, a map changed between two pages read again (server/live/map-snapshots.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import { defaultRegionStyles, defaultSettings } from '../../events/map-document.js';
import { emptyPathNetwork } from '../../events/path-network.js';
import { formatPosition } from '../../events/position.js';
import { topics } from '../../events/topics.js';
import type { Database, Queryable } from '../../ports/database.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { getMapData } from '../../projections/map-data.js';
import { MapSnapshots } from '../../server/live/map-snapshots.js';
import { databaseTargets } from '../support/databases.js';
import { interleavingProbe } from '../support/interleaving-probe.js';
import { createMapAs, openLive, registerUser, startTestServer, type TestServer } from '../support/test-server.js';

const PAGE_ROWS = 5;
const LOCATIONS = 23;
const PAGES = Math.ceil(LOCATIONS / PAGE_ROWS);
/** The queries one read of the map's locations makes: where its order starts and ends, then its pages. */
const LOCATION_READS = 1 + PAGES;
const readsLocations = (sql: string) => sql.includes('FROM map_locations');

function documentWithLocations(count: number) {
  return {
    version: 3,
    settings: { ...defaultSettings(), defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: null }],
    locations: Array.from({ length: count }, (_, i) => ({ id: `shop-${count - i}`, title: `Shop “${i}” — ünïcode`, layer: 'ground', x: i / count, y: 0.5, groups: [] })),
    groups: [],
    styles: { regions: defaultRegionStyles() },
    paths: emptyPathNetwork(),
  };
}

/** The snapshot message as the hub printed it when it read the whole map in one query. */
async function wholeMessage(db: Queryable, topic: string, mapId: string): Promise<string> {
  const checkpoint = await readCheckpoint(db, 'map_data');
  const current = (await getMapData(db, mapId))!;
  const message: ServerMessage = {
    v: LIVE_PROTOCOL_VERSION,
    type: 'snapshot',
    topic,
    position: checkpoint ? formatPosition(checkpoint.position) : '-1:-1',
    data: { kind: 'map', map: { id: current.id, title: current.title, document: current.data as never, revision: current.revision, history: current.history } },
  };
  return JSON.stringify(message);
}

describe.each(databaseTargets)('a big map’s live snapshot on $name', (target) => {
  let server: TestServer;
  /** The app's queries, in the order they were sent. */
  const appQueries: string[] = [];
  const pageRowsBefore = MapSnapshots.PAGE_ROWS;

  beforeAll(async () => {
    MapSnapshots.PAGE_ROWS = PAGE_ROWS;
    const counted = (db: Database): Database => ({
      ...db,
      query: (sql, params) => {
        appQueries.push(sql);
        return db.query(sql, params);
      },
    });
    server = await startTestServer(target, { appDatabase: counted });
  });
  afterAll(async () => {
    MapSnapshots.PAGE_ROWS = pageRowsBefore;
    await server?.close();
  });

  it('is read once, in pages, for every socket subscribing at the same time, and is the whole map’s very message', async () => {
    const ana = await registerUser(server);
    const mapId = await createMapAs(server, ana, 'Arcade', documentWithLocations(LOCATIONS));
    const topic = topics.map(mapId);
    const sockets = await Promise.all([1, 2, 3, 4, 5].map(() => openLive(server, ana)));
    const before = appQueries.length;
    for (const socket of sockets) socket.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    const texts = await Promise.all(
      sockets.map(async (socket) => JSON.stringify(await socket.next((m) => m.type === 'snapshot' && m.topic === topic))),
    );
    // One read of the locations for the five: its pages, nothing more.
    expect(appQueries.slice(before).filter(readsLocations)).toHaveLength(LOCATION_READS);
    const expected = await wholeMessage(server.database.db, topic, mapId);
    for (const text of texts) expect(text).toBe(expected);
    const document = (JSON.parse(texts[0]!) as { data: { map: { document: { locations: Array<{ id: string }> } } } }).data.map.document;
    expect(document.locations.map((location) => location.id)).toEqual(documentWithLocations(LOCATIONS).locations.map((location) => location.id));
    for (const socket of sockets) socket.close();
  });

  it('answers another request between its pages', async () => {
    const mapId = await createMapAs(server, await registerUser(server), 'Market', documentWithLocations(LOCATIONS));
    const db = server.database.db;
    const probe = interleavingProbe(db, readsLocations);
    const snapshot = await new MapSnapshots(probe.db).get(topics.map(mapId), mapId);
    await probe.settled();
    const { order } = probe;
    expect(snapshot?.bytes.toString()).toBe(await wholeMessage(db, topics.map(mapId), mapId));
    expect(order.filter((entry) => entry === 'page read')).toHaveLength(LOCATION_READS);
    // Answered before the last page was read, not after the whole map.
    expect(order.indexOf('other answered')).toBeLessThan(order.lastIndexOf('page read'));
  });

  it('reads the map again when it changed between two pages, and gives the new revision', async () => {
    const mapId = await createMapAs(server, await registerUser(server), 'Bazaar', documentWithLocations(LOCATIONS));
    const db = server.database.db;
    let pages = 0;
    const changing: Queryable = {
      async query(sql, params) {
        const result = await db.query(sql, params);
        // After the first read of its locations, the projection writes the map (a location and the revision, as one transaction does).
        if (readsLocations(sql) && ++pages === 1) {
          await db.transaction(async (tx) => {
            await tx.query(`UPDATE map_locations SET data = jsonb_set(data, '{title}', '"Renamed"') WHERE map_id = $1 AND id = 'shop-1'`, [mapId]);
            await tx.query('UPDATE map_data SET revision = revision + 1 WHERE id = $1', [mapId]);
          });
        }
        return result as never;
      },
    };
    const revisionBefore = (await getMapData(db, mapId))!.revision;
    const snapshot = (await new MapSnapshots(changing).get(topics.map(mapId), mapId))!;
    expect(snapshot.revision).toBe(BigInt(revisionBefore) + 1n);
    expect(pages).toBe(2 * LOCATION_READS);
    expect(snapshot.bytes.toString()).toBe(await wholeMessage(db, topics.map(mapId), mapId));
    expect(snapshot.bytes.toString()).toContain('"title":"Renamed"');
  });
});
