/**
 * The one append path and upcasting on read, through the real app on PGlite and PostgreSQL:
 * - given a map, when an import's decider builds an ImportApplied whose locations name the
 *   regions "11" and "-99" as they are (what the import planner recorded before issue 26), then
 *   the command answers 500 internal, the log names the refused field, and the stream is unchanged;
 * - given a log that already holds that very event (appended raw, past the command path, as the
 *   old code recorded it), then the projections read it through the upcasters and the map comes
 *   back whole: its data with each region linked, the maps list, /api/ready, the log unedited.
 */
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { elementIdFor } from '../../events/element-id.js';
import { mapDecider, type MapEvent } from '../../events/map.js';
import { parsePosition } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { databaseTargets } from '../support/databases.js';
import { call, createMapAs, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const square = (x: number) => [[[x, 0], [x + 1, 0], [x + 1, 1], [x, 1], [x, 0]]];
/** A GeoJSON like the US states' (DC's FIPS id "11") and Natural Earth's countries ("-99"). */
const GEOJSON = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', id: '11', properties: { name: 'District of Columbia' }, geometry: { type: 'Polygon', coordinates: square(0) } },
    { type: 'Feature', id: '-99', properties: { name: 'Northern Cyprus' }, geometry: { type: 'Polygon', coordinates: square(3) } },
  ],
});

describe.each(databaseTargets)('one append path and upcasting on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  const logLines: string[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'error' }, { write: (line: string) => void logLines.push(line) });
    server = await startTestServer(target, { loggerInstance: logger });
    owner = await registerUser(server);
  }, 60_000);
  afterAll(() => server?.close());
  afterEach(() => vi.restoreAllMocks());

  const mapData = async (mapId: string) => {
    const response = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('given a decider that records the regions "11" and "-99" as they are, when the import is applied, then 500 internal naming the field, and nothing is recorded', async () => {
    const mapId = await createMapAs(server, owner, 'US states');
    const before = await server.services.store.readStream(streams.map(mapId));
    // The import planner before issue 26: each location named its region by the file's own id.
    const decide = mapDecider.decide;
    vi.spyOn(mapDecider, 'decide').mockImplementation((command, state, context) =>
      decide(command, state, context).map((event): MapEvent => {
        if (event.type !== 'ImportApplied') return event;
        const raw = new Map(['11', '-99'].map((id) => [elementIdFor(id), id]));
        return { ...event, data: { ...event.data, locations: event.data.locations.map((l) => ({ ...l, element: l.element && (raw.get(l.element) ?? l.element) })) } };
      }),
    );
    const response = await fetch(`${server.url}/api/maps/${mapId}/import?apply=1&filename=us-states.geojson`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/geo+json' },
      body: GEOJSON,
    });
    const body = (await response.json()) as any;
    expect(response.status, JSON.stringify(body)).toBe(500);
    expect(body.error.status).toBe('INTERNAL');
    expect(mapDecider.decide).toHaveBeenCalled();
    const line = logLines.map((text) => JSON.parse(text)).find((entry) => entry.stream === streams.map(mapId));
    expect(line, logLines.join('\n')).toMatchObject({ level: 50, eventType: 'ImportApplied', field: expect.stringMatching(/^data\.locations\.\d+\.element$/), problem: 'must be an SVG element id' });
    expect(line.msg).toContain(line.field);
    const after = await server.services.store.readStream(streams.map(mapId));
    expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
    // The same file through the decider as it is now imports with every region linked.
    vi.restoreAllMocks();
    const applied = await fetch(`${server.url}/api/maps/${mapId}/import?apply=1&filename=us-states.geojson`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/geo+json' },
      body: GEOJSON,
    });
    expect(applied.status, await applied.clone().text()).toBe(200);
  });

  it('given a log holding the ImportApplied the old planner recorded (regions "11" and "-99"), then the map comes back whole, the log unedited', async () => {
    const mapId = await createMapAs(server, owner, 'World');
    const stream = streams.map(mapId);
    const [created] = await server.services.store.readStream(stream);
    const at = new Date().toISOString();
    // Exactly as the code before issue 26 recorded it: appended raw, past the command path.
    const data = {
      mapId,
      edited: at,
      source: { format: 'geojson', name: 'ne_110m_admin_0_countries.geojson', mapping: null },
      layers: [{ id: 'countries', name: 'Countries', file: null, geo: { kind: 'd3', projection: 'natural-earth-1', scale: 153, translate: [480, 250] } }],
      groups: [],
      locations: [
        { id: 'dc', title: 'District of Columbia', layer: 'countries', element: '11', position: null },
        { id: 'cyn', title: 'Northern Cyprus', layer: 'countries', element: '-99', position: null },
      ],
      updates: [],
    };
    const appended = await server.services.store.append(
      stream,
      [{ id: crypto.randomUUID(), type: 'ImportApplied', data, metadata: { userId: owner.uid, at, correlationId: 'old-import', causationId: 'old-import' } }],
      created!.revision,
    );
    await server.runner.waitFor(appended.position);

    const read = await mapData(mapId);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.result.data.locations.map((l: any) => [l.id, l.element])).toEqual([
      ['dc', elementIdFor('11')],
      ['cyn', elementIdFor('-99')],
    ]);
    expect(read.body.result.data.layers.map((l: any) => l.id)).toContain('countries');
    const list = await fetch(`${server.url}/api/maps`, { headers: { cookie: owner.cookie } });
    const item = ((await list.json()) as any).result.find((m: any) => m.id === mapId);
    expect(item).toMatchObject({ title: 'World' });
    const ready = (await (await fetch(`${server.url}/api/ready`)).json()) as any;
    expect(ready.status).toBe('ready');
    // The map goes on taking edits.
    const edited = await call(server, 'editMap', { id: mapId, edits: [{ type: 'LocationUpdated', id: 'dc', changes: { title: 'Washington, D.C.' } }] }, owner);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await server.runner.waitFor(parsePosition(edited.body.position));
    expect((await mapData(mapId)).body.result.data.locations[0]).toMatchObject({ title: 'Washington, D.C.', element: elementIdFor('11') });
    // The log keeps what was recorded.
    const rows = await server.services.db.query<{ data: any }>(`SELECT data FROM es_events WHERE stream_id = $1 AND type = 'ImportApplied'`, [stream]);
    expect(rows.rows.map((row) => row.data.locations.map((l: any) => l.element))).toEqual([['11', '-99']]);
  });
});
