/**
 * oEmbed (issue 30 item 3) against the whole server: a published map's page links its oEmbed
 * answer in its head (discovery), and `GET /oembed?url=` answers it the way CMSs ask, to anyone;
 * a test map's page, another site's URL and a map that does not exist have no answer (404, the
 * same for a test map's owner: the consumer is a server, and the page is private); `format=xml`
 * is 501, as the oEmbed spec says of a format not served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OEmbedRich } from '../../events/oembed.js';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const SITE = 'https://maps.example.com';

describe.each(databaseTargets)('oEmbed on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let published: string;
  let test: string;

  beforeAll(async () => {
    server = await startTestServer(target, { env: { PUBLIC_URL: SITE } });
    owner = await registerUser(server);
    const create = async (title: string) => {
      const answer = await call(server, 'createMap', { title }, owner);
      expect(answer.status).toBe(200);
      await projected(server, answer.body.position);
      return answer.body.result as string;
    };
    published = await create('Harbour Mall & Friends');
    test = await create('Not yet public');
    // Publishing goes through slots (test/server/publishing*.test.ts): here the read model's state is set.
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [published]);
  });
  afterAll(() => server?.close());

  const oembed = (query: string, user?: TestUser) => fetch(`${server.url}/oembed?${query}`, { headers: user ? { cookie: user.cookie } : {} });

  it('links the answer from a published map’s page, and answers it to anyone', async () => {
    const page = await (await fetch(`${server.url}/m/${published}`)).text();
    const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)" title="([^"]+)" \/>/.exec(page);
    expect(link, 'the discovery link in the page').not.toBeNull();
    const href = new URL(link![1]!.replace(/&amp;/g, '&'));
    expect(href.origin + href.pathname).toBe(`${SITE}/oembed`);
    expect(href.searchParams.get('url')).toBe(`${SITE}/m/${published}`);
    expect(link![2]).toBe('Harbour Mall &amp; Friends');

    for (const user of [undefined, owner]) {
      const response = await oembed(href.search.slice(1), user);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('cache-control')).toMatch(/^public/);
      const body = OEmbedRich.parse(await response.json());
      expect(body).toMatchObject({ type: 'rich', title: 'Harbour Mall & Friends', width: 800, height: 500 });
      expect(body.html).toContain(`src="${SITE}/m/${published}"`);
    }
  });

  it('sizes the answer to maxwidth and maxheight and keeps a location', async () => {
    const response = await oembed(`url=${encodeURIComponent(`${SITE}/m/${published}?location=cafe`)}&maxwidth=500&maxheight=250`);
    expect(response.status).toBe(200);
    const body = OEmbedRich.parse(await response.json());
    expect([body.width, body.height]).toEqual([400, 250]);
    expect(body.html).toContain(`src="${SITE}/m/${published}?location=cafe"`);
    expect(body.html).toContain('width="400" height="250"');
  });

  it('has no answer for a test map, another site, a missing map, and refuses xml and nonsense', async () => {
    const url = (path: string) => `url=${encodeURIComponent(path)}`;
    for (const [query, status] of [
      [url(`${SITE}/m/${test}`), 404],
      [url(`https://elsewhere.example/m/${published}`), 404],
      [url(`${SITE}/m/no-such-map`), 404],
      [url(`${SITE}/maps/${published}`), 404],
      [`${url(`${SITE}/m/${published}`)}&format=xml`, 501],
      [`${url(`${SITE}/m/${published}`)}&maxwidth=wide`, 400],
      ['', 400],
    ] as const) {
      const response = await oembed(query, owner);
      expect(response.status, query).toBe(status);
      expect(response.headers.get('cache-control'), query).toBe('no-store');
      expect(((await response.json()) as { error: { message: string } }).error.message, query).toBeTruthy();
    }
  });
});
