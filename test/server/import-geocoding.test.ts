/**
 * Geocoding on import through the HTTP app (issue 29 item 3): a corpus CSV of cities and states
 * without coordinates comes in placed (the embedded geocoder, city precision recorded on each
 * location), and with GEOCODER_URL set, rows with a street address go to a geocoder on loopback
 * that answers as Nominatim documents its `/search?format=jsonv2` (a list of places, `lat` and
 * `lon` as strings, `place_rank`): asked once per distinct address in its structured form,
 * placed at street precision, with progress to poll; a geocoder that fails leaves the import
 * whole, its rows placed by postcode or city instead.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorToGeo } from '../../events/geo-calibration.js';
import type { MapDocument } from '../../events/map-document.js';
import type { ImportPreview } from '../../events/map-import.js';
import { geocoderRequestUrl, placementOf, RemoteGeocoder } from '../../server/geocoding/remote-geocoder.js';
import { databaseTargets } from '../support/databases.js';
import { corpus, corpusDocumentOf, sendCorpusFile } from '../support/realworld-corpus.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/** A Nominatim-shaped server: answers /search?format=jsonv2 from a table of streets, or fails when told to. */
function nominatim() {
  const requests: URL[] = [];
  let failing = false;
  const streets: Record<string, { lat: number; lon: number }> = {
    '1600 pennsylvania avenue nw': { lat: 38.8976763, lon: -77.0365298 },
    '350 5th avenue': { lat: 40.7484405, lon: -73.9856644 },
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(url);
    if (failing) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded');
      return;
    }
    const street = (url.searchParams.get('street') ?? url.searchParams.get('q') ?? '').toLowerCase();
    const found = url.pathname === '/search' && url.searchParams.get('format') === 'jsonv2' ? streets[street] : undefined;
    const body = found
      ? [{ place_id: 1, licence: 'Data © OpenStreetMap contributors, ODbL 1.0.', osm_type: 'way', osm_id: 2, lat: String(found.lat), lon: String(found.lon), category: 'building', type: 'yes', place_rank: 30, importance: 0.5, addresstype: 'building', name: '', display_name: street, boundingbox: ['0', '0', '0', '0'] }]
      : [];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return {
    server,
    requests,
    fail: (value: boolean) => {
      failing = value;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}

const STORES = [
  'Name,Address,City,State,Zip,Country',
  'White House,1600 Pennsylvania Avenue NW,Washington,DC,20500,US',
  'Empire State,350 5th Avenue,New York,NY,10118,US',
  'Empire State again,350 5th Avenue,New York,NY,10118,US',
  'Corner shop,99 Nowhere Road,Springfield,IL,62701,US',
  'Lost,1 Unknown Way,Qwxyzville,,,US',
].join('\n');

describe('a geocoder of streets (GEOCODER_URL) in Nominatim’s format', () => {
  const fake = nominatim();
  let base: string;
  beforeAll(async () => {
    base = await fake.listen();
  });
  afterAll(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));

  it('asks the structured query and reads its answer', () => {
    const url = new URL(geocoderRequestUrl('http://geo.example:8080/', 'nominatim', { street: '350 5th Avenue', city: 'New York', state: 'NY', postcode: '10118', country: 'US' }));
    expect(url.pathname).toBe('/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ format: 'jsonv2', limit: '1', addressdetails: '0', street: '350 5th Avenue', city: 'New York', state: 'NY', postalcode: '10118', country: 'US' });
    expect(new URL(geocoderRequestUrl('http://geo.example/nominatim/search', 'nominatim', { street: '1 Main St, Springfield', city: '', state: '', postcode: '', country: '' })).searchParams.get('q')).toBe('1 Main St, Springfield');
    expect(placementOf('nominatim', [{ lat: '48.85', lon: '2.35', place_rank: 16, addresstype: 'city' }])).toEqual({ lat: 48.85, lng: 2.35, precision: 'city' });
    expect(placementOf('nominatim', [{ lat: '40.1', lon: '-73.2', place_rank: 21, addresstype: 'postcode', type: 'postcode' }])).toMatchObject({ precision: 'postcode' });
    expect(placementOf('nominatim', [])).toBeNull();
    expect(placementOf('photon', { type: 'FeatureCollection', features: [{ geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { type: 'house' } }] })).toEqual({ lat: 48.85, lng: 2.35, precision: 'street' });
    expect(placementOf('pelias', { features: [{ geometry: { coordinates: [2.35, 48.85] }, properties: { layer: 'postalcode' } }] })).toMatchObject({ precision: 'postcode' });
  });

  it('asks each address once, caches answers, keeps to the public addresses unless allowed, and stops after failures', async () => {
    const address = { street: '350 5th Avenue', city: 'New York', state: 'NY', postcode: '10118', country: 'US' };
    const refused = new RemoteGeocoder({ url: base, kind: 'nominatim', requestsPerSecond: 100, timeoutMs: 2000, maxAddresses: 10 });
    // Loopback is not a public address: nothing is asked, nothing answered, no error thrown.
    const before = fake.requests.length;
    expect(await refused.placeAll([address])).toEqual(new Map());
    expect(fake.requests.length).toBe(before);

    const geocoder = new RemoteGeocoder({ url: base, kind: 'nominatim', requestsPerSecond: 100, timeoutMs: 2000, maxAddresses: 10, allowPrivate: true });
    const progress: Array<[number, number]> = [];
    const answers = await geocoder.placeAll([address, { ...address }, { ...address, street: '1 Nowhere' }], (p) => progress.push([p.done, p.total]));
    expect([...answers.values()]).toEqual([{ lat: 40.7484405, lng: -73.9856644, precision: 'street' }, null]);
    expect(fake.requests.length - before).toBe(2);
    expect(progress.at(-1)).toEqual([2, 2]);
    // Asked again (an apply after its preview): from the cache.
    await geocoder.placeAll([address]);
    expect(fake.requests.length - before).toBe(2);

    fake.fail(true);
    const many = Array.from({ length: 20 }, (_, i) => ({ ...address, street: `${i} Failing Street` }));
    const failed = await geocoder.placeAll(many);
    expect(failed.size).toBe(0);
    expect(fake.requests.length - before).toBeLessThanOrEqual(2 + 5 + 7);
    fake.fail(false);
  });
});

describe.each(databaseTargets)('geocoding on import on $name', (target) => {
  const fake = nominatim();
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    const base = await fake.listen();
    server = await startTestServer(target, { env: { GEOCODER_URL: base, GEOCODER_RATE: '50', GEOCODER_ALLOW_PRIVATE: '1', GEOCODER_TIMEOUT_MS: '3000' } });
    owner = await registerUser(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => fake.server.close(() => resolve()));
  });

  const newMap = async (title: string): Promise<string> => {
    const made = await call(server, 'createMap', { title }, owner);
    if (made.body.position) await projected(server, made.body.position);
    return made.body.result as string;
  };
  const documentOf = (mapId: string): Promise<MapDocument> => corpusDocumentOf(server, mapId, owner);
  /** Where a location is, in degrees, through its floor's calibration. */
  const degreesOf = (document: MapDocument, id: string) => {
    const location = document.locations.find((l) => l.id === id)!;
    const layer = document.layers.find((l) => l.id === location.layer)!;
    const size = layer.file ? { width: layer.file.width, height: layer.file.height } : document.settings.size;
    return floorToGeo(layer.geo!, size, location.position!)!;
  };

  async function importCsv(mapId: string, text: string, query: Record<string, string>): Promise<ImportPreview> {
    const response = await fetch(`${server.url}/api/maps/${mapId}/import?${new URLSearchParams({ filename: 'stores.csv', ...query })}`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'text/csv' },
      body: text,
    });
    const answer = (await response.json()) as { result: ImportPreview; position: string | null };
    expect(response.status, JSON.stringify(answer)).toBe(200);
    if (answer.position) await projected(server, answer.position);
    return answer.result;
  }

  it('places a corpus CSV of cities without coordinates (smallpop-colon.csv) at city precision, each Springfield in its state', async () => {
    const file = corpus().find((candidate) => candidate.name === 'csv/smallpop-colon.csv')!;
    const mapId = await newMap('Small towns');
    const preview = await sendCorpusFile(server, mapId, file, owner, false);
    expect(preview.result?.geocoding).toEqual({ placed: { city: 10 }, unplaced: 0, remote: false });
    const applied = await sendCorpusFile(server, mapId, file, owner, true);
    expect(applied.status).toBe(200);
    const document = await documentOf(mapId);
    expect(document.locations).toHaveLength(10);
    expect(document.locations.every((l) => l.position !== null && l.precision === 'city')).toBe(true);
    const springfields = document.locations.filter((l) => l.title === 'Springfield').map((l) => degreesOf(document, l.id));
    // Massachusetts, Missouri, New Jersey, Ohio, Oregon: west to east as the file's states say.
    expect(springfields.map((p) => Math.round(p.lng))).toEqual([-73, -93, -74, -84, -123]);
    expect(springfields[1]!.lat).toBeCloseTo(37.2, 0);
  });

  it('sends street addresses to the geocoder once each, records street precision, polls progress, and leaves what it cannot place unplaced with the reason', async () => {
    const mapId = await newMap('Stores');
    const before = fake.requests.length;
    const preview = await importCsv(mapId, STORES, { progress: 'preview-token-1' });
    // Four distinct street addresses asked once each, in Nominatim's structured form.
    const asked = fake.requests.slice(before);
    expect(asked).toHaveLength(4);
    expect(Object.fromEntries(asked.find((url) => url.searchParams.get('street') === '350 5th Avenue')!.searchParams)).toMatchObject({ format: 'jsonv2', city: 'New York', state: 'NY', postalcode: '10118', country: 'US' });
    expect(preview.geocoding).toEqual({ placed: { street: 3, postcode: 1 }, unplaced: 1, remote: true });
    expect(preview.problems).toContainEqual({ row: 5, field: 'address', message: expect.stringMatching(/^Row 5 was not placed: the city “Qwxyzville” in US/) });
    const progress = await fetch(`${server.url}/api/maps/${mapId}/import/progress?token=preview-token-1`, { headers: { cookie: owner.cookie } });
    expect(((await progress.json()) as { result: unknown }).result).toEqual({ phase: 'done', done: 1, total: 1 });
    const stranger = await registerUser(server);
    expect((await fetch(`${server.url}/api/maps/${mapId}/import/progress?token=preview-token-1`, { headers: { cookie: stranger.cookie } })).status).toBe(403);

    // The apply asks nothing again (the answers are cached) and records each location's precision.
    const applied = await importCsv(mapId, STORES, { apply: '1' });
    expect(fake.requests.length - before).toBe(4);
    expect(applied.geocoding).toEqual(preview.geocoding);
    const document = await documentOf(mapId);
    const byTitle = new Map(document.locations.map((l) => [l.title, l]));
    expect(byTitle.get('White House')!.precision).toBe('street');
    expect(byTitle.get('Corner shop')!.precision).toBe('postcode');
    expect(byTitle.get('Lost')!.position).toBeNull();
    expect(byTitle.get('Lost')!.precision).toBeUndefined();
    const whiteHouse = degreesOf(document, byTitle.get('White House')!.id);
    expect(whiteHouse.lat).toBeCloseTo(38.8977, 3);
    expect(whiteHouse.lng).toBeCloseTo(-77.0365, 3);
  });

  it('imports whole when the geocoder fails: the rows are placed by postcode or city instead', async () => {
    // An account has two test maps: a new owner for a third.
    owner = await registerUser(server);
    const mapId = await newMap('Stores, geocoder down');
    fake.fail(true);
    try {
      const rows = ['Name,Address,City,State,Zip', 'Office,10 Failing Street,Chicago,IL,60601', 'Depot,11 Failing Street,Denver,CO,'].join('\n');
      const preview = await importCsv(mapId, rows, { apply: '1' });
      expect(preview.geocoding).toEqual({ placed: { postcode: 1, city: 1 }, unplaced: 0, remote: false });
      expect(preview.counts.locations).toBe(2);
    } finally {
      fake.fail(false);
    }
  });

  it('answers a store locator’s search with the street geocoder’s place first, then the embedded ones; the embedded alone when it fails (issue 29 item 4)', { timeout: 60_000 }, async () => {
    owner = await registerUser(server);
    const mapId = await newMap('Store locator');
    const search = (q: string) => server.app.inject({ method: 'GET', url: `/api/public/maps/${mapId}/places?q=${encodeURIComponent(q)}`, headers: { cookie: owner.cookie } });
    const street = await search('350 5th Avenue');
    expect(street.statusCode).toBe(200);
    expect(street.json().result.places[0]).toMatchObject({ name: '350 5th Avenue', country: null, precision: 'street', lat: 40.7484405, lng: -73.9856644 });
    expect(fake.requests.some((url) => url.searchParams.get('q') === '350 5th Avenue')).toBe(true);
    fake.fail(true);
    try {
      const city = await search('Chicago');
      expect(city.statusCode).toBe(200);
      expect(city.json().result.places[0]).toMatchObject({ name: 'Chicago', country: 'US', precision: 'city' });
    } finally {
      fake.fail(false);
    }
  });
});
