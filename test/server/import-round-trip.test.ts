/**
 * Exports come back through the import endpoint (issue 15, item 5), over HTTP on a real
 * database: a map's CSV imported into a blank map gives every location back, field by field
 * and id by id, with the floors and groups it names created; its JSON export replaces a map
 * with the same document; its GeoJSON export puts the points back within a pixel on a
 * calibrated floor of a blank map.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { floorToGeo, projectToFloor, type LatLng } from '../../events/geo-calibration.js';
import { CSV_COLUMNS } from '../../events/locations-csv.js';
import { MapDocument, emptyMapDocument, type GeoCalibration, type Location } from '../../events/map-document.js';
import { databaseTargets } from '../support/databases.js';
import { mapImports } from '../support/map-imports.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const world: GeoCalibration = { kind: 'bounds', projection: 'equirectangular', north: 90, south: -90, west: -180, east: 180 };
const campus: GeoCalibration = { kind: 'bounds', projection: 'mercator', north: 51.7612, south: 51.7512, west: -1.2646, east: -1.2446 };
const size = { width: 1200, height: 800 };
const at = (geo: GeoCalibration, place: LatLng) => projectToFloor(geo, size, place)!;

/** A map with everything a CSV must carry: floors (two calibrated), groups named with ; , and quotes, rich descriptions, zoom, colours, hidden ones. */
const source = MapDocument.parse({
  ...emptyMapDocument(),
  layers: [
    { id: 'ground', name: 'Ground floor' },
    { id: 'level-1', name: 'Level 1, east wing' },
    { id: 'world', name: 'World', geo: world },
    { id: 'campus', name: 'Campus "old town"', geo: campus },
  ],
  groups: [
    { id: 'food', name: 'Food & drink', color: '#f97316' },
    { id: 'shoes', name: 'Shoes; bags', color: '#0ea5e9' },
    { id: 'toys', name: 'Toys, games', color: '#22c55e', legend: false },
    { id: 'best', name: 'The "best" shops', color: '#a855f7' },
  ],
  locations: [
    {
      id: 'cafe', title: 'Café Lumière', about: 'Coffee, cake; and "more"', layer: 'ground', position: { x: 120.5, y: 340.25 },
      description: '<p>Open <strong>late</strong>,<br>on the <a href="https://example.com/cafe">terrace</a>.</p>\n<ul><li>one</li><li>two, three</li></ul>',
      groups: ['food', 'best'], zoom: 3.5, color: '#aa3300', marker: 'circle', label: 'C', phone: '+1 555 0100', hours: 'Mon–Fri 8–18\nSat 9–14',
      link: 'https://example.com/cafe', image: 'https://example.com/cafe.jpg', thumbnail: 'https://example.com/cafe-small.jpg', element: 'unit-12',
    },
    { id: 'shoe-box', title: 'Shoe Box', layer: 'level-1', position: { x: 10, y: 20 }, groups: ['shoes', 'toys', 'best'], hidden: true, marker: 'dot' },
    { id: 'formula', title: '=HYPERLINK("http://evil")', about: '@risk', layer: 'level-1', position: { x: 0.5, y: 700 }, hours: '-9 to 5', label: '+1' },
    { id: 'no-position', title: 'Somewhere upstairs', layer: 'level-1', zoom: 0.5, groups: ['toys'] },
    { id: 'paris', title: 'Paris', layer: 'world', position: at(world, { lat: 48.8566, lng: 2.3522 }), groups: ['food'], color: '#112233', zoom: 12 },
    { id: 'sydney', title: 'Sydney', layer: 'world', position: at(world, { lat: -33.8688, lng: 151.2093 }), marker: 'label', label: 'SYD' },
    { id: 'lima', title: 'Lima', layer: 'world', position: at(world, { lat: -12.0464, lng: -77.0428 }), hidden: true },
    { id: 'bodleian', title: 'Bodleian Library', layer: 'campus', position: at(campus, { lat: 51.7543, lng: -1.2544 }), description: '<p>Books</p>' },
    { id: 'radcliffe', title: 'Radcliffe Camera', layer: 'campus', position: at(campus, { lat: 51.7534, lng: -1.2540 }), groups: ['best'] },
  ],
});

/** A location with its floor and groups by name (a new map gives them ids of its own). */
function byNames(document: MapDocument) {
  const floor = new Map(document.layers.map((l) => [l.id, l.name]));
  const group = new Map(document.groups.map((g) => [g.id, g.name]));
  return document.locations.map((l: Location) => ({ ...l, layer: floor.get(l.layer), groups: l.groups.map((g) => group.get(g)) }));
}

describe.each(databaseTargets)('export, then import, on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
  });
  // An account has two test maps (the source and the blank one): a new owner for each test.
  beforeEach(async () => {
    owner = await registerUser(server);
  });
  afterAll(() => server.close());

  const { createMap, documentOf, importFile } = mapImports(() => server, () => owner);

  async function download(id: string, file: string): Promise<string> {
    const response = await fetch(`${server.url}/api/maps/${id}/${file}`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    return response.text();
  }

  it('a CSV export imports into a blank map with every field back, creating the floors and groups it names', async () => {
    const from = await createMap('Everything', source);
    const exported = await documentOf(from);
    const csv = await download(from, 'locations.csv');
    expect(Papa.parse<string[]>(csv.replace(/^\uFEFF/, '')).data[0]).toEqual([...CSV_COLUMNS]);

    const blank = await createMap('Blank');
    const preview = await importFile(blank, csv, 'Everything-locations.csv', 'text/csv', false);
    expect(preview.format).toBe('csv');
    // Every column is read, each as the field of its own name.
    expect(preview.columns.ignored).toEqual([]);
    expect(preview.mapping).toEqual(Object.fromEntries(CSV_COLUMNS.map((column) => [column, column])));
    expect(preview.counts).toMatchObject({ locations: exported.locations.length, groups: 4, updated: 0, skipped: 0 });
    expect(preview.problems).toEqual([]);
    expect((await documentOf(blank)).locations).toEqual([]);

    const applied = await importFile(blank, csv, 'Everything-locations.csv', 'text/csv');
    expect(applied.counts.locations).toBe(exported.locations.length);
    const imported = await documentOf(blank);
    expect(imported.layers.map((l) => l.name).sort()).toEqual(exported.layers.map((l) => l.name).sort());
    expect(imported.groups.map((g) => g.name).sort()).toEqual(exported.groups.map((g) => g.name).sort());
    // Field by field, ids included, in the same order; floors and groups by name.
    expect(byNames(imported)).toEqual(byNames(exported));
  });

  it('a JSON export replaces a map with the same document', async () => {
    const from = await createMap('Everything as JSON', source);
    const exported = await documentOf(from);
    const json = await download(from, 'export.json');
    const other = await createMap('Another');
    const preview = await importFile(other, json, 'Everything.json', 'application/json', false);
    expect(preview).toMatchObject({ format: 'mapfold', replaces: true });
    await importFile(other, json, 'Everything.json', 'application/json');
    expect(await documentOf(other)).toEqual(exported);
  });

  it('a GeoJSON export puts the points back within a pixel on a calibrated floor of a blank map', async () => {
    const from = await createMap('Cities', source);
    const exported = await documentOf(from);
    const geojson = await download(from, 'export.geojson');
    const blank = await createMap('Blank for GeoJSON');
    const preview = await importFile(blank, geojson, 'Cities.geojson', 'application/geo+json', false);
    expect(preview.format).toBe('geojson');
    const located = exported.locations.filter((l) => l.position && exported.layers.find((f) => f.id === l.layer)?.geo);
    expect(preview.counts.locations).toBe(located.length);
    await importFile(blank, geojson, 'Cities.geojson', 'application/geo+json');
    const imported = await documentOf(blank);
    expect(imported.locations.map((l) => l.id)).toEqual(located.map((l) => l.id));
    for (const location of imported.locations) {
      const floor = imported.layers.find((l) => l.id === location.layer)!;
      const original = located.find((l) => l.id === location.id)!;
      const originalFloor = exported.layers.find((l) => l.id === original.layer)!;
      expect(floor.geo, `${location.id} is on a calibrated floor`).toBeDefined();
      const floorSize = { width: floor.file?.width ?? imported.settings.size.width, height: floor.file?.height ?? imported.settings.size.height };
      const place = floorToGeo(originalFloor.geo!, size, original.position!)!;
      // Where the original place falls on the new floor, and where the import put the location: within a pixel.
      const expected = projectToFloor(floor.geo!, floorSize, place)!;
      expect(Math.hypot(location.position!.x - expected.x, location.position!.y - expected.y), location.id).toBeLessThan(1);
      const back = floorToGeo(floor.geo!, floorSize, location.position!)!;
      expect(back.lat).toBeCloseTo(place.lat, 4);
      expect(back.lng).toBeCloseTo(place.lng, 4);
      expect(location).toMatchObject({ title: original.title, description: original.description, color: original.color, zoom: original.zoom, marker: original.marker, label: original.label, hidden: original.hidden, element: original.element });
      const groupNames = (document: MapDocument, ids: string[]) => ids.map((id) => document.groups.find((g) => g.id === id)?.name);
      expect(groupNames(imported, location.groups)).toEqual(groupNames(exported, original.groups));
    }
  });
});
