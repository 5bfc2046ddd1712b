/**
 * Text PostgreSQL cannot store (NUL) or UTF-8 cannot carry (an unpaired surrogate), sent to
 * every kind of boundary: a callable's payload, an account route, the contact form, a query
 * string, a URL parameter. Each is refused with 400 invalid-argument naming the field, and
 * nothing is written (before this check, PostgreSQL refused the text and the answer was 500).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSAFE_TEXT_MESSAGE } from '../../events/safe-text.js';
import { databaseTargets } from '../support/databases.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/** NUL, and a high surrogate with no low one after it. */
const UNSAFE = [
  { name: 'NUL', char: '\u0000', escaped: '\\u0000' },
  { name: 'a lone surrogate', char: '\ud800', escaped: '\\ud800' },
] as const;

describe.each(databaseTargets)('unsafe text at the boundaries on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let mapId: string;
  let clientCount = 0;

  beforeAll(async () => {
    server = await startTestServer(target, { env: { TRUST_PROXY: 'loopback' } });
    owner = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
    const made = await call(server, 'createMap', { title: 'Harbour Market' }, owner);
    mapId = made.body.result;
    const edited = await call(server, 'editMap', { id: mapId, edits: [{ type: 'LocationAdded', location: { id: 'cafe', title: 'Cafe', layer: 'ground' } }] }, owner);
    await projected(server, edited.body.position);
  });
  afterAll(() => server.close());

  const eventCount = async () => Number((await server.database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM es_events')).rows[0]!.n);

  /** Posts `{data}` as JSON; the raw body carries the character escaped, as JSON.stringify writes it. */
  async function post(path: string, data: unknown, escaped: string, user?: TestUser) {
    const body = JSON.stringify({ data });
    expect(body).toContain(escaped);
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      // Each request its own client address: the rate limits of one test do not reach another.
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${++clientCount}`, ...(user ? { cookie: user.cookie } : {}) },
      body,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function get(path: string, user?: TestUser) {
    const response = await fetch(`${server.url}${path}`, { headers: user ? { cookie: user.cookie } : {} });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** Then: 400 invalid-argument naming the field, and nothing recorded. */
  async function refusedNaming(field: string, request: () => Promise<{ status: number; body: any }>) {
    const before = await eventCount();
    const answer = await request();
    expect(answer).toEqual({ status: 400, body: { error: { status: 'INVALID_ARGUMENT', message: `${field}: ${UNSAFE_TEXT_MESSAGE}` } } });
    expect(await eventCount()).toBe(before);
  }

  describe.each(UNSAFE)('with $name', ({ char, escaped }) => {
    it('in a new map title (createMap)', async () => {
      await refusedNaming('data.title', () => post('/api/fn/createMap', { title: `Harbour${char}` }, escaped, admin));
    });

    it('in a saved title (saveMap)', async () => {
      await refusedNaming('data.title', () => post('/api/fn/saveMap', { id: mapId, title: `Pier ${char}` }, escaped, owner));
    });

    it("in a location's description (editMap)", async () => {
      const edits = [{ type: 'LocationUpdated', id: 'cafe', changes: { description: `<p>Open ${char} late</p>` } }];
      await refusedNaming('data.edits.0.changes.description', () => post('/api/fn/editMap', { id: mapId, edits }, escaped, owner));
    });

    it('in a version name (saveMapHistory)', async () => {
      await refusedNaming('data.name', () => post('/api/fn/saveMapHistory', { mapId, name: `Spring ${char}` }, escaped, owner));
    });

    it('in a display name (register and update-profile)', async () => {
      const email = `unsafe-${Date.now()}-${clientCount}@example.com`;
      await refusedNaming('data.displayName', () => post('/api/auth/register', { email, password: 'a long enough password', displayName: `Ana${char}` }, escaped));
      await refusedNaming('data.displayName', () => post('/api/auth/update-profile', { displayName: `Ana${char}` }, escaped, owner));
    });

    it('in an object key', async () => {
      const key = `x${char}`;
      // The key is named with the character escaped, so the message itself stays clean text.
      await refusedNaming(`data.mapData.x${escaped}`, () => post('/api/fn/createMap', { title: 'Keys', mapData: { layers: [], locations: [], [key]: 1 } }, escaped, admin));
    });

    it('in a websocket message', async () => {
      const live = await openLive(server, owner);
      await live.next((m) => m.type === 'welcome');
      const text = JSON.stringify({ v: 2, type: 'subscribe', topic: `map:${mapId}${char}` });
      expect(text).toContain(escaped);
      live.socket.send(text);
      expect(await live.next((m) => m.type === 'error')).toEqual({ v: 2, type: 'error', code: 'invalid-argument', message: `topic: ${UNSAFE_TEXT_MESSAGE}` });
      live.close();
    });

    it('in the contact form', async () => {
      const sentAt = Date.now();
      const message = { name: 'Priya', email: 'priya@example.com', topic: 'general', message: `Hello there ${char}, about a map`, website: '', renderedAt: sentAt - 12_000, sentAt };
      await refusedNaming('data.message', () => post('/api/contact', message, escaped));
    });
  });

  it('NUL in a query string and in a URL parameter (%00)', async () => {
    await refusedNaming('q', () => get('/api/admin/maps?q=%00', admin));
    await refusedNaming('id', () => get('/api/maps/%00/data', owner));
  });

  /**
   * A URL cannot carry a lone surrogate: it has no UTF-8 form, so the most a careless encoder
   * can send is CESU-8's `%ED%A0%80`, which does not decode. In a path Fastify's router refuses
   * it (400); in a query string it stays the literal text it is. Never a 500.
   */
  it('a lone surrogate in a URL never decodes', async () => {
    const parameter = await get('/api/maps/%ED%A0%80/data', owner);
    expect(parameter.status).toBe(400);
    expect(parameter.body.error.status).toBe('INVALID_ARGUMENT');
    const query = await get('/api/admin/maps?q=%ED%A0%80', admin);
    expect(query.status).toBe(200);
    expect(query.body.result.items).toEqual([]);
  });
});
