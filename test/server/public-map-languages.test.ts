/**
 * The published viewer's page in the visitor's language (issue 19), with the real server
 * renderer (the build's dist/, as `npm test` makes it before the suites): `?lang=` over the
 * map's setting over Accept-Language; `<html lang dir>`, the data block's locale and catalogue
 * and the description in that language; `Vary: Accept-Language` only when the visitor's
 * browser chose; one ETag (and 304) per language; an edit of the setting drops the kept pages;
 * test maps keep their shell and their access rules.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewerLocale } from '../../events/locales';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { VIEWER_DATA_ID, type ViewerPageData } from '../../events/viewer-page-data';
import { createTranslator } from '../../client/src/i18n/translator';
import { PRIVATE_CACHE_CONTROL, PUBLISHED_CACHE_CONTROL } from '../../server/routes/public-map-routes';
import { compileCatalogue } from '../../scripts/viewer-messages';
import { databaseTargets } from '../support/databases';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';

const SERVER_RENDERER = new URL('../../dist/server/viewer-server.js', import.meta.url);

/** A small mall: two places on one floor, in the map's language `language`. */
function mallDocument(language: MapDocument['settings']['language']): MapDocument {
  const empty = emptyMapDocument();
  const place = (id: string, title: string, x: number) => Location.parse({ id, title, layer: 'ground', position: { x, y: 100 } });
  return { ...empty, settings: { ...empty.settings, language }, locations: [place('cafe', 'Cafe', 100), place('books', 'Books', 300)] };
}

/** What the page says of itself: its `<html>` attributes, its data block and its description. */
function readPage(html: string) {
  const root = /<html lang="([^"]*)" dir="([^"]*)">/.exec(html);
  const block = new RegExp(`<script type="application/json" id="${VIEWER_DATA_ID}">([^<]*)</script>`).exec(html);
  const description = /<meta name="description" content="([^"]*)" \/>/.exec(html);
  return {
    lang: root?.[1],
    dir: root?.[2],
    data: block ? (JSON.parse(block[1]!) as ViewerPageData) : null,
    description: description?.[1]?.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
  };
}

const catalogues = new Map<ViewerLocale, ReturnType<typeof compileCatalogue>>();
const catalogue = (locale: ViewerLocale) => catalogues.get(locale) ?? catalogues.set(locale, compileCatalogue(locale)).get(locale)!;

/** The page is wholly in `locale`: its attributes, its catalogue and its description of `title`. */
function expectPageIn(html: string, locale: ViewerLocale, title: string) {
  const page = readPage(html);
  expect(page.lang).toBe(locale);
  expect(page.dir).toBe(locale === 'ar' ? 'rtl' : 'ltr');
  expect(page.data?.locale).toBe(locale);
  expect(page.data?.messages).toEqual(catalogue(locale));
  expect(page.description).toBe(createTranslator(locale, catalogue(locale)).t('viewer.pageDescription', { title, places: 2, floors: 1 }));
}

describe.each(databaseTargets)('the viewer page’s language on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    expect(existsSync(SERVER_RENDERER), 'the server renderer is built (npx vite build && npx vite build --ssr)').toBe(true);
    server = await startTestServer(target);
    owner = await registerUser(server);
    stranger = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
  });
  afterAll(() => server?.close());

  function get(url: string, headers: Record<string, string> = {}) {
    return server.app.inject({ method: 'GET', url, headers });
  }

  async function createMap(title: string, language: MapDocument['settings']['language'], { published = true } = {}): Promise<string> {
    const made = await call(server, 'createMap', { title, mapData: mallDocument(language) }, owner);
    expect(made.status).toBe(200);
    await projected(server, made.body.position);
    const id = made.body.result as string;
    if (published) {
      const changed = await call(server, 'adminUpdateMap', { id, state: 1 }, admin);
      expect(changed.status).toBe(200);
      await projected(server, changed.body.position);
      // Every edit public at once (issue 27: new maps wait for a publish): these tests change the language and read it back.
      const live = await call(server, 'setMapPublishMode', { mapId: id, mode: 'live' }, admin);
      await projected(server, live.body.position);
      await until(() => get(`/api/public/maps/${id}`), (answer) => answer.statusCode === 200, 'published');
    }
    return id;
  }

  it('speaks ?lang= whatever the map and the browser say: Spanish left to right, Arabic right to left', async () => {
    const id = await createMap('Plaza', 'fr');
    const spanish = await get(`/m/${id}?lang=es`, { 'accept-language': 'de' });
    expect(spanish.statusCode).toBe(200);
    expect(spanish.body).toContain('<html lang="es" dir="ltr">');
    expectPageIn(spanish.body, 'es', 'Plaza');
    expect(spanish.headers.vary).toBe('Accept-Encoding');
    expect(spanish.headers['cache-control']).toBe(PUBLISHED_CACHE_CONTROL);

    const arabic = await get(`/m/${id}?lang=ar`);
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    expectPageIn(arabic.body, 'ar', 'Plaza');
    // A tag as browsers write it, in any case.
    expectPageIn((await get(`/m/${id}?lang=PT-br`)).body, 'pt', 'Plaza');
    // A language without a catalogue: the map's own.
    expectPageIn((await get(`/m/${id}?lang=tlh`)).body, 'fr', 'Plaza');
  });

  it('answers a map set to French in French to everyone, not varying on Accept-Language', async () => {
    const id = await createMap('Galerie', 'fr');
    for (const accept of [undefined, 'de-CH, en;q=0.5', 'ar', 'en-US,en;q=0.9']) {
      const page = await get(`/m/${id}`, accept ? { 'accept-language': accept } : {});
      expect(page.statusCode, accept).toBe(200);
      expectPageIn(page.body, 'fr', 'Galerie');
      expect(page.headers.vary, accept).toBe('Accept-Encoding');
    }
  });

  it('answers an automatic map in the browser’s language, varying on Accept-Language; English when none is spoken', async () => {
    const id = await createMap('Arcade', 'auto');
    const german = await get(`/m/${id}`, { 'accept-language': 'de-CH, en;q=0.5', 'accept-encoding': 'gzip' });
    expect(german.statusCode).toBe(200);
    expect(german.headers['content-encoding']).toBe('gzip');
    expect(german.headers.vary).toBe('Accept-Encoding, Accept-Language');
    const plain = await get(`/m/${id}`, { 'accept-language': 'de-CH, en;q=0.5' });
    expectPageIn(plain.body, 'de', 'Arcade');
    expect(plain.headers.vary).toBe('Accept-Encoding, Accept-Language');

    for (const accept of ['sv-SE, da;q=0.8', '*', undefined]) {
      const english = await get(`/m/${id}`, accept ? { 'accept-language': accept } : {});
      expectPageIn(english.body, 'en', 'Arcade');
      expect(english.headers.vary, accept).toBe('Accept-Encoding, Accept-Language');
    }
    expectPageIn((await get(`/m/${id}`, { 'accept-language': 'zh-Hant-TW, en;q=0.1' })).body, 'zh', 'Arcade');
    // ?lang= decides alone: the answer no longer depends on the browser.
    const dutch = await get(`/m/${id}?lang=nl`, { 'accept-language': 'de' });
    expectPageIn(dutch.body, 'nl', 'Arcade');
    expect(dutch.headers.vary).toBe('Accept-Encoding');
  });

  it('gives each language its own ETag, and a 304 only for the same language', async () => {
    const id = await createMap('Validated', 'auto');
    const spanish = await get(`/m/${id}?lang=es`);
    const arabic = await get(`/m/${id}?lang=ar`);
    const german = await get(`/m/${id}`, { 'accept-language': 'de' });
    const etags = [spanish, arabic, german].map((answer) => answer.headers.etag as string);
    expect(new Set(etags).size).toBe(3);

    const es = etags[0]!;
    const notModified = await get(`/m/${id}?lang=es`, { 'if-none-match': es, 'accept-encoding': 'br' });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers.etag).toBe(es);
    expect(notModified.rawPayload.length).toBe(0);
    expect((await get(`/m/${id}?lang=ar`, { 'if-none-match': es })).statusCode).toBe(200);

    const de = etags[2]!;
    const stillGerman = await get(`/m/${id}`, { 'accept-language': 'de-AT', 'if-none-match': de });
    expect(stillGerman.statusCode).toBe(304);
    expect(stillGerman.headers.vary).toBe('Accept-Encoding, Accept-Language');
    const nowFrench = await get(`/m/${id}`, { 'accept-language': 'fr', 'if-none-match': de });
    expect(nowFrench.statusCode).toBe(200);
    expectPageIn(nowFrench.body, 'fr', 'Validated');
  });

  it('drops the kept pages when the map’s language is changed: the next read is in the new one', async () => {
    const id = await createMap('Relabelled', 'fr');
    const french = await get(`/m/${id}`, { 'accept-language': 'de' });
    expectPageIn(french.body, 'fr', 'Relabelled');
    expect(server.app.publicMaps.has('html', id)).toBe(true);

    const settings = { ...mallDocument('ja').settings };
    const edited = await call(server, 'editMap', { id, edits: [{ type: 'SettingsChanged', settings }] }, owner);
    expect(edited.status).toBe(200);
    await projected(server, edited.body.position);
    const japanese = await until(() => get(`/m/${id}`, { 'accept-language': 'de' }), (answer) => readPage(answer.body).lang === 'ja', 'the page in Japanese');
    expectPageIn(japanese.body, 'ja', 'Relabelled');
    expect(japanese.headers.vary).toBe('Accept-Encoding');
    expect(japanese.headers.etag).not.toBe(french.headers.etag);

    // Back to automatic: the browser decides again, and the answer says it varies.
    const automatic = await call(server, 'editMap', { id, edits: [{ type: 'SettingsChanged', settings: { ...settings, language: 'auto' } }] }, owner);
    await projected(server, automatic.body.position);
    const german = await until(() => get(`/m/${id}`, { 'accept-language': 'de' }), (answer) => readPage(answer.body).lang === 'de', 'the page in German');
    expectPageIn(german.body, 'de', 'Relabelled');
    expect(german.headers.vary).toBe('Accept-Encoding, Accept-Language');
  });

  it('gives a test map the shell in any language, to whoever may see it; strangers get the 404', async () => {
    const id = await createMap('Unpublished', 'es', { published: false });
    for (const query of ['', '?lang=ar']) {
      const mine = await get(`/m/${id}${query}`, { cookie: owner.cookie, 'accept-language': 'de' });
      expect(mine.statusCode, query).toBe(200);
      expect(mine.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
      // The shell: no map and no catalogue in it (the client loads both).
      expect(readPage(mine.body).data).toBeNull();
      expect(mine.body).not.toContain('Unpublished');
      for (const headers of [{ cookie: stranger.cookie }, {}]) {
        const refused = await get(`/m/${id}${query}`, { ...headers, 'accept-language': 'es' });
        expect(refused.statusCode, query).toBe(404);
        expect(refused.body).toBe(mine.body);
      }
    }
    expect(server.app.publicMaps.has('html', id)).toBe(false);
  });
});
