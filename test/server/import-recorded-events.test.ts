/**
 * Issue 26: files a verified user really has, imported through `POST /api/maps/{id}/import`,
 * must never record an event its readers refuse (the map's stream is read back and every event
 * parsed with the readers' schema), and must come in whole: GeoJSON ids that are not SVG ids
 * (US FIPS codes such as the District of Columbia's "11", Natural Earth's "-99" for Northern
 * Cyprus and Somaliland), a file whose only shape is a point-sized line or ring, a calibration
 * reaching the pole, an SVG drawn in a tiny viewBox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Feature, FeatureCollection, Polygon } from 'geojson';
import { isSvgElementId } from '../../events/element-id.js';
import type { ImportPreview } from '../../events/map-import.js';
import { pgliteTarget } from '../support/databases.js';
import { refusedMapEvents } from '../support/map-stream.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { MapDocument } from '../../events/map-document.js';

/** A square around a place (its ring anticlockwise, as RFC 7946 winds outer rings). */
function square(lng: number, lat: number, half: number): Polygon {
  return { type: 'Polygon', coordinates: [[[lng - half, lat - half], [lng + half, lat - half], [lng + half, lat + half], [lng - half, lat + half], [lng - half, lat - half]]] };
}
const feature = (id: string, name: string, geometry: Polygon): Feature => ({ type: 'Feature', id, properties: { name, density: 1.5 }, geometry });

/** US states by their FIPS codes, as Leaflet's choropleth example (us-states.json) has them: all digits. */
const US_STATES: FeatureCollection = {
  type: 'FeatureCollection',
  features: [
    feature('01', 'Alabama', square(-86.8, 32.8, 1)),
    feature('06', 'California', square(-119.5, 37.2, 1.5)),
    feature('11', 'District of Columbia', square(-77.03, 38.9, 0.06)),
    feature('12', 'Florida', square(-81.7, 28.1, 1)),
    feature('36', 'New York', square(-75.5, 42.9, 1)),
    feature('48', 'Texas', square(-99.3, 31.5, 2)),
    feature('53', 'Washington', square(-120.5, 47.4, 1)),
  ],
};

/** Countries by ISO 3166-1 alpha-3, as johan/world.geo.json's countries.geo.json has them: two are "-99". */
const COUNTRIES: FeatureCollection = {
  type: 'FeatureCollection',
  features: [
    feature('FRA', 'France', square(2.5, 46.5, 3)),
    feature('-99', 'Northern Cyprus', square(33.6, 35.25, 0.3)),
    feature('-99', 'Somaliland', square(46, 9.5, 2)),
    feature('USA', 'United States of America', square(-98, 39, 10)),
    feature('AUS', 'Australia', square(134, -25, 10)),
  ],
};

describe('imports record only what their readers take', () => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(1024 * 1024) } });
  }, 60_000);
  beforeEach(async () => {
    owner = await registerUser(server);
  });
  afterAll(() => server?.close());

  const ok = async (name: string, data: unknown) => {
    const answer = await call(server, name, data, owner);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    await projected(server, answer.body.position);
    return answer.body.result;
  };

  /**
   * Sends a file to the import endpoint. An apply's events are checked against the readers'
   * schema first, from the store itself: a refused one would stop the projections, and waiting
   * for them would only time out.
   */
  async function importFile(mapId: string, body: string, filename: string, contentType: string, apply: boolean) {
    const response = await fetch(`${server.url}/api/maps/${mapId}/import?filename=${encodeURIComponent(filename)}${apply ? '&apply=1' : ''}`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': contentType },
      body,
    });
    const answer = (await response.json()) as { result: ImportPreview; position: string | null; error?: { message: string } };
    expect(await refusedMapEvents(server, mapId)).toEqual([]);
    if (response.status === 200 && answer.position) await projected(server, answer.position);
    return { status: response.status, result: answer.result, error: answer.error };
  }

  const documentOf = async (mapId: string) => {
    const response = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } });
    return MapDocument.parse(((await response.json()) as { result: { data: unknown } }).result.data);
  };
  const svgOf = async (url: string) => (await fetch(`${server.url}${url}`, { headers: { cookie: owner.cookie } })).text();

  /** Imports a GeoJSON whole and checks every feature is a location linked to its own path of the drawn floor. */
  async function expectWholeAndLinked(collection: FeatureCollection, filename: string) {
    const mapId = await ok('createMap', { title: filename });
    const text = JSON.stringify(collection);
    const preview = await importFile(mapId, text, filename, 'application/geo+json', false);
    expect(preview.status, preview.error?.message).toBe(200);
    expect(preview.result.counts).toMatchObject({ locations: collection.features.length, regionsLinked: collection.features.length, skipped: 0 });
    const applied = await importFile(mapId, text, filename, 'application/geo+json', true);
    expect(applied.status, applied.error?.message).toBe(200);

    const document = await documentOf(mapId);
    const floor = document.layers.find((layer) => layer.geo)!;
    const pathIds = [...(await svgOf(floor.file!.url)).matchAll(/<path id="([^"]+)"/g)].map((m) => m[1]!);
    const imported = document.locations.filter((location) => location.layer === floor.id);
    expect(imported.map((l) => l.title).sort()).toEqual(collection.features.map((f) => f.properties!.name as string).sort());
    for (const location of imported) {
      expect(location.element, location.title).not.toBeNull();
      expect(isSvgElementId(location.element!), location.element!).toBe(true);
      expect(pathIds, location.title).toContain(location.element);
    }
    expect(new Set(imported.map((l) => l.element)).size).toBe(imported.length);
    return { document, imported, preview: preview.result };
  }

  it('US states by FIPS code ("11" for DC): every state comes in linked to its path, its id kept', async () => {
    const { imported } = await expectWholeAndLinked(US_STATES, 'us-states.json');
    const dc = imported.find((l) => l.title === 'District of Columbia')!;
    expect(dc.id).toBe('11');
    expect(dc.element).toBe('id-11');
    expect(imported.find((l) => l.title === 'Alabama')!.id).toBe('01');
  });

  it('a CSV naming a region by the GeoJSON\'s own id ("11") links to the path drawn for it', async () => {
    const { document } = await expectWholeAndLinked(US_STATES, 'us-states.json');
    const floor = document.layers.find((layer) => layer.geo)!;
    const mapId = (await (await fetch(`${server.url}/api/maps`, { headers: { cookie: owner.cookie } })).json() as { result: Array<{ id: string; title: string }> }).result.find((map) => map.title === 'us-states.json')!.id;
    const csv = `id,title,element,floor\ndc-office,Our DC office,11,${floor.id}\nnowhere,Nowhere,99x,${floor.id}\n`;
    const applied = await importFile(mapId, csv, 'offices.csv', 'text/csv', true);
    expect(applied.status, applied.error?.message).toBe(200);
    const office = (await documentOf(mapId)).locations.find((l) => l.id === 'dc-office')!;
    expect(office.element).toBe('id-11');
    expect(applied.result.problems.map((p) => p.message).join('\n')).toMatch(/The region “99x” was left out/);
  });

  it('world countries with two "-99": every country linked, the first keeps "-99", the second says why it could not', async () => {
    const { imported, preview } = await expectWholeAndLinked(COUNTRIES, 'countries.geo.json');
    expect(imported.find((l) => l.title === 'Northern Cyprus')!.id).toBe('-99');
    expect(imported.find((l) => l.title === 'France')!.id).toBe('FRA');
    const somaliland = imported.find((l) => l.title === 'Somaliland')!;
    expect(somaliland.id).not.toBe('-99');
    expect(preview.problems.map((p) => p.message).join('\n')).toMatch(/“-99” appears more than once/);
  });

  it('a KML placemark with a numeric id and a polygon is linked to its path too', async () => {
    const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Zones</name>
<Placemark id="11"><name>Zone eleven</name><Polygon><outerBoundaryIs><LinearRing><coordinates>2.30,48.85 2.32,48.85 2.32,48.87 2.30,48.87 2.30,48.85</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
<Placemark id="-7"><name>Zone minus seven</name><Polygon><outerBoundaryIs><LinearRing><coordinates>2.34,48.85 2.36,48.85 2.36,48.87 2.34,48.87 2.34,48.85</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
</Document></kml>`;
    const mapId = await ok('createMap', { title: 'Zones' });
    const applied = await importFile(mapId, kml, 'zones.kml', 'application/vnd.google-earth.kml+xml', true);
    expect(applied.status, applied.error?.message).toBe(200);
    const document = await documentOf(mapId);
    const zones = document.locations.filter((l) => l.title.startsWith('Zone'));
    expect(zones).toHaveLength(2);
    for (const zone of zones) expect(zone.element && isSvgElementId(zone.element), zone.title).toBe(true);
  });

  /** A degenerate-only file's import: answered, its floor's calibration finite, nothing refused by readers. */
  async function expectFiniteFloor(body: string, filename: string, contentType: string) {
    const mapId = await ok('createMap', { title: filename });
    const applied = await importFile(mapId, body, filename, contentType, true);
    if (applied.status !== 200) {
      // Refusing the file is as good, if it says so in words.
      expect(applied.error?.message).toMatch(/^The file was read as/);
      return;
    }
    const drawn = (await documentOf(mapId)).layers.filter((layer) => layer.geo);
    expect(drawn).toHaveLength(1);
    const geo = drawn[0]!.geo!;
    expect(geo.kind).toBe('d3');
    if (geo.kind === 'd3') expect([geo.scale, ...geo.translate].every(Number.isFinite), JSON.stringify(geo)).toBe(true);
  }

  it('a GeoJSON whose only shape is a line of two identical points records a finite calibration', async () => {
    const line = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Nowhere road' }, geometry: { type: 'LineString', coordinates: [[2.35, 48.85], [2.35, 48.85]] } }] };
    await expectFiniteFloor(JSON.stringify(line), 'line.geojson', 'application/geo+json');
  });

  it('a GeoJSON whose only shape is a ring on one spot records a finite calibration', async () => {
    const ring = { type: 'Feature', id: 'spot', properties: { name: 'Spot' }, geometry: { type: 'Polygon', coordinates: [[[2.35, 48.85], [2.35, 48.85], [2.35, 48.85], [2.35, 48.85]]] } };
    await expectFiniteFloor(JSON.stringify(ring), 'spot.geojson', 'application/geo+json');
  });

  it('a KML whose only shape is a line of two identical points records a finite calibration', async () => {
    const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Stub</name><LineString><coordinates>-0.1246,51.5007 -0.1246,51.5007</coordinates></LineString></Placemark></Document></kml>`;
    await expectFiniteFloor(kml, 'stub.kml', 'application/vnd.google-earth.kml+xml');
  });
});
