/**
 * The import planner (events/import-planner.ts): a file's plan against the map as it is, to
 * edits the map's checks accept and a preview that says the same.
 */
import { describe, expect, it } from 'vitest';
import { projectToFloor } from '../../events/geo-calibration.js';
import { GROUP_PALETTE, MAX_LISTED_PROBLEMS, planImport, withStoredFiles, type PlanOptions } from '../../events/import-planner.js';
import { emptyMapDocument, type MapDocument } from '../../events/map-document.js';
import { IMPORT_CHUNK } from '../../events/map-edits.js';

import { applied, plan } from '../support/import-plans.js';

const options: PlanOptions = { sourceName: 'test.csv' };

function mall(): MapDocument {
  const document = emptyMapDocument();
  return {
    ...document,
    layers: [
      { id: 'ground', name: 'Ground floor', file: { kind: 'svg', url: '/files/AAAAAAAAAAAAAAAAAAAAAA', width: 2000, height: 1000 } },
      { id: 'first', name: 'First floor', file: null },
    ],
    groups: [{ id: 'food', name: 'Food & Drink', color: '#ff0000', legend: true }],
    locations: [{ id: 'cafe', title: 'Cafe', about: 'Coffee', description: '', image: null, thumbnail: null, link: null, phone: '', hours: '', layer: 'ground', position: { x: 1, y: 2 }, element: null, zoom: null, marker: 'pin', color: null, label: '', groups: ['food'], hidden: false, entrances: [] }],
  };
}

describe('planImport', () => {
  it('matches floors and groups by id or name, and makes the ones the map lacks with safe, unique ids', () => {
    const document = mall();
    const result = planImport(document, plan(
      [
        { row: 1, fields: { title: 'Shoe shop' }, floor: 'First Floor', groups: ['food & drink', 'Shoes'] },
        { row: 2, fields: { title: 'Toy shop' }, floor: 'L2', groups: ['Toys'] },
        { row: 3, fields: { title: 'Bank' }, floor: 'ground', groups: ['shoes'] },
      ],
      { floors: [{ key: 'L2', name: 'Second floor', drawing: null }], groups: [{ key: 'toys', name: 'Toys', color: '#00ff00' }] },
    ), options);
    const after = applied(document, result.edits);
    expect(after.layers.map((l) => [l.id, l.name])).toEqual([['ground', 'Ground floor'], ['first', 'First floor'], ['l2', 'Second floor']]);
    expect(after.groups.map((g) => [g.id, g.name, g.color])).toEqual([['food', 'Food & Drink', '#ff0000'], ['toys', 'Toys', '#00ff00'], ['shoes', 'Shoes', GROUP_PALETTE[2]]]);
    expect(after.locations.slice(1).map((l) => [l.id, l.layer, l.groups])).toEqual([['shoe-shop', 'first', ['food', 'shoes']], ['toy-shop', 'l2', ['toys']], ['bank', 'ground', ['shoes']]]);
    expect(result.preview.counts).toMatchObject({ layers: 1, groups: 2, locations: 3, updated: 0, skipped: 0 });
  });

  it('keeps a file’s id when safe and unique, else makes one from the title; a known id updates only the fields the file has', () => {
    const document = mall();
    const result = planImport(document, plan([
      { row: 1, id: 'cafe', fields: { about: 'Tea too' } },
      { row: 2, id: 'shop 7', fields: { title: 'Cafe' } },
      { row: 3, id: 'kiosk', fields: { title: 'Kiosk' } },
      { row: 4, id: 'kiosk', fields: { title: 'Kiosk' } },
      { row: 5, id: null, fields: { title: 'Kiosk' } },
    ]), options);
    const after = applied(document, result.edits);
    expect(after.locations.map((l) => l.id)).toEqual(['cafe', 'cafe-2', 'kiosk', 'kiosk-2', 'kiosk-3']);
    expect(after.locations[0]).toMatchObject({ title: 'Cafe', about: 'Tea too', position: { x: 1, y: 2 }, groups: ['food'] });
    expect(result.preview.counts).toMatchObject({ locations: 4, updated: 1 });
    expect(result.preview.problems.map((p) => [p.row, p.field])).toEqual([[2, 'id'], [4, 'id']]);
    expect(result.preview.problems[0]!.message).toBe('The id “shop 7” is not a usable id (1 to 64 letters, digits, - or _): this location gets the id “cafe-2”.');
  });

  it('places pixels as they are, fractions on the floor’s size, latitude/longitude through the floor’s calibration', () => {
    const document = mall();
    const geo = { kind: 'bounds' as const, projection: 'equirectangular' as const, north: 60, south: 40, west: 0, east: 20 };
    const result = planImport(document, plan(
      [
        { row: 1, fields: { title: 'A' }, position: { kind: 'pixel', x: 5, y: 6 } },
        { row: 2, fields: { title: 'B' }, position: { kind: 'fraction', x: 0.5, y: 0.25 } },
        { row: 3, fields: { title: 'C' }, floor: 'first', position: { kind: 'fraction', x: 0.5, y: 0.5 } },
        { row: 4, fields: { title: 'D' }, floor: 'plan', position: { kind: 'fraction', x: 1, y: 1 } },
        { row: 5, fields: { title: 'E' }, floor: 'geo', position: { kind: 'geo', lat: 50, lng: 10 } },
      ],
      { floors: [{ key: 'plan', name: 'Plan', drawing: null, size: { width: 300, height: 100 } }, { key: 'geo', name: 'Atlas', drawing: null, size: { width: 400, height: 200 }, geo }] },
    ), options);
    const after = applied(document, result.edits);
    const at = (title: string) => after.locations.find((l) => l.title === title)!;
    expect(at('A').position).toEqual({ x: 5, y: 6 });
    expect(at('B').position).toEqual({ x: 1000, y: 250 });
    expect(at('C').position).toEqual({ x: 600, y: 400 });
    // Floors made without a drawing are shown at the map's size (1200 × 800), whatever size the
    // file gave them: fractions and places are laid out on that, or they would move once stored.
    expect(at('D').position).toEqual({ x: 1200, y: 800 });
    expect(at('E').position).toEqual({ x: 600, y: 400 });
    expect(after.layers.find((l) => l.id === 'geo')!.geo).toEqual(geo);
  });

  it('lays a floor without its drawing out at the map’s size, so a fraction and the same place by latitude/longitude meet (Mapplic’s Germany uploaded without germany.svg)', () => {
    const document = mall();
    const geo = { kind: 'bounds' as const, projection: 'mercator' as const, north: 55.1, south: 47.2, west: 5.8, east: 15.1 };
    // The latitude halfway down the drawing in Web Mercator.
    const y = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
    const middle = (2 * Math.atan(Math.exp((y(55.1) + y(47.2)) / 2)) * 180) / Math.PI - 90;
    const result = planImport(document, plan(
      [
        { row: 1, fields: { title: 'Region' }, floor: 'de', position: { kind: 'fraction', x: 0.5, y: 0.5 } },
        { row: 2, fields: { title: 'City' }, floor: 'de', position: { kind: 'geo', lat: middle, lng: 10.45 } },
      ],
      { floors: [{ key: 'de', name: 'Germany', drawing: { kind: 'attachment', name: 'germany.svg' }, size: { width: 598, height: 598 }, geo }] },
    ), options);
    const after = applied(document, result.edits);
    expect(after.layers.find((l) => l.name === 'Germany')!.file).toBeNull();
    const [region, city] = ['Region', 'City'].map((title) => after.locations.find((l) => l.title === title)!.position!);
    expect(region).toEqual({ x: 600, y: 400 });
    expect(Math.abs(city!.x - region!.x)).toBeLessThan(2);
    expect(Math.abs(city!.y - region!.y)).toBeLessThan(2);
    expect(result.preview.problems.some((p) => p.message.includes('germany.svg'))).toBe(true);
  });

  it('puts points with no calibrated floor on a geographic floor (the caller’s, or Web Mercator bounds around them), dropping none', () => {
    const document = mall();
    const points = plan([
      { row: 1, fields: { title: 'Berlin' }, position: { kind: 'geo', lat: 52.52, lng: 13.405 } },
      { row: 2, fields: { title: 'Paris' }, position: { kind: 'geo', lat: 48.857, lng: 2.352 } },
    ]);
    const fallback = planImport(document, points, options);
    const after = applied(document, fallback.edits);
    const floor = after.layers[2]!;
    expect(floor).toMatchObject({ name: 'Map', file: null, basemap: true, geo: { kind: 'bounds', projection: 'mercator' } });
    expect(after.locations.slice(1).every((l) => l.layer === floor.id && l.position !== null)).toBe(true);
    expect(after.locations[1]!.position!.x).toBeGreaterThan(after.locations[2]!.position!.x);
    expect(after.locations[1]!.position!.y).toBeLessThan(after.locations[2]!.position!.y);

    const world = { kind: 'd3' as const, projection: 'natural-earth-1' as const, scale: 200, translate: [600, 300] as [number, number] };
    const given = planImport(document, points, { ...options, geographicFloor: () => ({ key: 'world', name: 'World', drawing: { kind: 'generated', svg: '<svg/>', width: 1200, height: 600 }, geo: world }) });
    const placed = applied(document, given.edits);
    expect(placed.layers[2]).toMatchObject({ id: 'world', name: 'World', geo: world });
    expect(placed.locations[1]!.position).toEqual(projectToFloor(world, { width: 1200, height: 600 }, { lat: 52.52, lng: 13.405 }));
    expect(given.files).toEqual([{ layer: 'world', floorKey: 'world', drawing: { kind: 'generated', svg: '<svg/>', width: 1200, height: 600 }, existing: false }]);
    const stored = withStoredFiles(given.edits, new Map([['world', { kind: 'svg', url: '/files/BBBBBBBBBBBBBBBBBBBBBB', width: 1200, height: 600 }]]), given.files);
    expect(applied(document, stored).layers[2]!.file).toMatchObject({ url: '/files/BBBBBBBBBBBBBBBBBBBBBB' });
  });

  it('puts points on a street map’s empty basemap floor, fitted to them; a basemap floor with locations keeps its bounds and takes points anywhere (issue 29 item 5)', () => {
    const document = emptyMapDocument();
    const europe = { kind: 'bounds' as const, projection: 'mercator' as const, north: 72, south: 30, west: -40, east: 50 };
    document.layers = [{ id: 'map', name: 'Map', file: null, geo: europe, basemap: true }];
    document.settings = { ...document.settings, defaultLayer: 'map' };
    const texas = plan([
      { row: 1, fields: { title: 'Dallas' }, position: { kind: 'geo', lat: 32.78, lng: -96.8 } },
      { row: 2, fields: { title: 'Houston' }, position: { kind: 'geo', lat: 29.76, lng: -95.37 } },
    ]);
    const fitted = planImport(document, texas, options);
    const after = applied(document, fitted.edits);
    expect(after.layers).toHaveLength(1);
    const geo = after.layers[0]!.geo as typeof europe;
    expect(after.layers[0]).toMatchObject({ id: 'map', basemap: true });
    expect(geo.north).toBeLessThan(40);
    expect(geo.south).toBeGreaterThan(20);
    expect(fitted.edits).toContainEqual({ type: 'LayerCalibrated', id: 'map', geo });
    for (const location of after.locations) {
      expect(location.layer).toBe('map');
      expect(location.position!.x).toBeGreaterThan(0);
      expect(location.position!.x).toBeLessThan(after.settings.size.width);
      expect(location.position!.y).toBeGreaterThan(0);
      expect(location.position!.y).toBeLessThan(after.settings.size.height);
    }

    // With Dallas and Houston on it, Sydney goes on the same floor, the bounds as they are.
    const sydney = planImport(after, plan([{ row: 1, fields: { title: 'Sydney' }, position: { kind: 'geo', lat: -33.87, lng: 151.21 } }]), options);
    const later = applied(after, sydney.edits);
    expect(sydney.edits.some((edit) => edit.type === 'LayerCalibrated')).toBe(false);
    expect(later.layers).toHaveLength(1);
    expect(later.locations.at(-1)).toMatchObject({ title: 'Sydney', layer: 'map', position: projectToFloor(geo, after.settings.size, { lat: -33.87, lng: 151.21 }) });
  });

  it('puts a point with no floor named on the calibrated floor whose drawing it falls on, else on a geographic floor', () => {
    const document = mall();
    const geo = { kind: 'bounds' as const, projection: 'mercator' as const, north: 52.53, south: 52.51, west: 13.39, east: 13.42 };
    document.layers[0] = { ...document.layers[0]!, geo };
    const result = planImport(document, plan([
      { row: 1, fields: { title: 'In the mall' }, position: { kind: 'geo', lat: 52.52, lng: 13.4 } },
      { row: 2, fields: { title: 'Sydney' }, position: { kind: 'geo', lat: -33.87, lng: 151.21 } },
    ]), options);
    const after = applied(document, result.edits);
    expect(after.locations.slice(1).map((l) => l.layer)).toEqual(['ground', after.layers[2]!.id]);
    expect(after.locations[1]!.position).toEqual(projectToFloor(geo, { width: 2000, height: 1000 }, { lat: 52.52, lng: 13.4 }));
    expect(result.preview.counts).toMatchObject({ layers: 1, locations: 2, skipped: 0 });
  });

  it('links locations to regions by the file’s element, their id, or their title', () => {
    const document = mall();
    const regions = new Map([['shop-12', 'Shop 12'], ['de-by', 'DE-BY']]);
    const result = planImport(document, plan([
      { row: 1, id: 'de-by', fields: { title: 'Bavaria' } },
      { row: 2, fields: { title: 'Shop 12' } },
      { row: 3, fields: { title: 'Elsewhere' }, element: 'gate-3' },
      { row: 4, fields: { title: 'Nowhere' } },
    ]), { ...options, regionsOf: (floor) => (floor === 'ground' ? regions : null) });
    const after = applied(document, result.edits);
    expect(after.locations.slice(1).map((l) => l.element)).toEqual(['de-by', 'shop-12', 'gate-3', null]);
    expect(result.preview.counts.regionsLinked).toBe(3);
  });

  it('links a file’s code (a Mapplic location “01”) to the region a drawing holds as id="01", by its reference', () => {
    const document = mall();
    const regions = new Map([['id-01', 'Ain']]);
    const result = planImport(document, plan([{ row: 1, id: '01', fields: { title: 'Ain' } }]), { ...options, regionsOf: (floor) => (floor === 'ground' ? regions : null) });
    expect(applied(document, result.edits).locations[1]).toMatchObject({ id: '01', element: 'id-01' });
  });

  it('leaves out bad fields with a problem in plain words, refuses rows without a title, and lists at most 1,000 problems', () => {
    const document = emptyMapDocument();
    const rows = Array.from({ length: 1_200 }, (_, i) => ({ row: i + 2, fields: {} }));
    const result = planImport(document, plan([{ row: 1, fields: { title: 'Ok', link: 'javascript:alert(1)', zoom: 900 } }, ...rows]), options);
    expect(result.preview.counts).toMatchObject({ locations: 1, skipped: 1_200 });
    expect(result.preview.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(result.preview.problemCount).toBe(1_202);
    expect(result.preview.problems[0]).toEqual({ row: 1, field: 'link', message: 'The link “javascript:alert(1)” was left out: it must be an http(s) address or an uploaded file.' });
    expect(result.preview.problems[1]!.message).toBe('The zoom “900” was left out: it must be a number from 0.1 to 64.');
    expect(result.preview.problems[2]).toEqual({ row: 2, field: 'title', message: 'Row 2 has no title: fill in its name, or choose the column that holds names.' });
    expect(applied(document, result.edits).locations[0]).toMatchObject({ title: 'Ok', link: null, zoom: null });
  });

  it('counts what the parser left out (a feature without geometry, a line) with the rows it leaves out itself', () => {
    const result = planImport(emptyMapDocument(), { ...plan([{ row: 1, fields: { title: 'Here' } }, { row: 4, fields: {} }]), leftOut: 2 }, options);
    expect(result.preview.counts).toMatchObject({ locations: 1, skipped: 3 });
  });

  it('records a big file as import events of 5,000 locations each, the first with the new floors and groups', () => {
    const document = emptyMapDocument();
    const rows = Array.from({ length: 12_001 }, (_, i) => ({ row: i + 1, fields: { title: `Store ${i}` }, floor: 'Annex', groups: ['Retail'], position: { kind: 'pixel' as const, x: i, y: i } }));
    const result = planImport(document, plan(rows), options);
    // The new map's empty starter floor gives way to the file's "Annex", after the import's events.
    expect(result.edits.map((e) => e.type)).toEqual(['ImportApplied', 'ImportApplied', 'ImportApplied', 'LayerRemoved']);
    const chunks = result.edits.filter((e) => e.type === 'ImportApplied');
    expect(chunks.map((c) => [c.layers.length, c.groups.length, c.locations.length])).toEqual([[1, 1, IMPORT_CHUNK], [0, 0, IMPORT_CHUNK], [0, 0, 2_001]]);
    expect(chunks[0]!.source).toEqual({ format: 'csv', name: 'test.csv', mapping: { title: 'title' } });
    const after = applied(document, result.edits);
    expect(after.locations).toHaveLength(12_001);
    expect(new Set(after.locations.map((l) => l.id)).size).toBe(12_001);
  });

  it('brings a Mapfold document in place of the map as one DocumentImported edit, or says what is wrong with it', () => {
    const document = mall();
    const next = { ...emptyMapDocument(), locations: [{ id: 'x', title: 'X', layer: 'ground' }] };
    const result = planImport(document, plan([], { format: 'mapfold', replaces: next, mapping: null }), options);
    expect(result.edits).toHaveLength(1);
    expect(result.edits[0]!.type).toBe('DocumentImported');
    expect(result.preview).toMatchObject({ replaces: true, counts: { layers: 1, locations: 1 } });
    const broken = planImport(document, plan([], { format: 'mapfold', replaces: { ...next, locations: [{ id: 'x', title: 'X', layer: 'nope' }] }, mapping: null }), options);
    expect(broken.edits).toEqual([]);
    expect(broken.preview.problems[0]!.message).toMatch(/^The map in the file cannot be used: locations.0.layer names a layer that does not exist: nope\./);
  });
});
