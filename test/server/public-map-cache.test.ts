/**
 * Published maps served from memory (server/public-maps): one build per revision in three
 * codings, ETag and 304, the headers a CDN reads, no database read for a cached map, and the
 * access rules of test and deleted maps unchanged.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../ports/database.js';
import { ERROR_CACHE_CONTROL, PRIVATE_CACHE_CONTROL, PUBLISHED_CACHE_CONTROL } from '../../server/routes/public-map-routes.js';
import type { PublicMap } from '../../events/http-api.js';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { share } from '../support/sharing.js';
import { until } from '../support/until.js';

/**
 * Counts every query of the app while `counting.on` (the projections are stopped then, and
 * nothing else of an idle app queries: its other timers work in memory or hourly).
 */
const counting = { on: false, queries: 0 };
function countQueries(db: Database): Database {
  const count = () => {
    if (counting.on) counting.queries++;
  };
  return {
    kind: db.kind,
    query: (sql, params) => (count(), db.query(sql, params)),
    exec: (sql) => (count(), db.exec(sql)),
    transaction: (work) => (count(), db.transaction(work)),
    listen: (channel, handler, options) => db.listen(channel, handler, options),
    openLockSession: () => db.openLockSession(),
    close: () => db.close(),
  };
}

/** A page renderer that says which map and revision it drew, and how often it was asked. */
const renders: string[] = [];
const viewerPage = {
  async render(map: PublicMap) {
    renders.push(`${map.id}@${map.revision}`);
    return `<!doctype html><html><body><div id="viewer-root"><h1>${map.title}</h1>${'<p>padding</p>'.repeat(200)}</div></body></html>`;
  },
  async shell() {
    return '<!doctype html><html><body><div id="viewer-root"></div></body></html>';
  },
};

describe.each(databaseTargets)('published maps from memory on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target, { appDatabase: countQueries, viewerPage });
    owner = await registerUser(server);
    stranger = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
  });
  afterAll(() => server?.close());

  async function createMap(title: string, { published = true } = {}): Promise<string> {
    const made = await call(server, 'createMap', { title }, owner);
    expect(made.status).toBe(200);
    await projected(server, made.body.position);
    const id = made.body.result as string;
    if (published) await setState(id, 1);
    return id;
  }

  async function setState(id: string, state: number) {
    const changed = await call(server, 'adminUpdateMap', { id, state }, admin);
    expect(changed.status).toBe(200);
    await projected(server, changed.body.position);
    // Every edit public at once (issue 27: new maps wait for a publish), as these tests change maps and read them back.
    const live = await call(server, 'setMapPublishMode', { mapId: id, mode: 'live' }, admin);
    if (live.body.position) await projected(server, live.body.position);
    await until(() => get(`/api/public/maps/${id}`), (answer) => (state >= 1 ? answer.statusCode === 200 && answer.headers.etag?.endsWith(`.${state}"`) === true : answer.statusCode === 404), `state ${state}`);
  }

  function get(url: string, headers: Record<string, string> = {}) {
    return server.app.inject({ method: 'GET', url, headers });
  }

  /** A request counted: how many queries the app made while it was answered. */
  async function counted(url: string, headers: Record<string, string> = {}) {
    counting.queries = 0;
    counting.on = true;
    try {
      const response = await get(url, headers);
      return { response, queries: counting.queries };
    } finally {
      counting.on = false;
    }
  }

  it('answers each coding the client takes, the same bytes once decoded, varying on Accept-Encoding', async () => {
    const id = await createMap('Codings');
    const plain = await get(`/api/public/maps/${id}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
    expect(JSON.parse(plain.body).result).toMatchObject({ id, title: 'Codings', state: 1, test: false });

    const cases: Array<[string, string | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
    ];
    for (const [accept, coding] of cases) {
      const answer = await get(`/api/public/maps/${id}`, { 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBe(coding);
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
      const decoded = coding === 'br' ? brotliDecompressSync(answer.rawPayload) : coding === 'gzip' ? gunzipSync(answer.rawPayload) : answer.rawPayload;
      expect(decoded.equals(plain.rawPayload), accept).toBe(true);
      if (coding) expect(answer.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    }
  });

  it('answers 304 to a matching If-None-Match (strong, weak, in a list, or *) with its validators', async () => {
    const id = await createMap('Validators');
    const first = await get(`/api/public/maps/${id}`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/); // strong and quoted
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const answer = await get(`/api/public/maps/${id}`, { 'if-none-match': header, 'accept-encoding': 'br' });
      expect(answer.statusCode, header).toBe(304);
      expect(answer.rawPayload.length).toBe(0);
      expect(answer.headers.etag).toBe(etag);
      expect(answer.headers['cache-control']).toBe(PUBLISHED_CACHE_CONTROL);
      expect(answer.headers.vary).toBe('Accept-Encoding');
      // Answered before the handler (the route's onRequest), with the data kind's security headers all the same.
      expect(answer.headers['x-content-type-options']).toBe(first.headers['x-content-type-options']);
      expect(answer.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    }
    expect((await get(`/api/public/maps/${id}`, { 'if-none-match': '"nope"' })).statusCode).toBe(200);
  });

  it('renders the viewer page once per revision, compressed, and again after a change', async () => {
    const id = await createMap('Paged');
    const before = renders.filter((r) => r.startsWith(`${id}@`)).length;
    const page = await get(`/m/${id}`, { 'accept-encoding': 'br' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe(PUBLISHED_CACHE_CONTROL);
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<h1>Paged</h1>');
    for (let i = 0; i < 3; i++) await get(`/m/${id}`, { 'accept-encoding': i % 2 ? 'gzip' : '' });
    expect(renders.filter((r) => r.startsWith(`${id}@`)).length).toBe(before + 1);
    const etag = page.headers.etag as string;
    expect((await get(`/m/${id}`, { 'if-none-match': etag })).statusCode).toBe(304);

    const saved = await call(server, 'saveMap', { id, title: 'Paged, renamed' }, owner);
    await projected(server, saved.body.position);
    const after = await until(() => get(`/m/${id}`), (answer) => answer.body.includes('Paged, renamed'), 'the page of the renamed map');
    expect(after.headers.etag).not.toBe(etag);
    expect(renders.filter((r) => r.startsWith(`${id}@`)).length).toBe(before + 2);
  });

  it('keeps a test map to whoever may see it (owner, member, admin, view link), uncached; others get the unknown map 404', async () => {
    const id = await createMap('Draft', { published: false });
    const member = { ...(await registerUser(server, `member-${Date.now()}@example.com`)), email: '' };
    member.email = (await server.app.inject({ url: '/api/auth/me', headers: { cookie: member.cookie } }).then((r) => JSON.parse(r.body).result?.email)) ?? '';
    await share(server, owner, id, member, 'viewer');
    const link = await call(server, 'setMapViewLink', { mapId: id, enabled: true }, owner);
    await projected(server, link.body.position);
    const key = new URL(link.body.result.url as string).searchParams.get('key')!;
    const unknown = await get('/api/public/maps/no-such-map');

    for (const [who, headers, query] of [
      ['owner', { cookie: owner.cookie }, ''],
      ['member', { cookie: member.cookie }, ''],
      ['admin', { cookie: admin.cookie }, ''],
      ['view link', {}, `?key=${key}`],
    ] as const) {
      const answer = await get(`/api/public/maps/${id}${query}`, { ...headers, 'accept-encoding': 'gzip' });
      expect(answer.statusCode, who).toBe(200);
      expect(answer.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
      expect(answer.headers.etag).toBeUndefined();
      const body = answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.rawPayload).toString() : answer.body;
      expect(JSON.parse(body).result).toMatchObject({ id, state: 0, test: true });
      const page = await get(`/m/${id}${query}`, headers);
      expect(page.statusCode, who).toBe(200);
      expect(page.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    }
    for (const [who, headers, query] of [
      ['stranger', { cookie: stranger.cookie }, ''],
      ['signed out', {}, ''],
      ['wrong key', {}, `?key=${key}x`],
    ] as const) {
      const answer = await get(`/api/public/maps/${id}${query}`, headers);
      expect(answer.statusCode, who).toBe(404);
      expect(answer.body).toBe(unknown.body);
      expect(answer.headers['cache-control']).toBe(ERROR_CACHE_CONTROL);
      const page = await get(`/m/${id}${query}`, headers);
      expect(page.statusCode, who).toBe(404);
      expect(page.headers['cache-control']).toBe(ERROR_CACHE_CONTROL);
    }
    expect(server.app.publicMaps.has('json', id)).toBe(false);
    expect(server.app.publicMaps.has('html', id)).toBe(false);
  });

  it('drops a map unpublished or deleted: the next answer is a 404 nobody keeps', async () => {
    const id = await createMap('Short-lived');
    expect((await get(`/api/public/maps/${id}`)).statusCode).toBe(200);
    expect((await get(`/m/${id}`)).statusCode).toBe(200);
    expect(server.app.publicMaps.has('json', id)).toBe(true);
    expect(server.app.publicMaps.has('html', id)).toBe(true);

    await setState(id, 0); // unpublished: a test map again
    expect(server.app.publicMaps.has('json', id)).toBe(false);
    expect((await get(`/m/${id}`)).statusCode).toBe(404);
    await setState(id, 2);
    expect((await get(`/m/${id}`)).statusCode).toBe(200);

    const deleted = await call(server, 'deleteMap', { id }, owner);
    await projected(server, deleted.body.position);
    const gone = await until(() => get(`/api/public/maps/${id}`, { cookie: owner.cookie }), (answer) => answer.statusCode === 404, 'the deleted map gone');
    expect(gone.headers['cache-control']).toBe(ERROR_CACHE_CONTROL);
    expect(server.app.publicMaps.has('json', id)).toBe(false);
    expect(server.app.publicMaps.has('html', id)).toBe(false);
    expect((await get(`/m/${id}`, { cookie: admin.cookie })).statusCode).toBe(404);
    expect((await get(`/api/public/maps/${id}`, { cookie: admin.cookie })).statusCode).toBe(404);
  });

  it('says in /metrics how much it keeps and how often it answered from memory', async () => {
    const id = await createMap('Counted');
    const before = server.app.publicMaps.stats;
    await get(`/api/public/maps/${id}`);
    await get(`/api/public/maps/${id}`);
    const after = server.app.publicMaps.stats;
    expect(after.hits).toBeGreaterThan(before.hits);
    const text = (await get('/metrics')).body;
    expect(text).toMatch(new RegExp(`mapfold_public_map_cache_bytes ${after.bytes}\\b`));
    expect(text).toMatch(/mapfold_public_map_cache_entries [1-9]/);
    expect(text).toMatch(/mapfold_public_map_cache_reads_total\{outcome="hit"\} [1-9]/);
    expect(text).toMatch(/mapfold_public_map_cache_reads_total\{outcome="miss"\} [1-9]/);
  });

  it('compresses the rest of the API over a kilobyte, and leaves small answers alone', async () => {
    // The owner's list of maps: over a kilobyte by now.
    const plain = await get('/api/maps', { cookie: owner.cookie });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const big = await get('/api/maps', { cookie: owner.cookie, 'accept-encoding': 'gzip, br' });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString()).result).toEqual(JSON.parse(plain.body).result);
    const small = await get('/api/health', { 'accept-encoding': 'gzip, br' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
  it('reads and revalidates a cached published map without touching the database, signed in or not', async () => {
    const id = await createMap('No queries');
    // Publishing read it already: start from a cold cache. The projections stop (the last
    // test here), so nothing but the requests below can query.
    await server.runner.stop();
    server.app.publicMaps.invalidate(id);
    const cold = await counted(`/api/public/maps/${id}`, { cookie: owner.cookie });
    expect(cold.response.statusCode).toBe(200);
    // The counter sees the app's queries (else the zeros below would prove nothing).
    expect(cold.queries).toBeGreaterThan(0);
    const etag = cold.response.headers.etag as string;
    for (const headers of [{}, { cookie: owner.cookie }, { cookie: stranger.cookie, 'accept-encoding': 'br' }]) {
      const warm = await counted(`/api/public/maps/${id}`, headers);
      expect(warm.response.statusCode).toBe(200);
      expect(warm.queries).toBe(0);
      const revalidated = await counted(`/api/public/maps/${id}`, { ...headers, 'if-none-match': etag });
      expect(revalidated.response.statusCode).toBe(304);
      expect(revalidated.queries).toBe(0);
    }
    // The page likewise, once rendered.
    server.app.publicMaps.invalidate(id);
    expect((await counted(`/m/${id}`)).queries).toBeGreaterThan(0);
    const page = await counted(`/m/${id}`, { cookie: owner.cookie, 'accept-encoding': 'gzip' });
    expect(page.response.statusCode).toBe(200);
    expect(page.queries).toBe(0);
    expect((await counted(`/m/${id}`, { 'if-none-match': page.response.headers.etag as string })).queries).toBe(0);
    // An unknown id is remembered too (until a map of that id is created).
    await get('/api/public/maps/never-made');
    expect((await counted('/api/public/maps/never-made')).queries).toBe(0);
  });
});
