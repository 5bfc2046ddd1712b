/**
 * Reading one's own new map (server/access/map-access-facts.ts, issue 26 item 8): a map whose
 * first event the map_data projection has not applied yet is waited for (bounded) by every map
 * route and topic that checks access, instead of answering "Map not found" to the author who
 * just created it. On the embedded database requests and projections take turns
 * (server/db/query-gate.ts), so the author's next request can come before the projection's work.
 * A deleted map, whose events the projection passed long ago, is not waited for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_MAP_WAIT_MS } from '../../server/access/map-access-facts.js';
import { pgliteTarget } from '../support/databases.js';
import { call, createMapAs, projected, registerUser, startTestServer, type TestServer } from '../support/test-server.js';

describe('a map read right after it was created', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the author once the projection has it, though the projection was behind when asked', async () => {
    const owner = await registerUser(server);
    // The projections stand still: the map is recorded, and no read model has it yet.
    await server.runner.stop();
    const created = await call(server, 'createMap', { title: 'Just made' }, owner);
    expect(created.status).toBe(200);
    const mapId = created.body.result as string;
    const data = fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } });
    const members = fetch(`${server.url}/api/maps/${mapId}/members`, { headers: { cookie: owner.cookie } });
    // Another request answered: the two above have reached the server and wait for the map.
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { cookie: owner.cookie } })).status).toBe(200);
    await server.runner.start();
    const answer = await data;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { result: { title: string } }).result.title).toBe('Just made');
    expect((await members).status).toBe(200);
  });

  it('answers "Map not found" for a deleted map and for one that never was, without waiting', async () => {
    const owner = await registerUser(server);
    const mapId = await createMapAs(server, owner, 'Gone soon');
    const deleted = await call(server, 'deleteMap', { id: mapId }, owner);
    expect(deleted.status).toBe(200);
    await projected(server, deleted.body.position);
    for (const id of [mapId, 'NoSuchMap123']) {
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/maps/${id}/data`, { headers: { cookie: owner.cookie } });
      expect(answer.status).toBe(404);
      expect(performance.now() - started).toBeLessThan(NEW_MAP_WAIT_MS);
    }
  });
});
