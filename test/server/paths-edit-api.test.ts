/**
 * A path edit from the editor is an ordinary map edit: POSTed through editMap like a moved
 * location, it lands in the map's data, reads back, says what it did in the timeline, and is
 * refused when it does not hold together (a link to a point that is not there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe.each(databaseTargets)('path edits through the edit endpoint on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    owner = await registerUser(server);
  });
  afterAll(() => server?.close());

  const json = async (path: string) => (await (await fetch(`${server.url}${path}`, { headers: { cookie: owner.cookie } })).json()) as any;
  const ok = async (name: string, data: unknown) => {
    const answer = await call(server, name, data, owner);
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.position) await projected(server, answer.body.position);
    return answer.body.result;
  };

  it('saves a PathsEdited, reads it back, words it in the timeline, and refuses a broken one', async () => {
    const mapId = await ok('createMap', { title: 'Station' });
    const laid = {
      type: 'PathsEdited',
      put: {
        nodes: [
          { id: 'node-a', layer: 'ground', x: 10, y: 10 },
          { id: 'node-b', layer: 'ground', x: 110, y: 10 },
        ],
        edges: [{ id: 'edge-ab', from: 'node-a', to: 'node-b', stepFree: false, oneWay: true }],
        connectors: [],
      },
      removed: { nodes: [], edges: [], connectors: [] },
    };
    await ok('editMap', { id: mapId, edits: [laid, { type: 'LocationAdded', location: { id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 20, y: 20 }, entrances: ['node-a'] } }] });
    const { data } = (await json(`/api/maps/${mapId}/data`)).result;
    expect(data.paths).toEqual({ nodes: laid.put.nodes, edges: laid.put.edges, connectors: [] });
    expect(data.locations[0].entrances).toEqual(['node-a']);

    // Removing the node takes its link and the cafe's entrance with it.
    await ok('editMap', { id: mapId, edits: [{ type: 'PathsEdited', removed: { nodes: ['node-a'] } }] });
    const after = (await json(`/api/maps/${mapId}/data`)).result.data;
    expect(after.paths).toEqual({ nodes: [laid.put.nodes[1]], edges: [], connectors: [] });
    expect(after.locations[0].entrances).toEqual([]);

    const timeline = await json(`/api/maps/${mapId}/timeline?limit=3`);
    const summaries = timeline.result.items.map((item: { summary: string }) => item.summary);
    expect(summaries[0]).toBe('Test User removed 1 path point of the paths');
    expect(summaries).toContain('Test User drew or changed 2 path points and 1 link of the paths');

    const broken = await call(server, 'editMap', { id: mapId, edits: [{ type: 'PathsEdited', put: { edges: [{ id: 'edge-x', from: 'node-b', to: 'nowhere' }] } }] }, owner);
    expect(broken.status).toBe(400);
    expect((await json(`/api/maps/${mapId}/data`)).result.data.paths.edges).toEqual([]);
  });
});
