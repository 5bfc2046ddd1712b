/**
 * Numbers for the owner (issue 19, part 4): the viewer's beacons counted per map and day in
 * the read model, and the report for owners and editors only.
 *
 * Given a published map, when visitors' pages send beacons (from many addresses, as visitors
 * do), then the report's counts equal what was sent, per day; test maps and unknown maps are
 * refused alike and count nothing; one address is limited; every role gets what the access
 * policy says; a deleted map's counts go with it, those pending in memory when it went too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import type { InsightCounter, InsightsReport } from '../../events/insights.js';
import { databaseTargets } from '../support/databases.js';
import { share } from '../support/sharing.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const document = {
  version: 2,
  settings: defaultSettings(),
  layers: [{ id: 'ground', name: 'Ground floor', file: null }],
  locations: [
    { id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 100, y: 200 }, groups: [] },
    { id: 'shoes', title: 'Shoe Palace', layer: 'ground', position: { x: 300, y: 200 }, groups: [] },
  ],
  groups: [],
  styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
};

/** A clock a day can be added to (the rest of the app keeps running on it). */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const today = () => clock.now().toISOString().slice(0, 10);
let address = 0;

describe.each(databaseTargets)('insights on $name', (target) => {
  let server: TestServer;
  let owner: TestUser & { email: string };
  let editor: TestUser & { email: string };
  let viewer: TestUser & { email: string };
  let stranger: TestUser;
  let admin: TestUser;
  let mapId: string;

  async function person(email?: string) {
    const chosen = email ?? `insights-${Math.random().toString(36).slice(2)}@example.com`;
    return { ...(await registerUser(server, chosen)), email: chosen };
  }

  async function createMap(title: string, published: boolean): Promise<string> {
    const answer = await call(server, 'createMap', { title, mapData: document }, owner);
    expect(answer.status).toBe(200);
    await projected(server, answer.body.position);
    const id = answer.body.result as string;
    // Publishing through slots is another issue's: the read model's state, as public-map.test.ts does.
    if (published) await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [id]);
    return id;
  }

  /** One page's beacon, from a visitor's address of its own unless one is given. */
  function beacon(id: string, counters: InsightCounter[], from = `10.1.${(address >> 8) & 255}.${address++ & 255}`) {
    return server.app.inject({
      method: 'POST',
      url: `/api/public/maps/${encodeURIComponent(id)}/insights`,
      remoteAddress: from,
      payload: { data: { counters } },
    });
  }

  async function report(user: TestUser | undefined, query = '') {
    const response = await fetch(`${server.url}/api/maps/${mapId}/insights${query}`, { headers: user ? { cookie: user.cookie } : {} });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text.startsWith('{') ? (JSON.parse(text) as { result: InsightsReport; error?: { message: string } }) : null };
  }

  beforeAll(async () => {
    server = await startTestServer(target, { clock, env: { INSIGHTS_BEACONS_PER_MINUTE: '5', INSIGHTS_FLUSH_MS: '60000' } });
    owner = await person();
    editor = await person();
    viewer = await person();
    stranger = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
    mapId = await createMap('Westfield Mall', true);
    await share(server, owner, mapId, editor, 'editor');
    await share(server, owner, mapId, viewer, 'viewer');
  });
  afterAll(() => server?.close());

  it('counts what the beacons carry, per day, and reports it', async () => {
    clock.offsetMs = -86_400_000;
    const yesterday = today();
    for (let i = 0; i < 7; i++) {
      const answer = await beacon(mapId, [
        { kind: 'view', count: 1 },
        { kind: 'search', text: i % 2 ? '  Café  ' : 'café', found: true, count: 1 },
        { kind: 'open', location: 'cafe', count: 2 },
      ]);
      expect(answer.statusCode).toBe(204);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    clock.offsetMs = 0;
    for (let i = 0; i < 4; i++) {
      expect((await beacon(mapId, [{ kind: 'view', count: 1 }, { kind: 'search', text: 'Toilets', found: false, count: 1 }, { kind: 'directions', location: 'shoes', count: 1 }])).statusCode).toBe(204);
    }
    // A location that is not on the map is counted but never listed; a search of spaces counts nothing.
    expect((await beacon(mapId, [{ kind: 'open', location: 'made-up', count: 50 }, { kind: 'search', text: '   ', found: false, count: 1 }])).statusCode).toBe(204);

    const answer = await report(owner, `?from=${yesterday}&to=${today()}`);
    expect(answer.status).toBe(200);
    const result = answer.body!.result;
    expect(result.days).toEqual([{ day: yesterday, views: 7 }, { day: today(), views: 4 }]);
    expect(result.totals).toEqual({ views: 11, searches: 11, searchesWithoutResults: 4, opens: 64, directions: 4 });
    expect(result.topLocations).toEqual([{ id: 'cafe', title: 'Café Noir', count: 14 }]);
    expect(result.topDirections).toEqual([{ id: 'shoes', title: 'Shoe Palace', count: 4 }]);
    expect(result.topSearches).toEqual([{ text: 'café', count: 7 }, { text: 'toilets', count: 4 }]);
    expect(result.searchesWithoutResults).toEqual([{ text: 'toilets', count: 4 }]);

    // The default range is the last 30 days, every day present.
    const recent = (await report(owner)).body!.result;
    expect(recent.days).toHaveLength(30);
    expect(recent.to).toBe(today());
    expect(recent.days.at(-2)).toEqual({ day: yesterday, views: 7 });

    // As CSV: one line per day, metric and item, titles where the location is on the map.
    const csv = await report(owner, `?from=${yesterday}&to=${today()}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="insights-/);
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('day,metric,item,title,count');
    expect(lines).toContain(`${yesterday},views,,,7`);
    expect(lines).toContain(`${yesterday},location opened,cafe,Café Noir,14`);
    expect(lines).toContain(`${today()},search without results,toilets,,4`);
    expect(lines).toContain(`${today()},directions asked,shoes,Shoe Palace,4`);
  });

  it('refuses test maps and unknown maps alike, counting nothing', async () => {
    const testMap = await createMap('Draft', false);
    const unknown = await beacon('no-such-map', [{ kind: 'view', count: 1 }]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'Map not found.' } });
    const test = await beacon(testMap, [{ kind: 'view', count: 1 }]);
    expect(test.statusCode).toBe(404);
    expect(test.json()).toEqual(unknown.json());
    await server.app.insights.flush();
    const { rows } = await server.database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM map_insights WHERE map_id = ANY($1::text[])', [[testMap, 'no-such-map']]);
    expect(rows[0]!.n).toBe('0');
  });

  it('refuses malformed beacons, naming the field', async () => {
    const tooMany = await beacon(mapId, Array.from({ length: 51 }, () => ({ kind: 'view' as const, count: 1 })));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toMatch(/counters/);
    const unknownKind = await beacon(mapId, [{ kind: 'purchase', count: 1 } as unknown as InsightCounter]);
    expect(unknownKind.statusCode).toBe(400);
    const huge = await beacon(mapId, [{ kind: 'view', count: 1000 }]);
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.message).toMatch(/count/);
    const badLocation = await beacon(mapId, [{ kind: 'open', location: '../../etc', count: 1 }]);
    expect(badLocation.statusCode).toBe(400);
  });

  it('limits one address, and refuses beacons from other sites’ pages', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await beacon(mapId, [{ kind: 'view', count: 1 }], '203.0.113.7')).statusCode);
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
    const limited = await beacon(mapId, [{ kind: 'view', count: 1 }], '203.0.113.7');
    expect(limited.json().error.status).toBe('RESOURCE_EXHAUSTED');
    // Another address is not held back by it.
    expect((await beacon(mapId, [{ kind: 'view', count: 1 }], '203.0.113.8')).statusCode).toBe(204);
    const crossSite = await server.app.inject({
      method: 'POST',
      url: `/api/public/maps/${mapId}/insights`,
      remoteAddress: '203.0.113.9',
      headers: { origin: 'https://evil.example' },
      payload: { data: { counters: [{ kind: 'view', count: 1 }] } },
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it('shows the report to owners, editors and admins only', async () => {
    // owner, editor, admin: the numbers; a viewer (who may comment), a stranger: refused; signed out: 401.
    const expected: Array<[string, TestUser | undefined, number, RegExp | null]> = [
      ['owner', owner, 200, null],
      ['editor', editor, 200, null],
      ['admin', admin, 200, null],
      ['viewer', viewer, 403, /ask its owner to make you an editor/],
      ['stranger', stranger, 403, /You do not have access to this map/],
      ['signed out', undefined, 401, /Unauthenticated/],
    ];
    for (const [role, user, status, message] of expected) {
      for (const query of ['', '?format=csv']) {
        const answer = await report(user, query);
        expect({ role, query, status: answer.status }).toEqual({ role, query, status });
        if (message) expect(answer.body?.error?.message).toMatch(message);
      }
    }
    // A view link lets its holder see the map, not its numbers.
    const link = await call(server, 'setMapViewLink', { mapId, enabled: true }, owner);
    expect(link.status).toBe(200);
    await projected(server, link.body.position);
    const key = new URL(link.body.result.url as string).searchParams.get('key')!;
    expect((await report(undefined, `?key=${encodeURIComponent(key)}`)).status).toBe(401);
    expect((await report(stranger, `?key=${encodeURIComponent(key)}`)).status).toBe(403);
    // An unknown map: not found, for anyone signed in.
    const missing = await fetch(`${server.url}/api/maps/no-such-map/insights`, { headers: { cookie: owner.cookie } });
    expect(missing.status).toBe(404);
  });

  it('refuses a range that is backwards or too long', async () => {
    expect((await report(owner, '?from=2026-02-01&to=2026-01-01')).status).toBe(400);
    expect((await report(owner, '?from=2020-01-01&to=2026-01-01')).status).toBe(400);
    expect((await report(owner, '?from=2026-02-30')).status).toBe(400);
  });

  it('forgets a deleted map’s counts, and does not write those still pending when it went', async () => {
    const gone = await createMap('Closing Down', true);
    const rows = async (id: string) => Number((await server.database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM map_insights WHERE map_id = $1', [id])).rows[0]!.n);
    expect((await beacon(gone, [{ kind: 'view', count: 3 }, { kind: 'open', location: 'cafe', count: 1 }])).statusCode).toBe(204);
    await server.app.insights.flush();
    expect(await rows(gone)).toBe(2);
    const others = await rows(mapId);
    expect(others).toBeGreaterThan(0);

    // A visit counted in memory just before the map goes, written after.
    expect((await beacon(gone, [{ kind: 'view', count: 1 }, { kind: 'search', text: 'closing', found: false, count: 1 }])).statusCode).toBe(204);
    const deleted = await call(server, 'deleteMap', { id: gone }, owner);
    expect(deleted.status).toBe(200);
    await projected(server, deleted.body.position);
    expect(await rows(gone)).toBe(0);
    await server.app.insights.flush();
    expect(await rows(gone)).toBe(0);
    // Every other map keeps its counts.
    expect(await rows(mapId)).toBe(others);
  });
});
