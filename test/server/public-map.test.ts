/**
 * The public read API of a map (`GET /api/public/maps/:id`) and the viewer page (`/m/:id`):
 * who sees which map in which state, and which pages other sites may frame.
 *
 * Publishing goes through hosting slots (another issue); until then these tests make a map
 * public by setting its state in the maps_list read model directly.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseTargets } from '../support/databases.js';
import { call, liveNoticesDelivered, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { until } from '../support/until.js';
import { defaultSettings } from '../../events/map-document.js';

const document = {
  version: 2,
  // The product's default settings, with this map's size, zoom range, accent and minimap.
  settings: {
    ...defaultSettings(),
    size: { width: 1000, height: 600 },
    maxZoom: 6,
    theme: { ...defaultSettings().theme, accent: '#0f766e' },
    features: { ...defaultSettings().features, minimap: true },
    defaultLayer: 'ground',
  },
  layers: [{ id: 'ground', name: 'Ground floor', file: null }],
  locations: [{ id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 100, y: 200 }, groups: ['food'] }],
  groups: [{ id: 'food', name: 'Food', color: '#ea580c' }],
  styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
};

describe.each(databaseTargets)('public maps on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    owner = await registerUser(server);
    other = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
  });
  afterAll(() => server?.close());

  /** Publishing through slots is another issue: set the read model's state directly. */
  async function setState(id: string, state: number) {
    await server.database.db.query('UPDATE maps_list SET state = $2 WHERE id = $1', [id, state]);
  }

  /** A new map of the owner's, published (state 1) unless it stays a test map (state 0). */
  async function createMap(title: string, { test = false, by = owner } = {}): Promise<string> {
    const answer = await call(server, 'createMap', { title, mapData: document }, by);
    expect(answer.status).toBe(200);
    await projected(server, answer.body.position);
    const id = answer.body.result as string;
    // A test map holds one of the owner's two free test slots until it is published.
    if (!test) await setState(id, 1);
    return id;
  }

  async function get(id: string, user?: TestUser, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}/api/public/maps/${encodeURIComponent(id)}`, {
      headers: { ...(user ? { cookie: user.cookie } : {}), ...headers },
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as any) : null };
  }

  it('shows a test map to its owner and to admins, marked as a test map', async () => {
    const id = await createMap('Draft plan', { test: true });
    for (const user of [owner, admin]) {
      const answer = await get(id, user);
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject({ id, title: 'Draft plan', state: 0, test: true, revision: '0' });
      expect(answer.body.result.data.locations[0]).toMatchObject({ id: 'cafe', title: 'Café Noir', marker: 'pin' });
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('hides a test map from everyone else as if it did not exist', async () => {
    // Another user's test map (each user has two free test slots).
    const id = await createMap('Secret plan', { test: true, by: other });
    const unknown = await get('no-such-map');
    expect(unknown.status).toBe(404);
    for (const user of [undefined, owner]) {
      const answer = await get(id, user);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(unknown.body);
      expect(answer.body.error).toEqual({ status: 'NOT_FOUND', message: 'Map not found.' });
    }
  });

  it('shows live, demo, pro and admin maps to anyone, signed in or not', async () => {
    const id = await createMap('Westfield Mall');
    for (const state of [1, 2, 3, 9]) {
      // Through the log (not the read model alone), so the cached answer hears of it.
      const changed = await call(server, 'adminUpdateMap', { id, state }, admin);
      expect(changed.status).toBe(200);
      await projected(server, changed.body.position);
      await until(() => get(id), (answer) => answer.body?.result?.state === state, `state ${state} served`);
      for (const user of [undefined, other, owner, admin]) {
        const answer = await get(id, user);
        expect(answer.status).toBe(200);
        expect(answer.body.result).toMatchObject({ id, title: 'Westfield Mall', state, test: false });
        expect(answer.body.result.data.groups).toEqual([{ id: 'food', name: 'Food', color: '#ea580c', legend: true }]);
      }
    }
  });

  it('answers a public map with an ETag and 304 while it is unchanged', async () => {
    const id = await createMap('Cached');
    const first = await get(id);
    // Browsers revalidate each time; a CDN may keep it briefly (test/server/public-map-cache.test.ts).
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=0, s-maxage=\d+/);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await get(id, undefined, { 'if-none-match': etag })).status).toBe(304);

    const saved = await call(server, 'saveMap', { id, title: 'Cached, renamed' }, owner);
    await projected(server, saved.body.position);
    // The change reaches the cache by the projection's notice, just after its commit.
    const after = await until(() => get(id, undefined, { 'if-none-match': etag }), (answer) => answer.status !== 304, 'the renamed map');
    expect(after.status).toBe(200);
    expect(after.body.result.title).toBe('Cached, renamed');
  });

  it('answers the 304 of a map in memory before Fastify with the very headers of its route, and leaves every other request to Fastify', async () => {
    const id = await createMap('Revalidated');
    // The map's creation notice, once delivered, no longer drops what the first read keeps.
    await liveNoticesDelivered(server);
    const etag = (await get(id)).headers.get('etag')!;
    // Over HTTP: the server's fast path (publishedJsonNotModifiedFastPath); injected: Fastify's route, which the fast path does not see.
    // Fastify gives every request it sees an id (genReqId), which the fast path never asks for.
    // Only ids asked for by genReqId count: the server's background work (projections, reactors
    // catching up on the map just made) takes ids of its own at any moment (CI's PostgreSQL run once).
    const uuid = server.services.ids.uuid.bind(server.services.ids);
    let requestIds = 0;
    const spy = vi.spyOn(server.services.ids, 'uuid').mockImplementation(() => {
      if (new Error().stack?.includes('genReqId')) requestIds += 1;
      return uuid();
    });
    const overHttp = await fetch(`${server.url}/api/public/maps/${id}?key=ignored`, { headers: { 'if-none-match': `W/"other", ${etag}` } });
    expect(overHttp.status).toBe(304);
    expect(requestIds).toBe(0);
    const injected = await server.app.inject({ method: 'GET', url: `/api/public/maps/${id}?key=ignored`, headers: { 'if-none-match': `W/"other", ${etag}` } });
    expect(injected.statusCode).toBe(304);
    expect(requestIds).toBe(1);
    spy.mockRestore();
    // What either adds for its transport alone: the date, and the connection's keep-alive.
    const transport = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
    const headersOf = (entries: Iterable<[string, unknown]>) => Object.fromEntries([...entries].filter(([name]) => !transport.has(name)).map(([name, value]) => [name, String(value)]).sort());
    expect(headersOf(overHttp.headers.entries())).toEqual(headersOf(Object.entries(injected.headers)));
    expect(overHttp.headers.get('content-security-policy')).toBeTruthy();
    // Each of these is Fastify's to answer: a HEAD, another tag, a map not kept, a path that is not an id.
    expect((await fetch(`${server.url}/api/public/maps/${id}`, { method: 'HEAD', headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await get(id, undefined, { 'if-none-match': '"stale"' })).status).toBe(200);
    expect((await get('no-such-map', undefined, { 'if-none-match': etag })).status).toBe(404);
    expect((await fetch(`${server.url}/api/public/maps/${id}/x`, { headers: { 'if-none-match': etag } })).status).toBe(404);
  });

  it('gives 404 for a deleted map and for ids that cannot be map ids', async () => {
    const id = await createMap('Gone soon');
    expect((await get(id)).status).toBe(200);
    const deleted = await call(server, 'deleteMap', { id }, owner);
    await projected(server, deleted.body.position);
    await until(() => get(id), (answer) => answer.status === 404, 'the deleted map gone');
    expect((await get(id, admin)).status).toBe(404);
    expect((await get('../maps')).status).toBe(404);
    expect((await get('x'.repeat(500))).status).toBe(404);
  });

  it('lets any site frame the viewer page and only this site frame the others', async () => {
    // The rest of each page's policy: test/server/security-headers.test.ts.
    const frameAncestors = (response: Response) => /(?:^|;)\s*frame-ancestors ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
    const api = await fetch(`${server.url}/api/health`);
    expect(frameAncestors(api)).toBe("'self'");
    if (!existsSync('dist/client/viewer.html')) return; // the page itself needs the built client
    // A published map's page, and the page an embed of a map that is gone shows (with 404).
    const published = await createMap('Framed');
    for (const [id, status] of [[published, 200], ['some-map', 404]] as const) {
      const viewer = await fetch(`${server.url}/m/${id}`);
      expect(viewer.status).toBe(status);
      expect(viewer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(frameAncestors(viewer)).toBe('*');
      expect(viewer.headers.get('x-frame-options')).toBeNull();
      expect(await viewer.text()).toMatch(/<div id="viewer-root">/);
    }
    const app = await fetch(`${server.url}/maps`);
    expect(frameAncestors(app)).toBe("'self'");
  });
});
