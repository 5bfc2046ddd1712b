/**
 * Operations endpoints: health, readiness with projection lag and faults (set-aside streams,
 * events parked by earlier versions), Prometheus metrics, graceful close. Requests come from loopback,
 * which may read the details (ops-access.test.ts covers who else may).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePosition } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { allProjections } from '../../projections/index.js';
import type { PoisonedEvent } from '../../projections/dead-letters.js';
import { setAsideStream } from '../../projections/set-aside-streams.js';
import { pgliteTarget } from '../support/databases.js';
import { call, openLive, registerUser, startTestServer, type TestServer } from '../support/test-server.js';

describe('operations', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
  });
  afterAll(() => server?.close());

  it('/api/health answers while the process lives', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/api/ready checks the database and event store and reports each projection lag', async () => {
    const user = await registerUser(server);
    const made = await call(server, 'createMap', { title: 'Ready' }, user);
    await server.runner.waitFor(parsePosition(made.body.position));
    const ready = await fetch(`${server.url}/api/ready`).then((r) => r.json());
    expect(ready).toEqual({
      status: 'ready',
      degraded: [],
      database: { ok: true },
      eventStore: { ok: true },
      projectionLag: Object.fromEntries(allProjections.map((p) => [p.name, 0])),
      setAside: [],
      projections: Object.fromEntries(allProjections.map((p) => [p.name, { setAside: [], parked: 0 }])),
      reactors: { 'billing-reactor': { setAside: [], parked: 0 } },
    });
    // With the runner stopped, new events show up as lag.
    await server.runner.stop();
    await call(server, 'saveMap', { id: made.body.result, title: 'Lagging' }, user);
    const lagging = await fetch(`${server.url}/api/ready`).then((r) => r.json());
    // One event on the map's stream (a MapSaved): a lag of one for each projection following map streams that reads it.
    const mapStream = streams.map(made.body.result);
    const reads = (p: (typeof allProjections)[number]) => p.streamPrefixes.some((prefix) => mapStream.startsWith(prefix)) && (p.eventTypes?.has('MapSaved') ?? true);
    expect(lagging.projectionLag).toEqual(Object.fromEntries(allProjections.map((p) => [p.name, reads(p) ? 1 : 0])));
    expect(lagging.projectionLag).toMatchObject({ maps_list: 1, map_data: 1, billing: 0 });
    await server.runner.start();
  });

  it('/metrics speaks the Prometheus text format with the product metrics', async () => {
    const user = await registerUser(server);
    await call(server, 'createMap', { title: 'Measured' }, user);
    await call(server, 'createMap', { title: 42 }, user);
    const live = await openLive(server, user);
    await live.next((m) => m.type === 'welcome');
    const response = await fetch(`${server.url}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/mapfold_command_duration_seconds_count\{function="createMap",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/mapfold_command_duration_seconds_count\{function="createMap",outcome="invalid-argument"\} 1/);
    expect(text).toMatch(/mapfold_live_connections [1-9]/);
    expect(text).toMatch(/mapfold_projection_lag_events\{projection="maps_list"\} \d+/);
    expect(text).toContain('# TYPE mapfold_webhook_failures_total counter');
    expect(text).toContain('mapfold_reactor_dead_letters{reactor="billing-reactor"} 0');
    expect(text).toContain('mapfold_process_cpu_seconds_total');
    live.close();
  });

  it('a set-aside stream or an event parked by an earlier version makes /api/ready degraded (still 200) naming them, and /metrics names the stream', async () => {
    const db = server.database.db;
    const poisoned: PoisonedEvent = { eventId: 'e-1', stream: 'map-m1', type: 'LocationAdded', position: '7:7', error: 'Error: poisoned', attempts: 10 };
    // Given map data set a map's stream aside (what the runner writes when one of its events keeps failing).
    const event = { id: 'e-1', stream: 'map-m1', type: 'LocationAdded', revision: 3n, position: { commit: 7n, prepare: 7n }, data: {}, metadata: {} as never, recordedAt: new Date() };
    await db.transaction((tx) => setAsideStream(tx, 'map_data', event, poisoned));
    const setAside = await fetch(`${server.url}/api/ready`);
    expect(setAside.status).toBe(200);
    const body = await setAside.json();
    expect(body).toMatchObject({
      status: 'degraded',
      degraded: ['map_data'],
      setAside: [{ by: 'map_data', stream: 'map-m1', eventId: 'e-1', type: 'LocationAdded', position: '7:7', error: 'Error: poisoned', skipped: 0 }],
      projections: { map_data: { parked: 0, setAside: [{ ...poisoned, projection: 'map_data', revision: '3', skipped: 0, setAsideAt: expect.any(String) }] } },
    });

    // Given billing parked an event under an earlier version.
    await db.query(
      `INSERT INTO projection_dead_letters (projection, event_id, stream, type, commit_position, prepare_position, error, attempts)
       VALUES ('billing', 'e-2', 'customer-u1', 'SubscriptionUpdated', 8, 8, 'Error: poisoned', 5)`,
    );
    const both = await fetch(`${server.url}/api/ready`);
    expect(both.status).toBe(200);
    expect((await both.json()).degraded.sort()).toEqual(['billing', 'map_data']);

    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toContain('mapfold_projection_set_aside_streams{projection="map_data"} 1');
    expect(text).toContain('mapfold_projection_set_aside_stream{projection="map_data",stream="map-m1"} 1');
    expect(text).toContain('mapfold_projection_set_aside_streams{projection="billing"} 0');
    expect(text).toContain('mapfold_projection_dead_letters{projection="billing"} 1');

    // A repair or rebuild clears them (here by hand).
    await db.query('DELETE FROM projection_dead_letters');
    await db.query('DELETE FROM projection_set_aside_streams');
    expect((await fetch(`${server.url}/api/ready`).then((r) => r.json())).status).toBe('ready');
    expect(await (await fetch(`${server.url}/metrics`)).text()).not.toContain('mapfold_projection_set_aside_stream{');
  });

  it('closing the server tells live clients to reconnect (1012)', async () => {
    const other = await startTestServer(pgliteTarget);
    const user = await registerUser(other);
    const live = await openLive(other, user);
    await live.next((m) => m.type === 'welcome');
    await other.close();
    expect((await live.closed).code).toBe(1012);
  });
});
