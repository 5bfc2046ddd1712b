/**
 * Issue 26: edits and restores a verified user or editor can send that recorded what readers
 * then refuse, or counted wrong, each through the real API: a 201st group, a location removed
 * fifty times in one edit, a version restored that breaks today's limits, a calibration beyond
 * Web Mercator's poles followed by a latitude/longitude import, a title cut inside an emoji, an
 * SVG drawn in a tiny viewBox. After each, the map's stream is read back and every event parsed
 * with the readers' schema.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultRegionStyles, defaultSettings, MAX_GROUPS, MapDocument } from '../../events/map-document.js';
import type { ImportPreview } from '../../events/map-import.js';
import { emptyPathNetwork } from '../../events/path-network.js';
import { isSafeText } from '../../events/safe-text.js';
import { streams } from '../../events/streams.js';
import { pgliteTarget } from '../support/databases.js';
import { refusedMapEvents } from '../support/map-stream.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/** A document with `groups` groups and a location in each of the first two. */
function documentWithGroups(groups: number) {
  return {
    version: 3,
    settings: { ...defaultSettings(), defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: null }],
    locations: [
      { id: 'cafe', title: 'Cafe', layer: 'ground', groups: ['g1'] },
      { id: 'bank', title: 'Bank', layer: 'ground', groups: ['g2'] },
    ],
    groups: Array.from({ length: groups }, (_, i) => ({ id: `g${i + 1}`, name: `Group ${i + 1}`, color: '#4f46e5' })),
    styles: { regions: defaultRegionStyles() },
    paths: emptyPathNetwork(),
  };
}

describe('edits, restores and imports record only what readers take', () => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(1024 * 1024) } });
  }, 60_000);
  beforeEach(async () => {
    owner = await registerUser(server);
  });
  afterAll(() => server?.close());

  /** A call whose events, if any, are checked against the readers' schema before the projections are waited for. */
  const send = async (name: string, data: unknown, mapId?: string) => {
    const answer = await call(server, name, data, owner);
    if (mapId) expect(await refusedMapEvents(server, mapId)).toEqual([]);
    if (answer.status === 200 && answer.body.position) await projected(server, answer.body.position);
    return answer;
  };
  const ok = async (name: string, data: unknown, mapId?: string) => {
    const answer = await send(name, data, mapId);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.result;
  };
  const metricsOf = async (mapId: string) => {
    const list = (await (await fetch(`${server.url}/api/maps`, { headers: { cookie: owner.cookie } })).json()) as { result: Array<{ id: string; metrics: { locationCount: number } }> };
    return list.result.find((map) => map.id === mapId)!.metrics;
  };
  const documentOf = async (mapId: string) => {
    const response = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } });
    return MapDocument.parse(((await response.json()) as { result: { data: unknown } }).result.data);
  };
  async function importFile(mapId: string, body: string, filename: string, contentType: string) {
    const response = await fetch(`${server.url}/api/maps/${mapId}/import?filename=${encodeURIComponent(filename)}&apply=1`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': contentType },
      body,
    });
    const answer = (await response.json()) as { result: ImportPreview; position: string | null; error?: { message: string } };
    expect(await refusedMapEvents(server, mapId)).toEqual([]);
    if (response.status === 200 && answer.position) await projected(server, answer.position);
    return { status: response.status, result: answer.result, error: answer.error };
  }

  it(`editMap refuses a ${MAX_GROUPS + 1}st group, in the words of the other limits`, async () => {
    const mapId = await ok('createMap', { title: 'Full of groups', mapData: documentWithGroups(MAX_GROUPS) });
    const answer = await send('editMap', { id: mapId, edits: [{ type: 'GroupAdded', group: { id: 'extra', name: 'Extra', color: '#dc2626' } }] }, mapId);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(`edits.0.group: a map has at most ${MAX_GROUPS} groups`);
    // The map still exports.
    expect((await fetch(`${server.url}/api/maps/${mapId}/export.json`, { headers: { cookie: owner.cookie } })).status).toBe(200);
  });

  it('a value beyond a schema limit is refused in words naming the field and the limit, not zod’s (“Too big: expected number to be <=64”)', async () => {
    const mapId = await ok('createMap', { title: 'Zoomed', mapData: documentWithGroups(2) });
    const answer = await send('editMap', { id: mapId, edits: [{ type: 'SettingsChanged', settings: { ...defaultSettings(), defaultLayer: 'ground', maxZoom: 100 } }] }, mapId);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('Maximum zoom can be at most 64.');
  });

  it('removing one location fifty times in one edit is refused, and the maps list keeps its count', async () => {
    const mapId = await ok('createMap', { title: 'Two places', mapData: documentWithGroups(2) });
    expect(await metricsOf(mapId)).toMatchObject({ locationCount: 2 });
    const answer = await send('editMap', { id: mapId, edits: [{ type: 'LocationsRemoved', ids: Array.from({ length: 50 }, () => 'cafe') }] }, mapId);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('edits.0.ids.1: names the location cafe twice');
    expect(await metricsOf(mapId)).toMatchObject({ locationCount: 2 });
    await ok('editMap', { id: mapId, edits: [{ type: 'LocationsRemoved', ids: ['cafe'] }] }, mapId);
    expect(await metricsOf(mapId)).toMatchObject({ locationCount: 1 });
  });

  it('a removal an earlier version recorded naming one location fifty times counts it once in the maps list', async () => {
    const mapId = await ok('createMap', { title: 'Two places', mapData: documentWithGroups(2) });
    const [created] = await server.services.store.readStream(streams.map(mapId));
    // As editMap recorded it before issue 26: the same id fifty times (the maps list said -48).
    const appended = await server.services.store.append(
      streams.map(mapId),
      [{ id: randomUUID(), type: 'LocationsRemoved', data: { ids: Array.from({ length: 50 }, () => 'cafe'), mapId, edited: new Date().toISOString() }, metadata: { ...created!.metadata, at: new Date().toISOString() } }],
      'any',
    );
    await server.runner.waitFor(appended.position);
    expect(await metricsOf(mapId)).toMatchObject({ locationCount: 1 });
  });

  it('a version that breaks a limit of today (201 groups, recorded by an earlier version of the product) is refused on restore, not recorded', async () => {
    const mapId = await ok('createMap', { title: 'Old map', mapData: documentWithGroups(MAX_GROUPS) });
    // As the earlier editMap recorded a 201st group: an event valid on its own, a document over the limit.
    const [created] = await server.services.store.readStream(streams.map(mapId));
    const appended = await server.services.store.append(
      streams.map(mapId),
      [{ id: randomUUID(), type: 'GroupAdded', data: { group: { id: 'extra', name: 'Extra', color: '#dc2626', legend: true }, mapId, edited: new Date().toISOString() }, metadata: { ...created!.metadata, at: new Date().toISOString() } }],
      'any',
    );
    await server.runner.waitFor(appended.position);
    const { historyId } = await ok('saveMapHistory', { mapId, name: 'Over the limit' });
    await ok('editMap', { id: mapId, edits: [{ type: 'GroupRemoved', id: 'extra' }] });
    const before = (await server.services.store.readStream(streams.map(mapId))).length;

    const answer = await send('restoreMapHistory', { mapId, historyMapId: historyId }, mapId);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(`This version cannot be restored: groups: at most ${MAX_GROUPS} groups.`);
    expect((await server.services.store.readStream(streams.map(mapId))).length).toBe(before);
  });

  it('a calibration reaching the pole is refused, and a latitude/longitude import onto one never places at NaN', async () => {
    const mapId = await ok('createMap', { title: 'Arctic' });
    const polar = { kind: 'bounds', projection: 'mercator', north: 90, south: 86, west: 0, east: 40 };
    const refused = await send('editMap', { id: mapId, edits: [{ type: 'LayerCalibrated', id: 'ground', geo: polar }] }, mapId);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^edits\.0\.geo: must span some latitude within Web Mercator's ±85\.05113°/);

    // A floor calibrated so before the check (a map's document may carry one): the import places nothing at NaN.
    const document = { ...documentWithGroups(0), locations: [], layers: [{ id: 'ground', name: 'Ground floor', file: null, geo: polar }] };
    const old = await ok('createMap', { title: 'Arctic plan', mapData: document });
    const csv = 'title,lat,lng,floor\nSvalbard,78.2,15.6,ground\nNorth Pole,89.9,10,ground\n';
    const imported = await importFile(old, csv, 'arctic.csv', 'text/csv');
    // Refused in words (nothing on that floor can be placed), or imported at finite places.
    if (imported.status !== 200) {
      expect(imported.status).toBe(400);
      expect(imported.error?.message).toMatch(/lies outside what the floor “Ground floor” shows/);
    }
    for (const location of (await documentOf(old)).locations) {
      if (location.position) expect([location.position.x, location.position.y].every(Number.isFinite), location.title).toBe(true);
    }
  });

  it('a location title cut to 200 characters inside an emoji keeps the emoji whole (or leaves it out), never half of it', async () => {
    const mapId = await ok('createMap', { title: 'Emoji' });
    const title = `${'a'.repeat(199)}😀 and more`;
    const imported = await importFile(mapId, `title,x,y\n${title},10,20\n`, 'emoji.csv', 'text/csv');
    expect(imported.status, imported.error?.message).toBe(200);
    const [location] = (await documentOf(mapId)).locations;
    expect(location!.title.length).toBeLessThanOrEqual(200);
    expect(isSafeText(location!.title)).toBe(true);
    expect(location!.title).toBe('a'.repeat(199));
  });

  it('an SVG floor drawn in a tiny viewBox keeps its size (not 0 × 0)', async () => {
    const mapId = await ok('createMap', { title: 'Tiny' });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0.0001 0.0002"><rect id="room" x="0" y="0" width="0.00005" height="0.00005"/></svg>';
    const imported = await importFile(mapId, svg, 'tiny.svg', 'image/svg+xml');
    if (imported.status !== 200) {
      // Refusing the drawing is as good, if it says so in words.
      expect(imported.status).toBe(400);
      return;
    }
    const floor = (await documentOf(mapId)).layers.find((layer) => layer.file)!;
    expect(floor.file!.width).toBeGreaterThan(0);
    expect(floor.file!.height).toBeGreaterThan(0);
    expect(floor.file!.height / floor.file!.width).toBeCloseTo(2, 3);
  });
});
