/**
 * History and audit over HTTP, on both databases: versions saved, named, deleted and restored;
 * the map at any revision; the timeline in words; the audit log; who may do what.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe.each(databaseTargets)('history on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let ben: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    ben = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
  });
  afterAll(() => server?.close());
  // A new owner for each test: two free test maps each.
  beforeEach(async () => {
    owner = await registerUser(server);
  });

  const get = (path: string, user?: TestUser) => fetch(`${server.url}${path}`, { headers: user ? { cookie: user.cookie } : {} });
  const json = async (path: string, user?: TestUser) => (await (await get(path, user)).json()) as any;
  const ok = async (name: string, data: unknown, user: TestUser = owner) => {
    const answer = await call(server, name, data, user);
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.position) await projected(server, answer.body.position);
    return answer.body.result;
  };
  const location = (id: string, title: string) => ({ type: 'LocationAdded', location: { id, title, layer: 'ground', position: { x: 10, y: 10 } } });

  async function newMap(title = 'Harbour Market'): Promise<string> {
    return ok('createMap', { title });
  }

  it('keeps the map as it was before the first edits, saves named versions, renames and deletes them', async () => {
    const mapId = await newMap();
    await ok('editMap', { id: mapId, edits: [location('cafe', 'Cafe')] });
    // The product kept the map as it was before the stretch of editing began.
    let data = await json(`/api/maps/${mapId}/data`, owner);
    expect(data.result.history).toEqual([expect.objectContaining({ mapId, revision: '0', author: owner.uid })]);
    // Further edits right after do not make another one.
    await ok('editMap', { id: mapId, edits: [location('bank', 'Bank')] });
    const { historyId } = await ok('saveMapHistory', { mapId, name: 'Before launch' });
    data = await json(`/api/maps/${mapId}/data`, owner);
    expect(data.result.history).toHaveLength(2);
    expect(data.result.history[1]).toMatchObject({ id: historyId, name: 'Before launch', revision: data.result.revision === '4' ? '3' : expect.any(String) });

    await ok('setMapHistoryName', { mapId, historyMapId: historyId, name: 'Launch day' });
    let list = await json('/api/maps', owner);
    expect(list.result.find((map: { id: string }) => map.id === mapId).history.map((entry: { name?: string }) => entry.name)).toEqual([undefined, 'Launch day']);

    await ok('deleteMapHistory', { mapId, historyMapId: historyId });
    list = await json('/api/maps', owner);
    expect(list.result.find((map: { id: string }) => map.id === mapId).history).toHaveLength(1);
  });

  it('restores a version as one event, after keeping the map as it was; restoring that undoes it', async () => {
    const mapId = await newMap();
    await ok('editMap', { id: mapId, edits: [location('cafe', 'Cafe')] });
    const { historyId } = await ok('saveMapHistory', { mapId, name: 'One cafe' });
    await ok('editMap', { id: mapId, edits: [location('bank', 'Bank'), { type: 'LocationRemoved', id: 'cafe' }] });

    await ok('restoreMapHistory', { mapId, historyMapId: historyId });
    let data = await json(`/api/maps/${mapId}/data`, owner);
    expect(data.result.data.locations.map((l: { id: string }) => l.id)).toEqual(['cafe']);
    const before = data.result.history.at(-1);
    expect(before.name).toBe('Before restoring “One cafe”');
    const types = (await server.services.store.readStream(`map-${mapId}`)).map((event) => event.type);
    expect(types.slice(-2)).toEqual(['VersionSaved', 'MapRestored']);
    const list = await json('/api/maps', owner);
    expect(list.result.find((map: { id: string }) => map.id === mapId).metrics).toEqual({ layerCount: 1, locationCount: 1 });

    await ok('restoreMapHistory', { mapId, historyMapId: before.id });
    data = await json(`/api/maps/${mapId}/data`, owner);
    expect(data.result.data.locations.map((l: { id: string }) => l.id)).toEqual(['bank']);
  });

  it('answers the map at any revision, and its events in words, page by page', async () => {
    const mapId = await newMap('Old town');
    await ok('editMap', { id: mapId, edits: [location('cafe', 'Cafe')] });
    await ok('editMap', { id: mapId, edits: [{ type: 'LocationMoved', id: 'cafe', position: { x: 50, y: 60 } }] });
    await ok('editMap', { id: mapId, edits: [{ type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café Luna' } }] });

    // 0 created, 1 kept version, 2 added, 3 moved, 4 renamed.
    const at2 = await json(`/api/maps/${mapId}/revisions/2`, owner);
    expect(at2.result.document.locations).toEqual([expect.objectContaining({ title: 'Cafe', position: { x: 10, y: 10 } })]);
    const at0 = await json(`/api/maps/${mapId}/revisions/0`, owner);
    expect(at0.result.document.locations).toEqual([]);
    expect((await get(`/api/maps/${mapId}/revisions/99`, owner)).status).toBe(404);
    expect((await get(`/api/maps/${mapId}/revisions/x`, owner)).status).toBe(400);

    const first = await json(`/api/maps/${mapId}/timeline?limit=2`, owner);
    expect(first.result.total).toBe(5);
    expect(first.result.items.map((item: { summary: string }) => item.summary)).toEqual(['Test User renamed “Cafe” to “Café Luna”', 'Test User moved “Cafe” on “Ground floor”']);
    expect(first.result.items[0]).toMatchObject({ revision: '4', type: 'LocationUpdated', actor: { uid: owner.uid, name: 'Test User' }, locationIds: ['cafe'] });
    const second = await json(`/api/maps/${mapId}/timeline?limit=2&before=${first.result.next}`, owner);
    expect(second.result.items.map((item: { summary: string }) => item.summary)).toEqual([
      'Test User added “Cafe” on “Ground floor”',
      'Mapfold kept a version before the edits that followed',
    ]);
    const last = await json(`/api/maps/${mapId}/timeline?limit=2&before=${second.result.next}`, owner);
    expect(last.result.items.map((item: { summary: string }) => item.summary)).toEqual(['Test User created the map “Old town”']);
    expect(last.result.next).toBeNull();
    expect((await get(`/api/maps/${mapId}/timeline?limit=0`, owner)).status).toBe(400);

    const csv = await (await get(`/api/maps/${mapId}/audit.csv`, owner)).text();
    expect(csv.split('\r\n')[0]).toBe('revision,at,actor,actor_id,event,summary,locations');
    expect(csv).toContain('Test User moved “Cafe” on “Ground floor”');
    const audit = await json(`/api/maps/${mapId}/audit.json`, admin);
    expect(audit.events).toHaveLength(5);
    expect(audit.events[3]).toMatchObject({ type: 'LocationMoved', data: expect.objectContaining({ position: { x: 50, y: 60 } }) });
  });

  it('reads the map at a revision of a long stream through snapshots', async () => {
    const mapId = await newMap('Long');
    for (let batch = 0; batch < 6; batch++) {
      await ok('editMap', { id: mapId, edits: Array.from({ length: 100 }, (_, i) => location(`l${batch * 100 + i}`, `Place ${batch * 100 + i}`)) });
    }
    const at = await json(`/api/maps/${mapId}/revisions/400`, owner);
    // Revision 0 created it, 1 kept a version, 2.. added locations: 399 of them by revision 400.
    expect(at.result.document.locations).toHaveLength(399);
    const { rows } = await server.database.db.query<{ revision: string }>('SELECT revision::text AS revision FROM map_snapshots WHERE map_id = $1 ORDER BY revision', [mapId]);
    // Kept as the edits ran (each command reads the map from its newest snapshot) and as it was read.
    expect(rows.map((row) => row.revision)).toEqual(['249', '499']);
    // Read again, from the snapshot: the same map.
    expect((await json(`/api/maps/${mapId}/revisions/400`, owner)).result).toEqual(at.result);
  });

  it('an admin updates a map and its data in one batch, recorded as the admin and shown in the timeline', async () => {
    const mapId = await newMap('Pier');
    const { data, revision } = (await json(`/api/maps/${mapId}/data`, owner)).result;
    const withKiosk = { ...data, locations: [{ id: 'kiosk', title: 'Kiosk', layer: 'ground' }] };
    await ok('adminUpdateMap', { id: mapId, revision, title: 'Pier (checked)', mapData: withKiosk, state: 1, subscribed: true }, admin);

    const list = await json('/api/maps', owner);
    expect(list.result.find((map: { id: string }) => map.id === mapId)).toMatchObject({ title: 'Pier (checked)', state: 1, subscribed: true, metrics: { locationCount: 1 } });
    const events = await server.services.store.readStream(`map-${mapId}`);
    // Its first slot publishes the new map as it now is (issue 27: new maps publish when published).
    expect(events.slice(-3).map((event) => [event.type, event.metadata.userId])).toEqual([['MapSaved', admin.uid], ['MapStateChanged', admin.uid], ['MapPublished', admin.uid]]);
    const timeline = await json(`/api/maps/${mapId}/timeline?limit=3`, admin);
    expect(timeline.result.items.map((item: { summary: string }) => item.summary)).toEqual([
      `Test User published revision ${(events.at(-1)!.data as { revision: string }).revision}`,
      "Test User set the map's state to live and marked it subscribed",
      'Test User renamed the map to “Pier (checked)” and replaced the map\'s content',
    ]);

    // Only admins; the owner is no admin.
    for (const user of [owner, ben]) {
      const answer = await call(server, 'adminUpdateMap', { id: mapId, state: 3 }, user);
      expect(answer.status).toBe(403);
    }
    expect((await call(server, 'adminUpdateMap', { id: mapId, state: 5 }, admin)).body.error.message).toBe('state: State must be 0, 1, 2, 3 or 9.');
    expect((await call(server, 'adminUpdateMap', { id: mapId }, admin)).status).toBe(400);
    expect((await call(server, 'adminUpdateMap', { id: 'no-such-map', state: 1 }, admin)).status).toBe(404);
  });

  it('bad input: unknown maps and versions are not found, names have a limit, others are refused', async () => {
    const mapId = await newMap();
    const { historyId } = await ok('saveMapHistory', { mapId });
    const refused = async (name: string, data: unknown, user: TestUser | undefined, status: number, message?: string) => {
      const answer = await call(server, name, data, user);
      expect(answer.status).toBe(status);
      if (message) expect(answer.body.error.message).toBe(message);
    };
    await refused('restoreMapHistory', { mapId, historyMapId: 'nope' }, owner, 404, 'Version not found.');
    await refused('setMapHistoryName', { mapId, historyMapId: 'nope', name: 'X' }, owner, 404, 'Version not found.');
    await refused('deleteMapHistory', { mapId, historyMapId: 'nope' }, owner, 404, 'Version not found.');
    await refused('restoreMapHistory', { mapId: 'no-such-map', historyMapId: historyId }, owner, 404, 'Map not found.');
    await refused('setMapHistoryName', { mapId, historyMapId: historyId, name: 'x'.repeat(101) }, owner, 400, 'name: Name must be at most 100 characters.');
    await refused('saveMapHistory', { mapId, name: '   ' }, owner, 400, 'name: Name is required.');
    // Another user's map: permission-denied, for an existing version and a made-up one alike.
    for (const historyMapId of [historyId, 'nope']) {
      await refused('restoreMapHistory', { mapId, historyMapId }, ben, 403);
      await refused('setMapHistoryName', { mapId, historyMapId, name: 'Mine' }, ben, 403);
      await refused('deleteMapHistory', { mapId, historyMapId }, ben, 403);
    }
    await refused('saveMapHistory', { mapId }, ben, 403);
    await refused('saveMapHistory', { mapId }, undefined, 401);
    for (const path of [`/api/maps/${mapId}/timeline`, `/api/maps/${mapId}/revisions/0`, `/api/maps/${mapId}/audit.csv`, `/api/maps/${mapId}/audit.json`]) {
      expect((await get(path, ben)).status).toBe(403);
      expect((await get(path)).status).toBe(401);
      expect((await get(path, admin)).status).toBe(200);
    }
    expect((await get('/api/maps/no-such-map/timeline', owner)).status).toBe(404);
    // An admin may restore someone's version (spec §6), recorded as the admin.
    await ok('restoreMapHistory', { mapId, historyMapId: historyId }, admin);
    const events = await server.services.store.readStream(`map-${mapId}`);
    expect(events.at(-1)).toMatchObject({ type: 'MapRestored', metadata: expect.objectContaining({ userId: admin.uid }) });
  });
});
