/** Operations endpoints: health, readiness with projection lag, Prometheus metrics, graceful close. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePosition } from '../../events/position.js';
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
      database: { ok: true },
      eventStore: { ok: true },
      projectionLag: { maps_list: 0, map_data: 0, billing: 0 },
    });
    // With the runner stopped, new events show up as lag.
    await server.runner.stop();
    await call(server, 'saveMap', { id: made.body.result, title: 'Lagging' }, user);
    const lagging = await fetch(`${server.url}/api/ready`).then((r) => r.json());
    expect(lagging.projectionLag).toEqual({ maps_list: 1, map_data: 1, billing: 0 });
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
    expect(text).toContain('mapfold_process_cpu_seconds_total');
    live.close();
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
