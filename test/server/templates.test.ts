/**
 * Built-in maps over HTTP: the list, and instantiating one into a complete map document whose
 * every location is bound to a path of the stored SVG, ready for createMap.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAP_DOCUMENT_VERSION, MapDocument } from '../../events/map-document.js';
import { pgliteTarget } from '../support/databases.js';
import { documentForStreetMap, streetMapArea } from '../../client/src/features/new-map/starting-points.js';
import { call, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe('built-in maps', () => {
  let server: TestServer;
  let dataDir: string;
  let ana: TestUser;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-templates-'));
    // The world's document is larger than the test servers' usual 64 KB body limit.
    server = await startTestServer(pgliteTarget, { env: { DATA_DIR: dataDir, BODY_LIMIT: String(2 * 1024 * 1024) } });
    ana = await registerUser(server);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function instantiate(id: string, user: TestUser | null = ana) {
    const response = await fetch(`${server.url}/api/templates/${id}/instantiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(user ? { cookie: user.cookie } : {}) },
      body: JSON.stringify({ data: {} }),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** The ids of the `<path>` elements of the SVG stored at `url`. */
  async function pathIds(url: string): Promise<Set<string>> {
    const response = await fetch(`${server.url}${url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const document = new new JSDOM('').window.DOMParser().parseFromString(await response.text(), 'image/svg+xml');
    expect(document.documentElement.localName).toBe('svg');
    return new Set(Array.from(document.querySelectorAll('path[id]')).map((element) => element.id));
  }

  it('lists the built-in maps with their region counts and previews', async () => {
    const list = await fetch(`${server.url}/api/templates`).then((r) => r.json());
    expect(list.result).toEqual([
      expect.objectContaining({ id: 'world', name: 'World countries', regionCount: expect.any(Number), previewUrl: '/api/templates/world/preview' }),
      expect.objectContaining({ id: 'us-states', name: 'US states', regionCount: 51, previewUrl: '/api/templates/us-states/preview' }),
    ]);
    expect(list.result[0].regionCount).toBeGreaterThan(150);
    const preview = await fetch(`${server.url}${list.result[0].previewUrl}`);
    expect(preview.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(preview.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await preview.text()).toMatch(/^<\?xml[\s\S]*<svg/);
  });

  it('world countries: a valid document, one layer with the stored SVG, a location per country bound to its path', async () => {
    const answer = await instantiate('world');
    expect(answer.status).toBe(200);
    const document = MapDocument.parse(answer.body.result);
    expect(document.version).toBe(MAP_DOCUMENT_VERSION);
    expect(document.layers).toHaveLength(1);
    const [layer] = document.layers;
    expect(layer!.file).toMatchObject({ kind: 'svg', url: expect.stringMatching(/^\/files\/[\w-]{22}$/), width: 1200 });
    expect(document.settings.size).toEqual({ width: layer!.file!.width, height: layer!.file!.height });
    expect(document.settings.defaultLayer).toBe(layer!.id);
    expect(document.locations.length).toBeGreaterThan(150);

    const ids = await pathIds(layer!.file!.url);
    for (const location of document.locations) {
      expect(ids.has(location.element!), `${location.title} (${location.element})`).toBe(true);
      expect(location.layer).toBe(layer!.id);
      expect(location.marker).toBe('hidden');
      expect(location.title.trim()).not.toBe('');
      expect(location.position!.x).toBeGreaterThanOrEqual(0);
      expect(location.position!.x).toBeLessThanOrEqual(layer!.file!.width);
    }
    const titles = document.locations.map((location) => location.title);
    expect(titles).toEqual(expect.arrayContaining(['France', 'Japan', 'Brazil', 'United States', 'Democratic Republic of the Congo', 'Kosovo']));
    expect(new Set(titles).size).toBe(titles.length);
    expect(document.locations.find((location) => location.title === 'France')).toMatchObject({ id: 'country-250', element: 'country-250' });
  });

  it('US states: the 50 states and DC, each bound to its path', async () => {
    const answer = await instantiate('us-states');
    expect(answer.status).toBe(200);
    const document = MapDocument.parse(answer.body.result);
    expect(document.locations.length).toBeGreaterThanOrEqual(50);
    const ids = await pathIds(document.layers[0]!.file!.url);
    for (const location of document.locations) expect(ids.has(location.element!), location.title).toBe(true);
    expect(document.locations.find((location) => location.title === 'California')).toMatchObject({ element: 'state-06' });
    expect(document.locations.map((location) => location.title)).toEqual(expect.arrayContaining(['Alaska', 'Hawaii', 'District of Columbia', 'Wyoming']));
  });

  it('stores each map once: a second instantiation names the same file', async () => {
    const first = await instantiate('us-states');
    const second = await instantiate('us-states');
    expect(second.body.result.layers[0].file.url).toBe(first.body.result.layers[0].file.url);
  });

  it('the document creates a map as it is', async () => {
    const { body } = await instantiate('world');
    const made = await call(server, 'createMap', { title: 'Offices worldwide', mapData: body.result }, ana);
    expect(made.status).toBe(200);
    expect(made.body.result).toMatch(/^[\w-]{12}$/);
  });

  it("the new-map page's street map (issue 29 item 5) creates a map whose one floor lies on the basemap; a basemap on other bounds is refused", async () => {
    const street = documentForStreetMap(streetMapArea('Europe/Paris'));
    const made = await call(server, 'createMap', { title: 'Our stores', mapData: street }, ana);
    expect(made.status).toBe(200);
    const read = await fetch(`${server.url}/api/maps/${made.body.result}/data`, { headers: { cookie: ana.cookie } }).then((r) => r.json() as Promise<any>);
    expect(read.result.data.layers).toEqual([{ id: 'map', name: 'Map', file: null, basemap: true, geo: street.layers[0]!.geo }]);
    const drawn = { ...street, layers: [{ ...street.layers[0]!, geo: { ...street.layers[0]!.geo!, projection: 'equirectangular' } }] };
    const refused = await call(server, 'createMap', { title: 'Not on tiles', mapData: drawn }, ana);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Web Mercator bounds');
  });

  it('refuses signed-out and unverified callers, and unknown maps', async () => {
    const unverified = await registerUser(server, undefined, { verified: false });
    expect(await instantiate('world', null)).toMatchObject({ status: 401, body: { error: { status: 'UNAUTHENTICATED', message: 'Unauthenticated' } } });
    expect(await instantiate('world', unverified)).toMatchObject({ status: 403, body: { error: { status: 'PERMISSION_DENIED' } } });
    expect(await instantiate('mars', ana)).toMatchObject({ status: 404, body: { error: { status: 'NOT_FOUND', message: 'There is no built-in map called mars.' } } });
    expect((await fetch(`${server.url}/api/templates/mars/preview`)).status).toBe(404);
  });
});
