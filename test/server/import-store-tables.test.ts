/**
 * Real store tables through the import endpoint (issue 15), over HTTP on a real database: a
 * store directory with its own column names (Starbucks' directory.csv, cut down) and 42,049
 * US postal codes with latitude/longitude (all of them on PGlite, a sixth on PostgreSQL). Rows in, locations out; the columns guessed (or
 * confirmed by the user); places checked at their latitude/longitude on the geographic floor
 * the import makes. Sources: test/fixtures/import/csv/SOURCES.md.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { floorToGeo } from '../../events/geo-calibration.js';
import { databaseTargets } from '../support/databases.js';
import { mapImports } from '../support/map-imports.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const fixture = (name: string) => new URL(`../fixtures/import/csv/${name}`, import.meta.url);

describe.each(databaseTargets)('real store tables imported on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
  });
  // An account has two test maps: a new owner for each test.
  beforeEach(async () => {
    owner = await registerUser(server);
  });
  afterAll(() => server.close());

  const { createMap, documentOf, importFile } = mapImports(() => server, () => owner);

  it('imports a real store directory (Starbucks) with its own column names: rows in, locations out, stores at their latitude/longitude', async () => {
    const csv = readFileSync(fixture('starbucks-directory-excerpt.csv'), 'utf8');
    const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
    const blank = await createMap('Stores');
    const preview = await importFile(blank, csv, 'directory.csv', 'text/csv', false);
    expect(preview.format).toBe('csv');
    expect(preview.mapping).toMatchObject({ title: 'Store Name', id: 'Store Number', lat: 'Latitude', lng: 'Longitude', phone: 'Phone Number' });
    expect(preview.counts).toMatchObject({ locations: rows.length, skipped: 0 });
    await importFile(blank, csv, 'directory.csv', 'text/csv');
    const imported = await documentOf(blank);
    expect(imported.locations).toHaveLength(rows.length);
    // The address's parts (street, city, state, postcode, country) joined as the short text; the phone kept.
    expect(imported.locations[0]).toMatchObject({ id: '47370-257954', phone: '376818720', about: expect.stringContaining('Av. Meritxell, 96') });
    expect(imported.locations[0]!.about).toContain('Andorra la Vella');
    for (const [number, title, lat, lng] of [
      ['47370-257954', 'Meritxell, 96', 42.51, 1.53],
      ['34211-17922', 'Emirates Tower', 25.21, 55.28],
      ['2874-186526', 'Sundance Square Plaza', 32.75, -97.33],
      ['6642-68444', 'I-10 & George Dieter Dr', 31.72, -106.3],
    ] as const) {
      const store = imported.locations.find((l) => l.id === number);
      expect(store, number).toBeDefined();
      expect(store!.title).toBe(title);
      const floor = imported.layers.find((l) => l.id === store!.layer)!;
      expect(floor.geo, 'a geographic floor').toBeDefined();
      const place = floorToGeo(floor.geo!, { width: floor.file?.width ?? imported.settings.size.width, height: floor.file?.height ?? imported.settings.size.height }, store!.position!)!;
      expect(place.lat).toBeCloseTo(lat, 4);
      expect(place.lng).toBeCloseTo(lng, 4);
    }
  });

  // The whole file on PGlite, the embedded database whose server does the work; on PostgreSQL
  // every sixth row and the rows checked below (still two chunked events): the size is the
  // planner's and the route's question, not the database's, and the whole file took half a
  // minute more per database.
  const whole = target.name === 'pglite';
  const CHECKED = [
    ['00501', 'Holtsville', 40.922326, -72.637078],
    ['10001', 'New York', 40.750422, -73.996328],
    ['90210', 'Beverly Hills', 33.786594, -118.298662],
    ['98101', 'Seattle', 47.432251, -121.803388],
  ] as const;
  it(`imports ${whole ? 'all 42,049' : 'a sixth of 42,049'} real US postal codes with latitude/longitude through a confirmed column mapping: every row a location at its place`, async () => {
    const file = new TextDecoder().decode(gunzipSync(readFileSync(fixture('us-zipcodes-geonames.csv.gz')))).trim();
    const [header, ...lines] = file.split('\n');
    expect(lines).toHaveLength(42_049);
    const checked = new Set<string>(CHECKED.map(([zip]) => zip));
    const kept = whole ? lines : lines.filter((line, index) => index % 6 === 0 || checked.has(line.split(',')[0]!));
    if (!whole) expect(kept.length).toBeGreaterThan(5_000);
    const csv = new TextEncoder().encode([header, ...kept].join('\n'));
    const rows = kept.length;
    const blank = await createMap('Postal codes');
    const guessed = await importFile(blank, csv, 'zipcodes.csv', 'text/csv', false);
    expect(guessed.mapping).toMatchObject({ lat: 'latitude', lng: 'longitude' });
    // No column is called a name: the user names the code the id and the city the title.
    const options = { columns: { id: 'zip_code', title: 'city', lat: 'latitude', lng: 'longitude' } };
    const preview = await importFile(blank, csv, 'zipcodes.csv', 'text/csv', false, options);
    expect(preview.counts).toMatchObject({ locations: rows, skipped: 0 });
    await importFile(blank, csv, 'zipcodes.csv', 'text/csv', true, options);
    const imported = await documentOf(blank);
    expect(imported.locations).toHaveLength(rows);
    for (const [zip, city, lat, lng] of CHECKED) {
      const location = imported.locations.find((l) => l.id === zip);
      expect(location, zip).toBeDefined();
      expect(location!.title).toBe(city);
      const floor = imported.layers.find((l) => l.id === location!.layer)!;
      expect(floor.geo, 'a geographic floor').toBeDefined();
      const place = floorToGeo(floor.geo!, { width: floor.file?.width ?? imported.settings.size.width, height: floor.file?.height ?? imported.settings.size.height }, location!.position!)!;
      expect(place.lat).toBeCloseTo(lat, 4);
      expect(place.lng).toBeCloseTo(lng, 4);
    }
  }, 300_000);
});
