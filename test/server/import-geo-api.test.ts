/**
 * GeoJSON and KML through POST /api/maps/{id}/import on the real HTTP app: preview, apply, and
 * the document checked: polygons drawn on a stored floor with their locations bound to their
 * paths, points placed on the map's calibrated floor (the built-in world map) within a pixel
 * of their projection and inside their country, and on a geographic floor made for them when
 * the map has none.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectToFloor } from '../../events/geo-calibration.js';
import type { MapDocument } from '../../events/map-document.js';
import { builtInMap } from '../../server/templates/built-in-maps.js';
import { pgliteTarget } from '../support/databases.js';
import { distanceToRings, insideRings, pathD, ringsOf } from '../support/svg-paths.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const fixtures = path.join(import.meta.dirname, '../fixtures/import');
const fixture = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');

describe('GeoJSON and KML imports over HTTP', () => {
  let server: TestServer;
  let owner: TestUser;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-import-geo-'));
    // The world map's document is larger than the test servers' usual body limit.
    server = await startTestServer(pgliteTarget, { env: { DATA_DIR: dataDir, BODY_LIMIT: String(4 * 1024 * 1024), IMPORT_LIMIT: String(8 * 1024 * 1024) } });
  }, 60_000);
  // Two test maps per user: a new user for each test.
  beforeEach(async () => {
    owner = await registerUser(server);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ok = async (name: string, data: unknown) => {
    const answer = await call(server, name, data, owner);
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.position) await projected(server, answer.body.position);
    return answer.body.result;
  };
  const documentOf = async (mapId: string) =>
    ((await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as { result: { data: MapDocument; revision: string } }).result;
  const stored = async (url: string) => (await fetch(`${server.url}${url}`, { headers: { cookie: owner.cookie } })).text();

  async function importFile(mapId: string, body: string, filename: string, contentType: string, apply = false) {
    const query = new URLSearchParams({ filename, ...(apply ? { apply: '1' } : {}) });
    const response = await fetch(`${server.url}/api/maps/${mapId}/import?${query}`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': contentType },
      body,
    });
    const answer = (await response.json()) as any;
    if (answer.position) await projected(server, answer.position);
    if (response.status !== 200) throw new Error(`import: ${response.status} ${JSON.stringify(answer)}`);
    return answer.result;
  }

  it('Natural Earth countries: preview changes nothing, apply draws a floor with a path per country, each location bound to its own', async () => {
    const mapId = await ok('createMap', { title: 'Countries' });
    const before = await documentOf(mapId);
    const text = fixture('geojson/ne_110m_admin_0_countries-first4.geojson');
    const preview = await importFile(mapId, text, 'ne_110m_admin_0_countries.geojson', 'application/geo+json');
    expect(preview).toMatchObject({ format: 'geojson', revision: null, counts: { locations: 4, layers: 1, skipped: 0 } });
    expect(preview.mapping.title).toBe('NAME');
    expect(preview.columns.used.length + preview.columns.ignored.length).toBe(Object.keys(JSON.parse(text).features[0].properties).length);
    expect((await documentOf(mapId)).revision).toBe(before.revision);

    const applied = await importFile(mapId, text, 'ne_110m_admin_0_countries.geojson', 'application/geo+json', true);
    expect(applied.revision).not.toBeNull();
    const document = (await documentOf(mapId)).data;
    const floor = document.layers.find((l) => l.geo)!;
    expect(floor.geo).toMatchObject({ kind: 'd3', projection: 'mercator' });
    expect(floor.file?.kind).toBe('svg');
    const svg = await stored(floor.file!.url);
    const countries = document.locations.filter((l) => l.layer === floor.id);
    expect(countries.map((l) => l.title).sort()).toEqual(['Afghanistan', 'Albania', 'Angola', 'United Arab Emirates']);
    for (const country of countries) {
      expect(country.element).toBeTruthy();
      const rings = ringsOf(pathD(svg, country.element!)!);
      expect(rings.length, country.title).toBeGreaterThan(0);
      const { x, y } = country.position!;
      expect(insideRings(rings, [x, y]) || distanceToRings(rings, [x, y]) < 3, country.title).toBe(true);
    }
    // Tirana, projected with the floor's calibration, is inside Albania's stored path.
    const tirana = projectToFloor(floor.geo!, floor.file!, { lat: 41.3275, lng: 19.8187 })!;
    const albania = countries.find((l) => l.title === 'Albania')!;
    expect(insideRings(ringsOf(pathD(svg, albania.element!)!), [tirana.x, tirana.y])).toBe(true);
  });

  it('cities on the built-in world map land on its calibrated floor, within a pixel of their projection and inside their country', async () => {
    const template = (await (
      await fetch(`${server.url}/api/templates/world/instantiate`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: owner.cookie }, body: JSON.stringify({ data: {} }) })
    ).json()) as { result: MapDocument };
    const mapId = await ok('createMap', { title: 'World', mapData: template.result });
    const cities = [
      { name: 'Paris', country: 'France', lat: 48.8566, lng: 2.3522 },
      { name: 'Tokyo', country: 'Japan', lat: 35.6762, lng: 139.6503 },
      { name: 'Sydney', country: 'Australia', lat: -33.8688, lng: 151.2093 },
      { name: 'São Paulo', country: 'Brazil', lat: -23.5505, lng: -46.6333 },
    ];
    const geojson = {
      type: 'FeatureCollection',
      features: cities.map((c) => ({ type: 'Feature', properties: { name: c.name, country: c.country }, geometry: { type: 'Point', coordinates: [c.lng, c.lat] } })),
    };
    const preview = await importFile(mapId, JSON.stringify(geojson), 'cities.geojson', 'application/json');
    expect(preview.counts).toMatchObject({ locations: 4, layers: 0 });
    await importFile(mapId, JSON.stringify(geojson), 'cities.geojson', 'application/json', true);
    const document = (await documentOf(mapId)).data;
    expect(document.layers).toHaveLength(1);
    const world = document.layers[0]!;
    expect(world.geo).toEqual(builtInMap('world').geo);
    const svg = await stored(world.file!.url);
    for (const city of cities) {
      const location = document.locations.find((l) => l.title === city.name)!;
      expect(location.layer).toBe(world.id);
      const expected = projectToFloor(world.geo!, world.file!, city)!;
      expect(Math.hypot(location.position!.x - expected.x, location.position!.y - expected.y)).toBeLessThan(1);
      const countryId = document.locations.find((l) => l.title === city.country)!.element!;
      const rings = ringsOf(pathD(svg, countryId)!);
      expect(insideRings(rings, [location.position!.x, location.position!.y]), city.name).toBe(true);
    }
  });

  it('campus points on a blank map land on a basemap floor fitted to the campus (issue 29 item 5), and KML stores theirs', async () => {
    const mapId = await ok('createMap', { title: 'Campus' });
    const text = fixture('geojson/ucsc-campus-cafes.geojson');
    const source = JSON.parse(text);
    const applied = await importFile(mapId, text, 'cafes.geojson', 'application/geo+json', true);
    expect(applied.counts).toMatchObject({ locations: 9, layers: 1 });
    const document = (await documentOf(mapId)).data;
    // The starter floor gave way to one on the street basemap, no drawing, at the map's size.
    expect(document.layers).toHaveLength(1);
    const floor = document.layers[0]!;
    expect(floor).toMatchObject({ name: 'Map', file: null, basemap: true, geo: { kind: 'bounds', projection: 'mercator' } });
    const size = document.settings.size;
    const cafes = document.locations.filter((l) => l.layer === floor.id);
    expect(cafes).toHaveLength(9);
    // Fitted: the campus (under a kilometre, shown with about a kilometre around at least) fills much of the floor, every café inside it.
    const xs = cafes.map((c) => c.position!.x);
    const ys = cafes.map((c) => c.position!.y);
    expect(Math.min(...xs)).toBeGreaterThan(0);
    expect(Math.max(...xs)).toBeLessThan(size.width);
    expect(Math.min(...ys)).toBeGreaterThan(0);
    expect(Math.max(...ys)).toBeLessThan(size.height);
    expect(Math.max((Math.max(...xs) - Math.min(...xs)) / size.width, (Math.max(...ys) - Math.min(...ys)) / size.height)).toBeGreaterThan(0.4);
    source.features.forEach((feature: any, i: number) => {
      const [lng, lat] = feature.geometry.coordinates;
      const expected = projectToFloor(floor.geo!, size, { lat, lng })!;
      expect(Math.hypot(cafes[i]!.position!.x - expected.x, cafes[i]!.position!.y - expected.y)).toBeLessThan(1);
      expect(cafes[i]!.title).toBe(feature.properties.name);
      expect(cafes[i]!.color).toBe('#ff9933');
    });

    const storesMap = await ok('createMap', { title: 'Stores' });
    const kml = await importFile(storesMap, fixture('kml/first2015-stores.kml'), 'stores.kml', 'application/vnd.google-earth.kml+xml', true);
    expect(kml).toMatchObject({ format: 'kml', counts: { locations: 2, layers: 1 } });
    const stores = (await documentOf(storesMap)).data;
    expect(stores.locations.map((l) => l.title)).toEqual(['InterContinental Berlin', 'KaDeWe']);
    expect(stores.layers).toEqual([expect.objectContaining({ basemap: true, file: null })]);
  });
});
