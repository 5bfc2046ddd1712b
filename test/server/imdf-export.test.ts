/**
 * IMDF out (issue 28, item 5): `GET /api/maps/{id}/export.imdf.zip` over HTTP on a real
 * database. The demo mall's archive holds every file of an IMDF archive, each valid against the
 * IMDF 1.0.0 schema (test/fixtures/imdf, from OGC 20-094, checked with ajv), and what a mall
 * hands Apple Maps: one venue, a level per floor, a unit per shop, an opening at each shop's
 * entrance, occupants named after the shops, every reference resolving. A map that lacks what
 * IMDF needs is refused with what it lacks.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e164, osmOpeningHours, type ImdfFeature, type ImdfFeatureCollection } from '../../events/imdf-export.js';
import { emptyMapDocument, MapDocument } from '../../events/map-document.js';
import { getMapData } from '../../projections/map-data.js';
import { DEMO_ADDRESS, DEMO_CALIBRATION, demoMallDocument } from '../../server/seed/demo-mall.js';
import { DEMO_MAP_ID, seedDemoMap, SYSTEM_UID } from '../../server/seed/seed-demo-map.js';
import { pgliteTarget } from '../support/databases.js';
import { createMapAs, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const FILES = ['manifest.json', 'address.geojson', 'venue.geojson', 'building.geojson', 'footprint.geojson', 'level.geojson', 'unit.geojson', 'opening.geojson', 'amenity.geojson', 'anchor.geojson', 'occupant.geojson'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const schema = JSON.parse(readFileSync('test/fixtures/imdf/imdf-1.0.0.schema.json', 'utf8')) as { properties: Record<string, object> };
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema(schema, 'imdf');
const validators = new Map<string, ValidateFunction>(FILES.map((file) => [file, ajv.getSchema(`imdf#/properties/${file}`)!]));

/** Each file's schema errors, by file (none: valid). */
function schemaErrors(files: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const file of FILES) {
    const validate = validators.get(file)!;
    if (!validate(files[file])) errors[file] = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  }
  return errors;
}

describe('IMDF export', () => {
  let server: TestServer;
  let owner: TestUser;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
    owner = await registerUser(server);
  });
  afterAll(() => server.close());

  async function download(id: string) {
    return fetch(`${server.url}/api/maps/${id}/export.imdf.zip`, { headers: { cookie: owner.cookie } });
  }

  async function archiveOf(id: string): Promise<Record<string, any>> {
    const response = await download(id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('-imdf.zip');
    const entries = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual([...FILES].sort());
    return Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, JSON.parse(strFromU8(bytes))]));
  }

  it('exports the demo mall as a valid archive: one venue, a level per floor, a unit and an occupant per shop, an opening at each entrance', async () => {
    const document = demoMallDocument();
    const mapId = await createMapAs(server, owner, 'Riverside Mall', document);
    const files = await archiveOf(mapId);
    expect(schemaErrors(files)).toEqual({});

    const features = (file: string) => (files[file] as ImdfFeatureCollection).features;
    const shops = document.locations.filter((l) => l.element);
    expect(features('venue.geojson')).toHaveLength(1);
    expect(features('building.geojson')).toHaveLength(1);
    expect(features('address.geojson')).toHaveLength(1);
    expect(features('address.geojson')[0]!.properties).toMatchObject({ locality: 'Sacramento', country: 'US', province: 'US-CA' });
    expect(features('level.geojson').map((l) => [l.properties.ordinal, l.properties.name])).toEqual(document.layers.map((layer, i) => [i, { en: layer.name }]));
    const rooms = features('unit.geojson').filter((u) => u.properties.category === 'room');
    expect(rooms.map((u) => (u.properties.name as { en: string }).en).sort()).toEqual(shops.map((s) => s.title).sort());
    expect(features('unit.geojson').filter((u) => u.properties.category === 'walkway')).toHaveLength(document.layers.length);
    expect(features('occupant.geojson').map((o) => (o.properties.name as { en: string }).en).sort()).toEqual(shops.map((s) => s.title).sort());
    expect(features('opening.geojson')).toHaveLength(shops.filter((s) => s.entrances.length > 0).length);
    expect(features('amenity.geojson').map((a) => (a.properties.name as { en: string }).en).sort()).toEqual(document.locations.filter((l) => !l.element).map((l) => l.title).sort());
    expect(files['manifest.json']).toMatchObject({ version: '1.0.0', language: 'en' });

    // What a JSON schema cannot say: ids unique UUIDs, every reference resolving.
    const all = FILES.filter((f) => f.endsWith('.geojson')).flatMap((f) => features(f));
    const ids = new Set(all.map((f) => f.id));
    expect(ids.size).toBe(all.length);
    for (const feature of all) expect(feature.id).toMatch(UUID);
    const idsOf = (file: string) => new Set(features(file).map((f) => f.id));
    const [levels, units, anchors, addresses, buildings] = ['level.geojson', 'unit.geojson', 'anchor.geojson', 'address.geojson', 'building.geojson'].map(idsOf);
    for (const unit of features('unit.geojson')) expect(levels!.has(unit.properties.level_id as string)).toBe(true);
    for (const opening of features('opening.geojson')) expect(levels!.has(opening.properties.level_id as string)).toBe(true);
    for (const anchor of features('anchor.geojson')) expect(units!.has(anchor.properties.unit_id as string)).toBe(true);
    for (const occupant of features('occupant.geojson')) expect(anchors!.has(occupant.properties.anchor_id as string)).toBe(true);
    for (const amenity of features('amenity.geojson')) for (const unit of amenity.properties.unit_ids as string[]) expect(units!.has(unit)).toBe(true);
    expect(addresses!.has(features('venue.geojson')[0]!.properties.address_id as string)).toBe(true);
    for (const level of features('level.geojson')) for (const building of level.properties.building_ids as string[]) expect(buildings!.has(building)).toBe(true);

    // Each opening lies on the outline of a shop of its level (within a centimetre or so).
    for (const opening of features('opening.geojson')) {
      const line = (opening.geometry as { coordinates: [number, number][] }).coordinates;
      const onRoom = rooms.some((room) => room.properties.level_id === opening.properties.level_id && line.every((p) => onOutline(p, room)));
      expect(onRoom, `opening ${opening.id} on a shop's outline`).toBe(true);
    }
    // Shops stand where the demo puts them: Sacramento's river front.
    const [lng, lat] = (features('venue.geojson')[0]!.properties.display_point as { coordinates: [number, number] }).coordinates;
    expect(lat).toBeCloseTo(38.5766, 3);
    expect(lng).toBeCloseTo(-121.5043, 3);

    // The same map exports the same ids: Apple sees an update, not new features.
    const again = await archiveOf(mapId);
    expect(FILES.filter((f) => f.endsWith('.geojson')).flatMap((f) => (again[f] as ImdfFeatureCollection).features.map((x) => x.id))).toEqual(all.map((f) => f.id));
  });

  it('refuses a map with no calibrated floor and no address, saying what it lacks (invalid-argument)', async () => {
    const mapId = await createMapAs(server, owner, 'Plain floor plan', emptyMapDocument());
    const response = await download(mapId);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { status: string; message: string } };
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toMatch(/cannot be exported as IMDF yet/);
    expect(body.error.message).toMatch(/latitude and longitude/);
    expect(body.error.message).toMatch(/Settings → Address/);
  });

  it('gives a demo recorded before IMDF export its address and calibrated floors at the next start, once', async () => {
    const { settings: { address: _address, ...settings }, layers, ...rest } = demoMallDocument();
    const old = { ...rest, settings, layers: layers.map(({ geo: _geo, ...layer }) => layer) };
    const { store, clock, ids } = server.services;
    const at = clock.now().toISOString();
    await store.append(
      `map-${DEMO_MAP_ID}`,
      [{ id: ids.uuid(), type: 'MapCreated', data: { mapId: DEMO_MAP_ID, uid: SYSTEM_UID, author: SYSTEM_UID, title: 'Riverside Mall (demo)', state: 2, document: old, created: at }, metadata: { userId: null, at, correlationId: 'c', causationId: 'test' } }],
      'no_stream',
    );
    const position = await seedDemoMap(store, clock, ids);
    expect(position).not.toBeNull();
    await server.runner.waitFor(position!);
    expect(await seedDemoMap(store, clock, ids)).toBeNull();
    expect((await store.readStream(`map-${DEMO_MAP_ID}`)).map((e) => e.type)).toEqual(['MapCreated', 'SettingsChanged', 'LayerCalibrated', 'LayerCalibrated']);
    const document = MapDocument.parse((await getMapData(server.database.db, DEMO_MAP_ID))!.data);
    expect(document.settings.address).toEqual(DEMO_ADDRESS);
    expect(document.layers.map((l) => l.geo)).toEqual([DEMO_CALIBRATION, DEMO_CALIBRATION]);
  });

  it('checks what it says: the schema refuses a unit without its level and a venue without an address', () => {
    const unit = { type: 'Feature', id: '11111111-1111-1111-1111-111111111111', feature_type: 'unit', geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, properties: { category: 'room' } };
    expect(validators.get('unit.geojson')!({ type: 'FeatureCollection', features: [unit] })).toBe(false);
    const venue = { ...unit, feature_type: 'venue', properties: { category: 'shoppingcenter', name: { en: 'Mall' }, display_point: { type: 'Point', coordinates: [0, 0] } } };
    expect(validators.get('venue.geojson')!({ type: 'FeatureCollection', features: [venue] })).toBe(false);
    expect(validators.get('venue.geojson')!({ type: 'FeatureCollection', features: [{ ...venue, properties: { ...venue.properties, address_id: unit.id } }] })).toBe(true);
  });

  it('writes hours as OSM opening hours and phones as E.164, or leaves them out', () => {
    expect(osmOpeningHours('Mon–Sat 9:00–21:00, Sun 10:00–18:00')).toBe('Mo-Sa 09:00-21:00; Su 10:00-18:00');
    expect(osmOpeningHours('Daily 7:30–19:00')).toBe('Mo-Su 07:30-19:00');
    expect(osmOpeningHours('By appointment')).toBeNull();
    expect(e164('+1 555 0101')).toBe('+15550101');
    expect(e164('0123 456')).toBeNull();
  });
});

/** Whether a point lies on a polygon unit's outline (to about a centimetre, in degrees). */
function onOutline([x, y]: [number, number], unit: ImdfFeature): boolean {
  const rings = unit.geometry?.type === 'Polygon' ? (unit.geometry.coordinates as [number, number][][]) : [];
  return rings.some((ring) =>
    ring.some((a, i) => {
      const b = ring[(i + 1) % ring.length]!;
      const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
      const length2 = dx * dx + dy * dy;
      const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / length2));
      return Math.hypot(x - (a[0] + t * dx), y - (a[1] + t * dy)) < 2e-7;
    }),
  );
}
