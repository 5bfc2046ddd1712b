/**
 * Operations endpoints: health, readiness with projection lag and faults (parked events,
 * stopped projections), Prometheus metrics, graceful close. Requests come from loopback,
 * which may read the details (ops-access.test.ts covers who else may).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePosition } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { allProjections } from '../../projections/index.js';
import { markStopped } from '../../projections/checkpoints.js';
import { parkEvent, type PoisonedEvent } from '../../projections/dead-letters.js';
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
      projections: Object.fromEntries(allProjections.map((p) => [p.name, { state: 'running', parked: 0 }])),
      reactors: { 'billing-reactor': { parked: 0 } },
    });
    // With the runner stopped, new events show up as lag.
    await server.runner.stop();
    await call(server, 'saveMap', { id: made.body.result, title: 'Lagging' }, user);
    const lagging = await fetch(`${server.url}/api/ready`).then((r) => r.json());
    // One event on the map's stream: a lag of one for each projection following map streams.
    const mapStream = streams.map(made.body.result);
    expect(lagging.projectionLag).toEqual(
      Object.fromEntries(allProjections.map((p) => [p.name, p.streamPrefixes.some((prefix) => mapStream.startsWith(prefix)) ? 1 : 0])),
    );
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

  it('a parked event makes /api/ready degraded (still 200) naming its projection, a stopped projection makes it 503, and /metrics counts both', async () => {
    const db = server.database.db;
    const poisoned: PoisonedEvent = { eventId: 'e-1', stream: 'customer-u1', type: 'SubscriptionUpdated', position: '7:7', error: 'Error: poisoned', attempts: 10 };
    // Given billing parked an event (what the runner writes when the event keeps failing).
    await db.transaction((tx) => parkEvent(tx, 'billing', poisoned, { commit: 7n, prepare: 7n }));
    const parked = await fetch(`${server.url}/api/ready`);
    expect(parked.status).toBe(200);
    expect(await parked.json()).toMatchObject({
      status: 'degraded',
      degraded: ['billing'],
      projections: { billing: { state: 'running', parked: 1, deadLetters: [{ ...poisoned, projection: 'billing', parkedAt: expect.any(String) }] } },
    });

    // Given map data stopped on an event too.
    await markStopped(db, 'map_data', { ...poisoned, stream: 'map-m1', type: 'LocationAdded', stoppedAt: new Date().toISOString() });
    const stopped = await fetch(`${server.url}/api/ready`);
    expect(stopped.status).toBe(503);
    const body = await stopped.json();
    expect(body).toMatchObject({ status: 'degraded', projections: { map_data: { state: 'stopped', parked: 0, stoppedOn: { eventId: 'e-1', stream: 'map-m1' } } } });
    expect(body.degraded.sort()).toEqual(['billing', 'map_data']);

    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toContain('mapfold_projection_dead_letters{projection="billing"} 1');
    expect(text).toContain('mapfold_projection_dead_letters{projection="map_data"} 0');
    expect(text).toContain('mapfold_projection_stopped{projection="map_data"} 1');
    expect(text).toContain('mapfold_projection_stopped{projection="billing"} 0');

    // A rebuild clears both (here by hand, as the rebuild's reset does).
    await db.query('DELETE FROM projection_dead_letters');
    await db.query('UPDATE projection_checkpoints SET stopped = NULL');
    expect((await fetch(`${server.url}/api/ready`).then((r) => r.json())).status).toBe('ready');
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
