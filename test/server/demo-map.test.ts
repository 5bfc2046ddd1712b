/**
 * The demo map: seeded once, a valid document whose regions all exist in its floor plans; a demo
 * recorded before maps had paths gets the mall's network at the next start.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MapDocument } from '../../events/map-document.js';
import { getMapData } from '../../projections/map-data.js';
import { DEMO_FLOORS, demoMallDocument, floorPlanSvg } from '../../server/seed/demo-mall.js';
import { findRoute } from '../../events/wayfinding/find-route.js';
import { addDemoPaths, DEMO_MAP_ID, seedDemoMap, SYSTEM_UID } from '../../server/seed/seed-demo-map.js';
import { pgliteTarget } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('demo map', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
  });
  afterAll(() => server.close());

  it('is a realistic document: two floors, a few dozen locations in groups, each region drawn', () => {
    const document = demoMallDocument();
    expect(MapDocument.parse(document)).toEqual(document);
    expect(document.layers.map((l) => l.name)).toEqual(['Ground floor', 'Level 1']);
    expect(document.locations.length).toBeGreaterThanOrEqual(30);
    expect(document.groups.length).toBeGreaterThanOrEqual(5);
    for (const floor of DEMO_FLOORS) {
      const svg = readFileSync(`client/public/assets/demo/riverside-${floor.id}.svg`, 'utf8');
      // The committed files are what the generator writes (npm run demo:generate).
      expect(svg).toBe(floorPlanSvg(floor));
      for (const location of document.locations.filter((l) => l.layer === floor.id && l.element)) {
        expect(svg).toContain(`id="${location.element}"`);
      }
    }
  });

  it('is seeded once, as a demo map (state 2), however often the server starts', async () => {
    const first = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
    expect(first).not.toBeNull();
    expect(await seedDemoMap(server.services.store, server.services.clock, server.services.ids)).toBeNull();
    await server.runner.waitFor(first!);
    expect(await server.services.store.readStream(`map-${DEMO_MAP_ID}`)).toHaveLength(1);
    const row = await getMapData(server.database.db, DEMO_MAP_ID);
    expect(row?.title).toBe('Riverside Mall (demo)');
    const { rows } = await server.database.db.query<{ state: number }>('SELECT state FROM maps_list WHERE id = $1', [DEMO_MAP_ID]);
    expect(rows[0]?.state).toBe(2);
  });

  it('gives a demo recorded without paths the mall\'s network once, by edits', async () => {
    // As an older server recorded it: a version 2 document, no paths, no entrances.
    const { paths: _paths, ...rest } = demoMallDocument();
    const old = { ...rest, version: 2, locations: rest.locations.map(({ entrances: _entrances, ...location }) => location) };
    const { store, clock, ids } = server.services;
    const at = clock.now().toISOString();
    await store.append(
      'map-old-demo',
      [
        {
          id: ids.uuid(),
          type: 'MapCreated',
          data: { mapId: 'old-demo', uid: SYSTEM_UID, author: SYSTEM_UID, title: 'Old demo', state: 2, document: old, created: at },
          metadata: { userId: null, at, correlationId: 'c', causationId: 'test' },
        },
      ],
      'no_stream',
    );
    const position = await addDemoPaths(store, clock, ids, 'old-demo');
    expect(position).not.toBeNull();
    await server.runner.waitFor(position!);
    expect(await addDemoPaths(store, clock, ids, 'old-demo')).toBeNull();
    const events = await store.readStream('map-old-demo');
    expect(events.map((e) => e.type)).toEqual(['MapCreated', 'PathsEdited', ...rest.locations.map(() => 'LocationUpdated')]);
    const row = await getMapData(server.database.db, 'old-demo');
    const document = MapDocument.parse(row!.data);
    expect(document.paths).toEqual(demoMallDocument().paths);
    expect(document.locations.map((l) => l.entrances)).toEqual(demoMallDocument().locations.map((l) => l.entrances));
    const route = findRoute(document, { location: 'g-urbanthread' }, { location: 'l1-cinema' }, { stepFree: true });
    expect(route.ok).toBe(true);
  });
});
