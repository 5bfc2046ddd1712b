/**
 * Nothing "Hidden from visitors" goes public (issue 27, item 2), surface by surface, against the
 * real server and its real page renderer (dist/, as `npm test` builds it): the public JSON (a
 * published map, and a test map through its view link), the `/m/{id}` page with its data block,
 * the embed snippet's address (with a deep link to the hidden location), the insights beacon
 * (a hidden location's opens and directions are not counted, and the answer is the one any id
 * gets), and the live socket (no topic a visitor may follow carries the map). Each body is
 * searched whole for the hidden location's text, its id and the name of the group only it
 * belongs to. The picture a visitor saves is made in the browser from the page's data:
 * test/e2e/hidden-locations-picture.test.ts.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MapDocument } from '../../events/map-document';
import { documentWithHiddenLocation, expectNothingHidden, HIDDEN_ID } from '../support/hidden-location-map';
import { topics } from '../../events/topics';
import { CLOSE_UNAUTHENTICATED } from '../../events/live-messages';
import { embedSnippet } from '../../client/src/utils/embed';
import { databaseTargets } from '../support/databases';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';

const SERVER_RENDERER = new URL('../../dist/server/viewer-server.js', import.meta.url);

describe.each(databaseTargets)('nothing hidden goes public on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let stranger: TestUser;
  let mapId: string;

  async function createMap(title: string, { published }: { published: boolean }): Promise<string> {
    const made = await call(server, 'createMap', { title, mapData: documentWithHiddenLocation() }, owner);
    expect(made.status).toBe(200);
    await projected(server, made.body.position);
    const id = made.body.result as string;
    if (published) {
      const changed = await call(server, 'adminUpdateMap', { id, state: 1 }, admin);
      expect(changed.status).toBe(200);
      await projected(server, changed.body.position);
      await until(() => server.app.inject({ url: `/api/public/maps/${id}` }), (answer) => answer.statusCode === 200, 'published');
    }
    return id;
  }

  beforeAll(async () => {
    expect(existsSync(SERVER_RENDERER), 'the server renderer is built (npx vite build && npx vite build --ssr)').toBe(true);
    // Beacons counted only when the report asks (a long flush interval).
    server = await startTestServer(target, { env: { INSIGHTS_FLUSH_MS: '60000' } });
    owner = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
    stranger = await registerUser(server);
    mapId = await createMap('Corner Shop', { published: true });
    // A server and three accounts: over a minute on a loaded machine.
  }, 180_000);
  afterAll(() => server?.close());

  it('the public JSON: the shown location and its group, nothing of the hidden one, in every encoding', async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const response = await fetch(`${server.url}/api/public/maps/${mapId}`, { headers: { 'accept-encoding': encoding } });
      expect(response.status).toBe(200);
      const text = await response.text();
      expectNothingHidden(text, `JSON (${encoding})`);
      const data = MapDocument.parse(JSON.parse(text).result.data);
      expect(data.locations.map((location) => location.id)).toEqual(['cafe']);
      expect(data.groups.map((group) => group.name)).toEqual(['Food']);
    }
    // The ETag names the rules the copy was made by: a copy kept from before them is sent again, not confirmed.
    const answer = await server.app.inject({ url: `/api/public/maps/${mapId}` });
    expect(answer.headers.etag).toMatch(/^"v1\./);
  });

  it('a test map’s JSON through its view link, and to its owner, shows what visitors would see', async () => {
    const id = await createMap('Draft shop', { published: false });
    const link = await call(server, 'setMapViewLink', { mapId: id, enabled: true }, owner);
    expect(link.status).toBe(200);
    await projected(server, link.body.position);
    const key = new URL(link.body.result.url as string).searchParams.get('key')!;
    for (const [who, headers, query] of [
      ['view link', {}, `?key=${encodeURIComponent(key)}`],
      ['owner', { cookie: owner.cookie }, ''],
    ] as const) {
      const answer = await server.app.inject({ url: `/api/public/maps/${id}${query}`, headers });
      expect(answer.statusCode, who).toBe(200);
      expectNothingHidden(answer.body, `test map JSON (${who})`);
    }
  });

  it('the /m/{id} page: its markup, its data block and its description, in every language it is asked in', async () => {
    for (const url of [`/m/${mapId}`, `/m/${mapId}?lang=es`, `/m/${mapId}?location=${HIDDEN_ID}`]) {
      const page = await server.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      expect(page.statusCode, url).toBe(200);
      // The page is the real one: the shown location is in it.
      expect(page.body, url).toContain('Café Noir');
      expectNothingHidden(page.body, `page ${url}`);
    }
  });

  it('the embed: what the embed snippet’s address answers, deep-linked to the hidden location too', async () => {
    for (const options of [{}, { locationId: HIDDEN_ID }, { insights: false }]) {
      const snippet = embedSnippet({ mapId, publicUrl: server.url, title: 'Corner Shop', ...options });
      const src = /src="([^"]+)"/.exec(snippet)![1]!.replace(/&amp;/g, '&');
      const response = await fetch(src);
      expect(response.status, src).toBe(200);
      const body = await response.text();
      expect(body).toContain('Café Noir');
      expectNothingHidden(body, `embed ${src}`);
    }
  });

  it('insights: a hidden location’s opens and directions are not counted, and the beacon answers as for any id', async () => {
    const beacon = (location: string) =>
      server.app.inject({
        method: 'POST',
        url: `/api/public/maps/${mapId}/insights`,
        remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
        payload: { data: { counters: [{ kind: 'open', location, count: 3 }, { kind: 'directions', location, count: 2 }] } },
      });
    const hidden = await beacon(HIDDEN_ID);
    const madeUp = await beacon('no-such-place');
    const shown = await beacon('cafe');
    // The same answer for a hidden id as for one that does not exist: a beacon tells nobody which is which.
    expect({ status: hidden.statusCode, body: hidden.body }).toEqual({ status: madeUp.statusCode, body: madeUp.body });
    expect(hidden.statusCode).toBe(204);
    expect(shown.statusCode).toBe(204);

    const report = await fetch(`${server.url}/api/maps/${mapId}/insights`, { headers: { cookie: owner.cookie } });
    expect(report.status).toBe(200);
    const { result } = (await report.json()) as { result: { totals: { opens: number; directions: number }; topLocations: Array<{ id: string }>; topDirections: Array<{ id: string }> } };
    expect(result.topLocations.map((row) => row.id)).toEqual(['cafe']);
    expect(result.topDirections.map((row) => row.id)).toEqual(['cafe']);
    // The shown location's and the made-up id's counts; none of the hidden one's.
    expect(result.totals).toMatchObject({ opens: 6, directions: 4 });
    const { rows } = await server.database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM map_insights WHERE map_id = $1 AND key = $2', [mapId, HIDDEN_ID]);
    expect(rows[0]!.n).toBe('0');
  });

  it('live: a visitor follows no topic of the map, signed out or signed in without a role', async () => {
    const mapTopics = [topics.map(mapId), topics.comments(mapId)];
    // Signed out: the socket is closed unheard, whatever it asks for.
    const visitor = await openLive(server);
    for (const topic of mapTopics) visitor.send({ v: 2, type: 'subscribe', topic });
    expect((await visitor.closed).code).toBe(CLOSE_UNAUTHENTICATED);
    expect(visitor.messages.filter((message) => message.type !== 'error')).toEqual([]);
    // Signed in without a role on the map: refused, topic by topic.
    const outsider = await openLive(server, stranger);
    try {
      for (const topic of mapTopics) outsider.send({ v: 2, type: 'subscribe', topic });
      for (const topic of mapTopics) {
        expect(await outsider.next((message) => message.type === 'error' && message.topic === topic)).toMatchObject({ code: 'permission-denied' });
      }
      expectNothingHidden(JSON.stringify([...visitor.messages, ...outsider.messages]), 'live messages');
    } finally {
      outsider.close();
    }
  });
});
