/**
 * `GET /api/public/maps/:id/places` (issue 29 item 4) through the real server and the real
 * gazetteer worker: a published map's visitor finds places (the view's country first), a test
 * map answers only whoever may see it, bad queries are refused naming the field, a flood is
 * limited, and the answer is kept a day by caches for a published map only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.js';
import { call, createMapAs, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe.each(databaseTargets.filter((target) => target.name === 'pglite'))('place search on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let mapId: string;

  beforeAll(async () => {
    server = await startTestServer(target, { env: { ADMIN_EMAILS: 'admin@example.com' } });
    owner = await registerUser(server);
    mapId = await createMapAs(server, owner, 'Stores');
  }, 60_000);
  afterAll(() => server?.close());

  const search = (query: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url: `/api/public/maps/${mapId}/places${query}`, headers });

  it('answers a test map’s owner with the places a search may mean, the view’s country first', { timeout: 60_000 }, async () => {
    const denver = await search('?q=Denver', { cookie: owner.cookie });
    expect(denver.statusCode).toBe(200);
    expect(denver.headers['cache-control']).toBe('private, no-store');
    expect(denver.json().result.places[0]).toMatchObject({ name: 'Denver', region: 'CO', country: 'US', precision: 'city' });
    // Looking at Texas, Paris is Paris, Texas; looking at Europe, the French one.
    const texas = await search(`?q=Paris&near=${encodeURIComponent('32.8,-96.8')}`, { cookie: owner.cookie });
    expect(texas.json().result.places[0]).toMatchObject({ name: 'Paris', country: 'US' });
    const europe = await search(`?q=Paris&near=${encodeURIComponent('50.1,8.7')}`, { cookie: owner.cookie });
    expect(europe.json().result.places[0]).toMatchObject({ name: 'Paris', country: 'FR' });
    const zip = await search('?q=80202', { cookie: owner.cookie });
    expect(zip.json().result.places[0]).toMatchObject({ name: '80202', precision: 'postcode' });
    const nothing = await search('?q=Xyzzyville', { cookie: owner.cookie });
    expect(nothing.json()).toEqual({ result: { places: [] } });
  });

  it('is a missing map to anyone else, and to everyone for an unknown id', async () => {
    expect((await search('?q=Denver')).statusCode).toBe(404);
    const stranger = await registerUser(server);
    expect((await search('?q=Denver', { cookie: stranger.cookie })).statusCode).toBe(404);
    const unknown = await server.app.inject({ method: 'GET', url: '/api/public/maps/no-such-map/places?q=Denver' });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a query without text or with a malformed view, naming the field', async () => {
    const empty = await search('?q=%20', { cookie: owner.cookie });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toMatch(/q/);
    const near = await search('?q=Denver&near=here', { cookie: owner.cookie });
    expect(near.statusCode).toBe(400);
    expect(near.json().error.message).toMatch(/near/);
  });

  it('answers anyone for a published map, kept a day by caches', { timeout: 60_000 }, async () => {
    const admin = await registerUser(server, 'admin@example.com');
    const published = await createMapAs(server, owner, 'Published stores');
    const changed = await call(server, 'adminUpdateMap', { id: published, state: 1 }, admin);
    expect(changed.status).toBe(200);
    await projected(server, changed.body.position);
    const reply = await server.app.inject({ method: 'GET', url: `/api/public/maps/${published}/places?q=Toronto` });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('public, max-age=86400');
    expect(reply.json().result.places[0]).toMatchObject({ name: 'Toronto', country: 'CA' });
  });

  it('limits one visitor to 30 searches a minute', async () => {
    const from = { 'x-forwarded-for': '203.0.113.9' };
    const answers: number[] = [];
    for (let i = 0; i < 32; i++) {
      const reply = await server.app.inject({ method: 'GET', url: `/api/public/maps/${mapId}/places?q=Denver`, remoteAddress: '203.0.113.9', headers: from });
      answers.push(reply.statusCode);
    }
    expect(answers.filter((status) => status === 429)).toHaveLength(answers.length - 30);
  });
});
