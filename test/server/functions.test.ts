/**
 * The callable functions over HTTP against a real database: results, positions, the error
 * catalogue for bad input, and who may do what. After every refused request, nothing was
 * written to the event store or the read models.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe.each(databaseTargets)('callable functions on $name', (target) => {
  let server: TestServer;
  let ana: TestUser;
  let ben: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    ana = await registerUser(server);
    ben = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
  });
  afterAll(() => server.close());

  const eventCount = async () =>
    Number((await server.database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM es_events')).rows[0]!.n);
  const mapsCount = async () =>
    Number((await server.database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM maps_list')).rows[0]!.n);

  async function post(path: string, body: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: response.status, body: (await response.json()) as { error?: { status: string; message: string } } };
  }

  /** Runs a request that must be refused and checks nothing was written. */
  async function refused(request: () => Promise<{ status: number; body: any }>, status: number, name: string, message?: string | RegExp) {
    const [events, maps] = [await eventCount(), await mapsCount()];
    const answer = await request();
    expect(answer.status).toBe(status);
    expect(answer.body.error.status).toBe(name);
    if (message instanceof RegExp) expect(answer.body.error.message).toMatch(message);
    else if (message) expect(answer.body.error.message).toBe(message);
    expect(await eventCount()).toBe(events);
    expect(await mapsCount()).toBe(maps);
  }

  describe('createMap', () => {
    it('answers the new map id and the position of its event; the map appears in the list', async () => {
      const answer = await call(server, 'createMap', { title: 'Westfield Mall', mapData: { layers: [{ id: 'g', name: 'Ground' }], locations: [] } }, ana);
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(answer.body.position).toMatch(/^\d+:\d+$/);
      await projected(server, answer.body.position);
      const list = await fetch(`${server.url}/api/maps`, { headers: { cookie: ana.cookie } }).then((r) => r.json());
      expect(list.result).toEqual([
        expect.objectContaining({ id: answer.body.result, title: 'Westfield Mall', uid: ana.uid, author: ana.uid, state: 0, subscribed: false, metrics: { layerCount: 1, locationCount: 0 } }),
      ]);
      const [event] = await server.services.store.readStream(`map-${answer.body.result}`);
      expect(event!.metadata).toMatchObject({ userId: ana.uid, correlationId: expect.any(String), causationId: expect.any(String) });
    });

    it("refuses a signed-out caller with 'Unauthenticated'", async () => {
      await refused(() => call(server, 'createMap', { title: 'Nope' }), 401, 'UNAUTHENTICATED', 'Unauthenticated');
    });

    it('refuses a forged or expired session as signed out', async () => {
      await refused(() => call(server, 'createMap', { title: 'Nope' }, { uid: 'x', cookie: 'mapfold_session=forged-token' }), 401, 'UNAUTHENTICATED', 'Unauthenticated');
      await refused(() => call(server, 'createMap', { title: 'Nope' }, { uid: 'x', cookie: `mapfold_session=${'a'.repeat(500)}` }), 401, 'UNAUTHENTICATED');
    });

    it('gives a user 2 free test slots, then refuses; an admin has no limit', async () => {
      const carla = await registerUser(server);
      expect((await call(server, 'createMap', { title: 'One' }, carla)).status).toBe(200);
      const second = await call(server, 'createMap', { title: 'Two' }, carla);
      await projected(server, second.body.position);
      await refused(() => call(server, 'createMap', { title: 'Three' }, carla), 429, 'RESOURCE_EXHAUSTED', /No free test slot/);
      for (let i = 0; i < 3; i++) {
        const made = await call(server, 'createMap', { title: `Admin ${i}` }, admin);
        expect(made.status).toBe(200);
        await projected(server, made.body.position);
      }
    });
  });

  describe('saveMap and deleteMap, by role', () => {
    let mapId: string;
    beforeAll(async () => {
      const dana = await registerUser(server);
      ana = dana; // a fresh owner with free slots
      const made = await call(server, 'createMap', { title: 'Site plan' }, ana);
      mapId = made.body.result;
      await projected(server, made.body.position);
    });

    it('the owner saves title and data', async () => {
      const saved = await call(server, 'saveMap', { id: mapId, revision: '0', title: 'Site plan B', mapData: { layers: [], locations: [{ id: 'lot-1', title: 'Lot 1' }] } }, ana);
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual({ result: null, position: expect.stringMatching(/^\d+:\d+$/) });
      await projected(server, saved.body.position);
      const data = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: ana.cookie } }).then((r) => r.json());
      expect(data.result).toMatchObject({ id: mapId, title: 'Site plan B', revision: '1' });
    });

    it('another user may neither save, delete nor read it; a signed-out caller is unauthenticated', async () => {
      await refused(() => call(server, 'saveMap', { id: mapId, title: 'Mine' }, ben), 403, 'PERMISSION_DENIED');
      await refused(() => call(server, 'deleteMap', { id: mapId }, ben), 403, 'PERMISSION_DENIED');
      await refused(() => call(server, 'saveMap', { id: mapId, title: 'Mine' }), 401, 'UNAUTHENTICATED');
      await refused(() => call(server, 'deleteMap', { id: mapId }), 401, 'UNAUTHENTICATED');
      const read = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: ben.cookie } });
      expect(read.status).toBe(403);
      expect((await fetch(`${server.url}/api/maps/${mapId}/data`)).status).toBe(401);
      expect((await fetch(`${server.url}/api/maps`)).status).toBe(401);
    });

    it('an admin may read it (saving in a batch is the admin issue)', async () => {
      const read = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: admin.cookie } });
      expect(read.status).toBe(200);
    });

    it('unknown maps are not found', async () => {
      await refused(() => call(server, 'saveMap', { id: 'no-such-map', title: 'x' }, ana), 404, 'NOT_FOUND', 'Map not found.');
      await refused(() => call(server, 'deleteMap', { id: 'no-such-map' }, ana), 404, 'NOT_FOUND');
      expect((await fetch(`${server.url}/api/maps/no-such-map/data`, { headers: { cookie: ana.cookie } })).status).toBe(404);
    });

    it('the owner deletes it: gone from the read models, the stream kept and marked deleted', async () => {
      const deleted = await call(server, 'deleteMap', { id: mapId }, ana);
      expect(deleted.status).toBe(200);
      await projected(server, deleted.body.position);
      const list = await fetch(`${server.url}/api/maps`, { headers: { cookie: ana.cookie } }).then((r) => r.json());
      expect(list.result.map((m: { id: string }) => m.id)).not.toContain(mapId);
      expect((await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: ana.cookie } })).status).toBe(404);
      const stream = await server.services.store.readStream(`map-${mapId}`);
      expect(stream.map((e) => e.type)).toEqual(['MapCreated', 'MapSaved', 'MapDeleted']);
      await refused(() => call(server, 'saveMap', { id: mapId, title: 'Back' }, ana), 404, 'NOT_FOUND');
    });
  });

  describe('editMap', () => {
    it('applies fine-grained edits: the list counts and the map data follow; others may not edit', async () => {
      const owner = await registerUser(server);
      const made = await call(server, 'createMap', { title: 'Edited' }, owner);
      const id = made.body.result;
      const edits = [
        { type: 'GroupAdded', group: { id: 'food', name: 'Food', color: '#f97316' } },
        { type: 'LayerAdded', layer: { id: 'first', name: 'First floor' } },
        { type: 'LocationAdded', location: { id: 'cafe', title: 'Cafe', layer: 'ground', groups: ['food'], position: { x: 1, y: 2 } } },
        { type: 'LocationAdded', location: { id: 'bank', title: 'Bank', layer: 'first' } },
      ];
      const answer = await call(server, 'editMap', { id, edits }, owner);
      expect(answer.status).toBe(200);
      // MapCreated is revision 0, the version kept before the first edits 1, the four edits 2 to 5.
      expect(answer.body.result).toEqual({ revision: '5' });
      await projected(server, answer.body.position);
      const list = await fetch(`${server.url}/api/maps`, { headers: { cookie: owner.cookie } }).then((r) => r.json());
      expect(list.result[0].metrics).toEqual({ layerCount: 2, locationCount: 2 });
      const removed = await call(server, 'editMap', { id, edits: [{ type: 'LayerRemoved', id: 'first' }, { type: 'LocationUpdated', id: 'cafe', changes: { about: 'Coffee' } }] }, owner);
      await projected(server, removed.body.position);
      const after = await fetch(`${server.url}/api/maps`, { headers: { cookie: owner.cookie } }).then((r) => r.json());
      expect(after.result[0].metrics).toEqual({ layerCount: 1, locationCount: 1 });
      const data = await fetch(`${server.url}/api/maps/${id}/data`, { headers: { cookie: owner.cookie } }).then((r) => r.json());
      expect(data.result.data.locations).toEqual([expect.objectContaining({ id: 'cafe', about: 'Coffee', groups: ['food'] })]);
      expect(data.result.revision).toBe('7');
      const types = (await server.services.store.readStream(`map-${id}`)).map((e) => e.type);
      expect(types).toEqual(['MapCreated', 'VersionSaved', 'GroupAdded', 'LayerAdded', 'LocationAdded', 'LocationAdded', 'LayerRemoved', 'LocationUpdated']);

      await refused(() => call(server, 'editMap', { id, edits: [{ type: 'LocationRemoved', id: 'cafe' }] }, ben), 403, 'PERMISSION_DENIED');
      await refused(() => call(server, 'editMap', { id, edits: [{ type: 'LocationRemoved', id: 'cafe' }] }), 401, 'UNAUTHENTICATED');
      await refused(
        () => call(server, 'editMap', { id, edits: [{ type: 'LocationAdded', location: { id: 'x', title: 'X', layer: 'attic' } }] }, owner),
        400,
        'INVALID_ARGUMENT',
        'edits.0.location.layer: there is no layer attic',
      );
      await refused(
        () => call(server, 'editMap', { id, edits: [{ type: 'LocationAdded', location: { id: 'x', title: 'X', layer: 'ground', link: 'javascript:alert(1)' } }] }, owner),
        400,
        'INVALID_ARGUMENT',
        'edits.0.location.link: must be an http(s) address or an uploaded file',
      );
      await refused(() => call(server, 'editMap', { id, edits: [] }, owner), 400, 'INVALID_ARGUMENT', 'edits: must hold at least one edit');
    });
  });

  describe('editMap, by role', () => {
    it('the owner and admins edit (the admin recorded as the actor); another user, an unverified user and a visitor are refused', async () => {
      const owner = await registerUser(server);
      const made = await call(server, 'createMap', { title: 'Roles' }, owner);
      const id = made.body.result;
      const edit = (title: string) => ({ id, edits: [{ type: 'LayerRenamed', id: 'ground', name: title }] });

      // Revision 1 is the version kept before the first edits.
      expect((await call(server, 'editMap', edit('By the owner'), owner)).body.result).toEqual({ revision: '2' });
      const byAdmin = await call(server, 'editMap', edit('By an admin'), admin);
      expect(byAdmin.body.result).toEqual({ revision: '3' });
      const recorded = await server.services.store.readStream(`map-${id}`);
      expect(recorded.at(-1)!.metadata.userId).toBe(admin.uid);

      const unverified = await registerUser(server, undefined, { verified: false });
      await refused(() => call(server, 'editMap', edit('Unverified'), unverified), 403, 'PERMISSION_DENIED', 'Verify your email address first.');
      await refused(() => call(server, 'editMap', edit('Another user'), ben), 403, 'PERMISSION_DENIED');
      await refused(() => call(server, 'editMap', edit('Nobody')), 401, 'UNAUTHENTICATED');
      await refused(() => call(server, 'editMap', { ...edit('Nowhere'), id: 'no-such-map' }, owner), 404, 'NOT_FOUND');
      // Nothing refused was recorded.
      expect(await server.services.store.readStream(`map-${id}`)).toHaveLength(4);
    });
  });

  describe('export', () => {
    it('downloads the document as JSON and the locations as CSV, for the owner and admins only', async () => {
      const owner = await registerUser(server);
      const made = await call(server, 'createMap', { title: 'Ground Floor: Café' }, owner);
      const edited = await call(server, 'editMap', { id: made.body.result, edits: [{ type: 'LocationAdded', location: { id: 'cafe', title: 'Café', layer: 'ground' } }] }, owner);
      await projected(server, edited.body.position);
      const json = await fetch(`${server.url}/api/maps/${made.body.result}/export.json`, { headers: { cookie: owner.cookie } });
      expect(json.headers.get('content-disposition')).toBe(`attachment; filename="Ground-Floor-Caf_.json"; filename*=UTF-8''Ground-Floor-Caf%C3%A9.json`);
      const body = await json.json();
      expect(body.title).toBe('Ground Floor: Café');
      expect(body.document.locations.map((l: { id: string }) => l.id)).toEqual(['cafe']);
      const csv = await fetch(`${server.url}/api/maps/${made.body.result}/locations.csv`, { headers: { cookie: admin.cookie } });
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect((await csv.text()).split('\r\n')[1]).toBe('cafe,Café,,,Ground floor,,,,,,,pin,,,,,,,,,no,');
      const geojson = await fetch(`${server.url}/api/maps/${made.body.result}/export.geojson`, { headers: { cookie: owner.cookie } });
      expect(geojson.headers.get('content-type')).toBe('application/geo+json; charset=utf-8');
      // The new map's floor is not calibrated: no place on the globe to give its location.
      expect(await geojson.json()).toEqual({ type: 'FeatureCollection', features: [] });
      expect((await fetch(`${server.url}/api/maps/${made.body.result}/export.geojson`, { headers: { cookie: ben.cookie } })).status).toBe(403);
      expect((await fetch(`${server.url}/api/maps/${made.body.result}/export.json`, { headers: { cookie: ben.cookie } })).status).toBe(403);
      expect((await fetch(`${server.url}/api/maps/${made.body.result}/locations.csv`)).status).toBe(401);
    });
  });

  describe('bad input', () => {
    it('malformed JSON', async () => {
      await refused(() => post('/api/fn/createMap', '{"data": {', { cookie: ana.cookie }), 400, 'INVALID_ARGUMENT', 'Request body is not valid JSON.');
    });

    it('a body that is not the callable shape', async () => {
      const message = 'Request body must be a JSON object with a data field.';
      await refused(() => post('/api/fn/createMap', '{"title":"x"}', { cookie: ana.cookie }), 400, 'INVALID_ARGUMENT', message);
      await refused(() => post('/api/fn/createMap', '[1,2]', { cookie: ana.cookie }), 400, 'INVALID_ARGUMENT', message);
      await refused(() => post('/api/fn/createMap', '"text"', { cookie: ana.cookie }), 400, 'INVALID_ARGUMENT', message);
    });

    it('not JSON at all', async () => {
      await refused(
        () => fetch(`${server.url}/api/fn/createMap`, { method: 'POST', headers: { 'content-type': 'text/plain', cookie: ana.cookie }, body: 'hello' }).then(async (r) => ({ status: r.status, body: await r.json() })),
        400,
        'INVALID_ARGUMENT',
        'Request body must be JSON (Content-Type: application/json).',
      );
    });

    it('an unknown function', async () => {
      await refused(() => call(server, 'dropAllTables', {}, ana), 404, 'NOT_FOUND', 'Unknown function: dropAllTables');
      await refused(() => call(server, 'constructor', {}, ana), 404, 'NOT_FOUND');
    });

    it('wrong field types and values', async () => {
      await refused(() => call(server, 'createMap', { title: 42 }, ana), 400, 'INVALID_ARGUMENT', 'title: Title must be text.');
      await refused(() => call(server, 'createMap', { title: '   ' }, ana), 400, 'INVALID_ARGUMENT', 'title: Title is required.');
      await refused(() => call(server, 'createMap', { title: 'x'.repeat(121) }, ana), 400, 'INVALID_ARGUMENT', 'title: Title must be at most 120 characters.');
      await refused(() => call(server, 'createMap', { title: 'Ok', mapData: { layers: 'many' } }, ana), 400, 'INVALID_ARGUMENT', 'Layers is not valid.');
      await refused(() => call(server, 'saveMap', { id: 7 }, ana), 400, 'INVALID_ARGUMENT', 'id: Map id must be text.');
      await refused(() => call(server, 'deleteMap', { id: '../etc/passwd' }, ana), 400, 'INVALID_ARGUMENT', 'id: Map id is not valid.');
    });

    it('a body over the size limit', async () => {
      const big = JSON.stringify({ data: { title: 'Big', mapData: { layers: [], locations: [], notes: 'x'.repeat(70 * 1024) } } });
      await refused(() => post('/api/fn/createMap', big, { cookie: ana.cookie }), 400, 'INVALID_ARGUMENT', 'Request body is too large (the limit is 64 KB).');
    });

    it('an unknown API path is not found, in the same error shape', async () => {
      const response = await fetch(`${server.url}/api/nothing-here`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'Not found: GET /api/nothing-here' } });
    });
  });
});
