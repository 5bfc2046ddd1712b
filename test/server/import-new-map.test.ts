/**
 * Importing into a new map over HTTP (issue 27): the map ends with exactly the floors the file
 * needs (the empty "Ground floor" a new map starts with gives way to them, in the import's one
 * append), the map opens on them, and the preview answered before is, word for word, what the
 * apply answers and records: floor by floor, row by row.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MapDocument } from '../../events/map-document.js';
import { pgliteTarget } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/** The header of the Starbucks store list (Kaggle's directory.csv), with rows of our own. */
const STORES = [
  'Brand,Store Number,Store Name,Ownership Type,Street Address,City,State/Province,Country,Postcode,Phone Number,Timezone,Longitude,Latitude',
  'Starbucks,1001-1,Alexanderplatz,Company Owned,Alexanderplatz 7,Berlin,BE,DE,10178,+49 30 1234567,GMT+01:00 Europe/Berlin,13.4132,52.5219',
  'Starbucks,1002-2,Marienplatz,Licensed,Marienplatz 1,München,BY,DE,80331,+49 89 7654321,GMT+01:00 Europe/Berlin,11.5755,48.1374',
  'Starbucks,1003-3,Head office,Company Owned,Somewhere 1,Hamburg,HH,DE,20095,,GMT+01:00 Europe/Berlin,,',
  'Starbucks,1004-4,,Licensed,Nameless 2,Köln,NW,DE,50667,,GMT+01:00 Europe/Berlin,6.96,50.94',
].join('\n');

const CAFES = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { name: 'Harbour Café', city: 'Hamburg' }, geometry: { type: 'Point', coordinates: [9.99, 53.55] } },
    { type: 'Feature', properties: { name: 'Dom Café', city: 'Köln' }, geometry: { type: 'Point', coordinates: [6.958, 50.941] } },
  ],
};

describe('importing into a new map', () => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
  }, 60_000);
  afterAll(() => server?.close());
  beforeEach(async () => {
    owner = await registerUser(server);
  });

  const newMap = async (title: string) => {
    const answer = await call(server, 'createMap', { title }, owner);
    if (answer.status !== 200) throw new Error(`createMap: ${answer.status} ${JSON.stringify(answer.body)}`);
    await projected(server, answer.body.position);
    return answer.body.result as string;
  };
  const documentOf = async (mapId: string) =>
    (((await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as any).result.data) as MapDocument;
  async function importFile(mapId: string, body: string, filename: string, contentType: string, apply = false) {
    const query = new URLSearchParams({ filename, ...(apply ? { apply: '1' } : {}) });
    const response = await fetch(`${server.url}/api/maps/${mapId}/import?${query}`, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': contentType }, body });
    const answer = (await response.json()) as any;
    if (response.status !== 200) throw new Error(`import: ${response.status} ${JSON.stringify(answer)}`);
    if (answer.position) await projected(server, answer.position);
    return answer.result;
  }

  it('a store CSV leaves one floor, the default, with every store on it; the preview said so, as the apply did', async () => {
    const mapId = await newMap('Stores');
    expect((await documentOf(mapId)).layers.map((l) => l.name)).toEqual(['Ground floor']);
    const preview = await importFile(mapId, STORES, 'directory.csv', 'text/csv');
    const applied = await importFile(mapId, STORES, 'directory.csv', 'text/csv', true);
    expect(applied.revision).not.toBeNull();
    expect({ ...applied, revision: null }).toEqual(preview);

    const document = await documentOf(mapId);
    expect(document.layers).toHaveLength(1);
    const floor = document.layers[0]!;
    expect(floor.geo).toBeDefined();
    expect(document.settings.defaultLayer).toBe(floor.id);
    expect(document.locations.map((l) => [l.id, l.title, l.layer, l.position !== null])).toEqual([
      ['1001-1', 'Alexanderplatz', floor.id, true],
      ['1002-2', 'Marienplatz', floor.id, true],
      // No coordinates: placed by its address, in Hamburg (geocoding on import, issue 29 item 3).
      ['1003-3', 'Head office', floor.id, true],
    ]);
    expect(document.locations[2]!.precision).toBe('city');
    expect(document.locations[0]).toMatchObject({ about: 'Alexanderplatz 7, Berlin, BE, 10178, DE', phone: '+49 30 1234567' });

    // What the preview said, against what was recorded.
    expect(preview.removedFloor).toBe('Ground floor');
    expect(preview.counts).toMatchObject({ layers: 1, locations: 3, skipped: 1, updated: 0 });
    expect(preview.floors).toEqual([{ id: floor.id, name: floor.name, new: true, locations: 3, updated: 0 }]);
    expect(preview.sample.map((row: any) => [row.row, row.title, row.floor, row.skipped === null])).toEqual([
      [1, 'Alexanderplatz', floor.name, true],
      [2, 'Marienplatz', floor.name, true],
      [3, 'Head office', floor.name, true],
      [4, '', '', false],
    ]);
    expect(preview.sample[3].skipped).toBe('Row 4 (id “1004-4”) has no title: fill in its name, or choose the column that holds names.');
    for (const row of preview.sample.slice(0, 3)) {
      const location = document.locations.find((l) => l.id === row.id)!;
      expect(location.title).toBe(row.title);
    }
    expect(preview.mapping).toMatchObject({ address: 'Street Address', city: 'City', state: 'State/Province', postcode: 'Postcode', country: 'Country', phone: 'Phone Number' });

    // A second file into the same map: the map's floor is no starter any more.
    const again = await importFile(mapId, STORES.replaceAll('100', '200'), 'more.csv', 'text/csv', true);
    expect(again.removedFloor).toBeNull();
    expect(again.floors).toEqual([{ id: floor.id, name: floor.name, new: false, locations: 3, updated: 0 }]);
    expect((await documentOf(mapId)).layers.map((l) => l.id)).toEqual([floor.id]);
  }, 120_000);

  it('a GeoJSON of points leaves only its geographic floor', async () => {
    const mapId = await newMap('Cafés');
    const preview = await importFile(mapId, JSON.stringify(CAFES), 'cafes.geojson', 'application/geo+json');
    const applied = await importFile(mapId, JSON.stringify(CAFES), 'cafes.geojson', 'application/geo+json', true);
    expect({ ...applied, revision: null }).toEqual(preview);
    const document = await documentOf(mapId);
    expect(document.layers).toHaveLength(1);
    expect(document.layers[0]!.geo).toBeDefined();
    expect(document.settings.defaultLayer).toBe(document.layers[0]!.id);
    expect(document.locations.map((l) => [l.title, l.about, l.layer])).toEqual([['Harbour Café', 'Hamburg', document.layers[0]!.id], ['Dom Café', 'Köln', document.layers[0]!.id]]);
    expect(preview).toMatchObject({ removedFloor: 'Ground floor', floors: [{ id: document.layers[0]!.id, new: true, locations: 2 }] });
  }, 60_000);

  it('a CSV placing rows on the map’s own floor by x and y keeps that floor', async () => {
    const mapId = await newMap('Desks');
    const applied = await importFile(mapId, 'Name,X,Y\nDesk,100,200\n', 'desks.csv', 'text/csv', true);
    expect(applied).toMatchObject({ removedFloor: null, floors: [{ id: 'ground', name: 'Ground floor', new: false, locations: 1 }] });
    expect((await documentOf(mapId)).layers.map((l) => l.id)).toEqual(['ground']);
  }, 60_000);
});
