/**
 * GeoJSON and KML imports, parser to plan, on real files (test/fixtures/import/geojson, kml;
 * SOURCES.md there) and on the whole world and every US state from the packages the built-in
 * maps are made from: every feature in is a location out, properties map to fields, polygons
 * are drawn one path each with their location inside, and points land where the projection of
 * their coordinates puts them; the basemap floor for points without a calibrated floor.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { geoContains } from 'd3-geo';
import type { FeatureCollection, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import { basemapFloorAround, mercatorBoundsFor } from '../../events/basemap-bounds.js';
import { LOCATION_DEFAULTS } from '../../events/compact-locations.js';
import { elementIdFor } from '../../events/element-id.js';
import { floorToGeo, projectToFloor } from '../../events/geo-calibration.js';
import { planImport } from '../../events/import-planner.js';
import { applyEdits } from '../../events/map-edit-inverse.js';
import { defaultRegionStyles, defaultSettings, MAP_DOCUMENT_VERSION, type MapDocument } from '../../events/map-document.js';
import { emptyPathNetwork } from '../../events/path-network.js';
import type { ImportPlan, PlannedFloor } from '../../events/map-import.js';
import { sanitizeSvg } from '../../server/files/sanitize-svg.js';
import { geographicFloor } from '../../server/import/geographic-floor.js';
import { parseGeoJson } from '../../server/import/geojson.js';
import type { ImportInput } from '../../server/import/import-input.js';
import { parseKml } from '../../server/import/kml.js';
import { builtInMap } from '../../server/templates/built-in-maps.js';
import { distanceToRings, insideRings, pathD, ringsOf } from '../support/svg-paths.js';

const require = createRequire(import.meta.url);
const fixtures = path.join(import.meta.dirname, '../fixtures/import');
const fixture = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');

const blank: MapDocument = {
  version: MAP_DOCUMENT_VERSION,
  settings: defaultSettings(),
  layers: [{ id: 'main', name: 'Main', file: null }],
  locations: [],
  groups: [],
  styles: { regions: defaultRegionStyles() },
  paths: emptyPathNetwork(),
};

function input(text: string, filename: string, overrides: Partial<ImportInput> = {}): ImportInput {
  return {
    bytes: Buffer.from(text),
    text,
    filename,
    contentType: '',
    attachments: new Map(),
    options: {},
    rememberedMapping: null,
    document: blank,
    ...overrides,
  };
}

function packageFeatures(file: string, object: string): FeatureCollection<Geometry, { name: string }> {
  const topology = JSON.parse(readFileSync(require.resolve(file), 'utf8')) as Topology;
  return feature(topology, topology.objects[object]!) as unknown as FeatureCollection<Geometry, { name: string }>;
}

/** The drawn floor of a plan, with its drawing. */
function drawnFloor(plan: ImportPlan): PlannedFloor & { drawing: { kind: 'generated'; svg: string; width: number; height: number } } {
  expect(plan.floors).toHaveLength(1);
  const floor = plan.floors[0]!;
  expect(floor.drawing?.kind).toBe('generated');
  return floor as never;
}

/** Every region's location: its path is drawn, and its position is inside the path (or on its outline). */
function expectRegionsDrawn(plan: ImportPlan) {
  const floor = drawnFloor(plan);
  const svg = floor.drawing.svg;
  const ids = [...svg.matchAll(/<path id="([^"]+)" data-name/g)].map((m) => m[1]);
  const regions = plan.locations.filter((l) => l.drawnRegion);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.sort()).toEqual(regions.map((l) => l.drawnRegion!).sort());
  for (const location of regions) {
    // The file's id kept for the location; its path's id the valid SVG id made from it.
    expect(location.drawnRegion).toBe(elementIdFor(location.id!));
    expect(location.floor).toBe(floor.key);
    expect(location.position?.kind).toBe('pixel');
    const { x, y } = location.position as { x: number; y: number };
    const rings = ringsOf(pathD(svg, location.drawnRegion!)!);
    expect(insideRings(rings, [x, y]) || distanceToRings(rings, [x, y]) < 3, `${location.fields.title} at ${x},${y}`).toBe(true);
  }
  // The drawing passes the upload sanitiser unchanged in substance: every region survives.
  const sanitised = sanitizeSvg(svg).svg;
  for (const id of ids) expect(sanitised).toContain(`id="${id}"`);
}

describe('GeoJSON: Natural Earth countries', () => {
  it('reads the real file (its first 4 countries): a region each, every property a column, NAME the title', () => {
    const text = fixture('geojson/ne_110m_admin_0_countries-first4.geojson');
    const source = JSON.parse(text) as FeatureCollection;
    const plan = parseGeoJson(input(text, 'ne_110m_admin_0_countries.geojson'));
    expect(plan.format).toBe('geojson');
    expect(plan.locations).toHaveLength(4);
    expect(plan.locations.map((l) => l.fields.title)).toEqual(['Afghanistan', 'Angola', 'Albania', 'United Arab Emirates']);
    expect(plan.mapping?.title).toBe('NAME');
    const keys = Object.keys(source.features[0]!.properties!);
    expect([...plan.columns.used, ...plan.columns.ignored].sort()).toEqual(keys.sort());
    expect(plan.columns.used).toContain('NAME');
    expect(plan.problems).toEqual([]);
    expectRegionsDrawn(plan);
    // A region spanning Afghanistan to Angola is drawn in Mercator, fitted to them.
    expect(drawnFloor(plan).geo).toMatchObject({ kind: 'd3', projection: 'mercator' });
  });

  it('draws the whole world (177 countries) in Natural Earth, each country its path, its location inside', () => {
    const world = packageFeatures('world-atlas/countries-110m.json', 'countries');
    const text = JSON.stringify(world);
    const plan = parseGeoJson(input(text, 'countries-110m.geojson'));
    expect(plan.locations).toHaveLength(world.features.length);
    expect(plan.locations.every((l) => l.drawnRegion)).toBe(true);
    const floor = drawnFloor(plan);
    expect(floor.geo).toMatchObject({ kind: 'd3', projection: 'natural-earth-1' });
    expectRegionsDrawn(plan);

    // Known cities: projected with the floor's calibration, inside their country's drawn path.
    const cities = [
      { name: 'France', lat: 48.8566, lng: 2.3522 },
      { name: 'Japan', lat: 35.6762, lng: 139.6503 },
      { name: 'Australia', lat: -33.8688, lng: 151.2093 },
      { name: 'Brazil', lat: -23.5505, lng: -46.6333 },
      { name: 'United States of America', lat: 39.7392, lng: -104.9903 },
    ];
    for (const city of cities) {
      const location = plan.locations.find((l) => l.fields.title === city.name)!;
      expect(geoContains(world.features.find((f) => f.properties.name === city.name)!, [city.lng, city.lat])).toBe(true);
      const point = projectToFloor(floor.geo!, floor.drawing, city)!;
      const rings = ringsOf(pathD(floor.drawing.svg, location.drawnRegion!)!);
      expect(insideRings(rings, [point.x, point.y]) || distanceToRings(rings, [point.x, point.y]) < 1, city.name).toBe(true);
      const back = floorToGeo(floor.geo!, floor.drawing, point)!;
      expect(back.lat).toBeCloseTo(city.lat, 4);
      expect(back.lng).toBeCloseTo(city.lng, 4);
    }
  });

  it('reads polygons wound either way (RFC 7946 anticlockwise, d3 clockwise) as the same country', () => {
    const text = fixture('geojson/ne_110m_admin_0_countries-first4.geojson');
    const reversed = JSON.parse(text) as FeatureCollection<Geometry>;
    for (const f of reversed.features) {
      if (f.geometry.type === 'Polygon') f.geometry.coordinates = f.geometry.coordinates.map((ring) => [...ring].reverse());
      if (f.geometry.type === 'MultiPolygon') f.geometry.coordinates = f.geometry.coordinates.map((p) => p.map((ring) => [...ring].reverse()));
    }
    const a = parseGeoJson(input(text, 'a.geojson'));
    const b = parseGeoJson(input(JSON.stringify(reversed), 'b.geojson'));
    expect(b.locations.map((l) => l.position)).toEqual(a.locations.map((l) => l.position));
    expect(drawnFloor(b).drawing.height).toBe(drawnFloor(a).drawing.height);
  });
});

describe('GeoJSON: US states', () => {
  it('reads the real Leaflet choropleth file: id kept, name the title, fill the colour, density ignored', () => {
    const plan = parseGeoJson(input(fixture('geojson/us-states-publicamundi-first1.json'), 'us-states.json'));
    expect(plan.locations).toHaveLength(1);
    const [alabama] = plan.locations;
    expect(alabama).toMatchObject({ id: '01', fields: { title: 'Alabama', color: '#00ff00' }, drawnRegion: 'id-01' });
    expect(plan.columns).toEqual({ used: ['name', 'fill'], ignored: ['density'] });
    expectRegionsDrawn(plan);
  });

  it('draws every state (us-atlas, 56 with DC and the territories) in Albers USA, Alaska and Hawaii inset', () => {
    const states = packageFeatures('us-atlas/states-10m.json', 'states');
    // The territories outside Albers USA's insets (Guam, Puerto Rico…) are a problem each, not a silent loss.
    const plan = parseGeoJson(input(JSON.stringify(states), 'states.geojson'));
    expect(plan.locations).toHaveLength(states.features.length);
    const floor = drawnFloor(plan);
    const drawnStates = plan.locations.filter((l) => l.drawnRegion);
    const undrawn = plan.locations.filter((l) => !l.drawnRegion).map((l) => l.fields.title);
    expect(plan.problems.map((p) => p.message).every((m) => /could not be drawn/.test(m))).toBe(true);
    expect(plan.problems).toHaveLength(undrawn.length);
    expect(undrawn.every((name) => !['Alaska', 'Hawaii', 'Colorado', 'Florida'].includes(name!))).toBe(true);
    expect(drawnStates.length).toBeGreaterThanOrEqual(51);
    if (floor.geo?.kind === 'd3' && floor.geo.projection === 'albers-usa') {
      for (const city of [
        { state: 'Colorado', lat: 39.7392, lng: -104.9903 },
        { state: 'Florida', lat: 25.7617, lng: -80.1918 },
        { state: 'Alaska', lat: 61.2181, lng: -149.9003 },
        { state: 'Hawaii', lat: 21.3069, lng: -157.8583 },
      ]) {
        const location = plan.locations.find((l) => l.fields.title === city.state)!;
        const point = projectToFloor(floor.geo, floor.drawing, city)!;
        const rings = ringsOf(pathD(floor.drawing.svg, location.drawnRegion!)!);
        expect(insideRings(rings, [point.x, point.y]) || distanceToRings(rings, [point.x, point.y]) < 1, city.state).toBe(true);
      }
    } else {
      throw new Error(`expected Albers USA, got ${JSON.stringify(floor.geo)}`);
    }
    // Only the regions that could be drawn are checked for their path.
    expectRegionsDrawn({ ...plan, locations: drawnStates });
  });
});

describe('GeoJSON: campus points of interest', () => {
  const text = fixture('geojson/ucsc-campus-cafes.geojson');

  it('makes a located location per point, fields mapped, every property a column', () => {
    const source = JSON.parse(text) as FeatureCollection;
    const plan = parseGeoJson(input(text, 'cafes.geojson'));
    expect(plan.floors).toEqual([]);
    expect(plan.locations).toHaveLength(source.features.length);
    plan.locations.forEach((location, i) => {
      const [lng, lat] = (source.features[i]!.geometry as { coordinates: number[] }).coordinates;
      expect(location.position).toEqual({ kind: 'geo', lat, lng });
      expect(location.floor).toBeNull();
      expect(location.fields.title).toBe(source.features[i]!.properties!.name);
      expect(location.fields.color).toBe('#ff9933');
    });
    expect(plan.mapping).toMatchObject({ title: 'name', color: 'marker-color', id: '@id' });
    const keys = new Set(source.features.flatMap((f) => Object.keys(f.properties!)));
    expect(new Set([...plan.columns.used, ...plan.columns.ignored])).toEqual(keys);
    // A house number and street are parts of an address, not a floor or a level.
    expect(plan.locations.every((l) => l.floor === null)).toBe(true);
  });

  it('a mapping the user gives is used instead of the guess', () => {
    const plan = parseGeoJson(input(text, 'cafes.geojson', { options: { columns: { title: 'name', groups: 'wheelchair' } } }));
    expect(plan.mapping).toEqual({ title: 'name', groups: 'wheelchair' });
    expect(plan.locations[0]!.groups).toEqual(['yes']);
    expect(plan.groups.map((g) => g.name)).toEqual(['yes', 'limited']);
    expect(plan.locations[0]!.fields.color).toBeUndefined();
  });

  it('lands on a basemap floor fitted to the campus, each café within a pixel of its projection', () => {
    const plan = parseGeoJson(input(text, 'cafes.geojson'));
    const points = plan.locations.map((l) => l.position as { lat: number; lng: number });
    const size = { width: 1200, height: 800 };
    const floor = basemapFloorAround(points, size);
    expect(floor).toMatchObject({ key: 'geographic', name: 'Map', drawing: null, size, basemap: true, geo: { kind: 'bounds', projection: 'mercator' } });
    for (const p of points) {
      const at = projectToFloor(floor.geo!, size, p)!;
      expect(at.x).toBeGreaterThan(0);
      expect(at.x).toBeLessThan(size.width);
      expect(at.y).toBeGreaterThan(0);
      expect(at.y).toBeLessThan(size.height);
      const back = floorToGeo(floor.geo!, size, at)!;
      expect(Math.abs(back.lat - p.lat) + Math.abs(back.lng - p.lng)).toBeLessThan(1e-6);
    }
    // The campus (under a kilometre) fills the floor, not a corner: the floor shows about a kilometre around it at least.
    const xs = points.map((p) => projectToFloor(floor.geo!, size, p)!.x);
    const ys = points.map((p) => projectToFloor(floor.geo!, size, p)!.y);
    expect(Math.max((Math.max(...xs) - Math.min(...xs)) / size.width, (Math.max(...ys) - Math.min(...ys)) / size.height)).toBeGreaterThan(0.4);
  });
});

const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));

describe('the basemap floor for points no floor places (issue 29 item 5)', () => {
  const size = { width: 1200, height: 800 };
  /** Floor units across per unit down, on the ground: 1 when the bounds have the floor's proportions. */
  const isotropy = (geo: { north: number; south: number; west: number; east: number }) =>
    (((geo.east - geo.west) * Math.PI) / 180 / size.width) / ((mercatorY(geo.north) - mercatorY(geo.south)) / size.height);

  it('fits points all over the world within Web Mercator, in the map’s proportions', () => {
    const points = [
      { lat: 48.8566, lng: 2.3522 },
      { lat: 40.7128, lng: -74.006 },
      { lat: 35.6762, lng: 139.6503 },
      { lat: -33.8688, lng: 151.2093 },
      { lat: -23.5505, lng: -46.6333 },
    ];
    const floor = basemapFloorAround(points, size);
    const geo = floor.geo as { north: number; south: number; west: number; east: number };
    expect(geo.north).toBeLessThanOrEqual(85);
    expect(geo.south).toBeGreaterThanOrEqual(-85);
    expect(Math.abs(isotropy(geo) - 1)).toBeLessThan(0.01);
    for (const p of points) {
      const at = projectToFloor(floor.geo!, size, p)!;
      expect(at.x).toBeGreaterThan(0);
      expect(at.x).toBeLessThan(size.width);
      expect(at.y).toBeGreaterThan(0);
      expect(at.y).toBeLessThan(size.height);
    }
  });

  it('stays within one world, never across the antimeridian (Fiji and Samoa: the Pacific between)', () => {
    const fiji = { lat: -18.14, lng: 178.44 };
    const samoa = { lat: -13.83, lng: -171.76 };
    const floor = basemapFloorAround([fiji, samoa], size);
    for (const p of [fiji, samoa]) {
      const at = projectToFloor(floor.geo!, size, p)!;
      expect(at.x).toBeGreaterThan(0);
      expect(at.x).toBeLessThan(size.width);
    }
    expect(projectToFloor(floor.geo!, size, samoa)!.x).toBeLessThan(projectToFloor(floor.geo!, size, fiji)!.x);
  });

  it('the server’s floor is that basemap floor, or the built-in world map when a point lies nearer a pole than Web Mercator reaches', () => {
    const stores = [{ lat: 32.78, lng: -96.8 }, { lat: 29.76, lng: -95.37 }];
    expect(geographicFloor(stores, size)).toEqual(basemapFloorAround(stores, size));
    const world = builtInMap('world');
    expect(geographicFloor([...stores, { lat: 89.9, lng: 0 }], size)).toMatchObject({ key: world.layer.id, geo: world.geo, drawing: { kind: 'generated', svg: world.svg } });
  });

  it('a single point gets about a kilometre around it, in the middle', () => {
    const floor = basemapFloorAround([{ lat: 51.5007, lng: -0.1246 }], size);
    const at = projectToFloor(floor.geo!, size, { lat: 51.5007, lng: -0.1246 })!;
    expect(Math.abs(at.x - size.width / 2)).toBeLessThan(2);
    expect(Math.abs(at.y - size.height / 2)).toBeLessThan(2);
    const corner = floorToGeo(floor.geo!, size, { x: 0, y: 0 })!;
    const km = Math.abs(corner.lng + 0.1246) * 111 * Math.cos((51.5 * Math.PI) / 180);
    expect(km).toBeGreaterThan(0.2);
    expect(km).toBeLessThan(5);
    expect(Math.abs(isotropy(floor.geo as never) - 1)).toBeLessThan(0.01);
  });
});

describe('KML', () => {
  it('reads a real store list (placemarks straight under <kml>): names, descriptions, places', () => {
    const plan = parseKml(input(fixture('kml/first2015-stores.kml'), 'stores.kml'));
    expect(plan.format).toBe('kml');
    expect(plan.locations.map((l) => l.fields.title)).toEqual(['InterContinental Berlin', 'KaDeWe']);
    expect(plan.locations[0]!.position).toEqual({ kind: 'geo', lat: 52.50733495, lng: 13.3451447636067 });
    expect(plan.locations[0]!.fields.description).toMatch(/^Attached to the ground/);
    expect(plan.columns).toEqual({ used: ['name', 'description'], ignored: [] });
  });

  // A My Maps export's shape: styles by id and style map, ExtendedData, HTML descriptions, a folder, a shape and a route.
  const myMaps = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Our stores</name>
<Style id="icon-1686-A52714-nodesc-normal"><IconStyle><color>ff1427a5</color><scale>1</scale></IconStyle></Style>
<StyleMap id="icon-1686-A52714-nodesc"><Pair><key>normal</key><styleUrl>#icon-1686-A52714-nodesc-normal</styleUrl></Pair></StyleMap>
<Style id="poly-0288D1"><LineStyle><color>ffd18802</color></LineStyle><PolyStyle><color>4dd18802</color></PolyStyle></Style>
<Folder><name>Stores</name>
<Placemark><name><![CDATA[John's Sporting Goods]]></name><description><![CDATA[<b>Open</b> daily]]></description><styleUrl>#icon-1686-A52714-nodesc</styleUrl>
<ExtendedData><Data name="Phone"><value>+1 425 555 0100</value></Data><Data name="Category"><value>Outdoor; Fishing</value></Data><Data name="Website"><value>https://example.com/johns</value></Data></ExtendedData>
<Point><coordinates>
        -122.2008239,47.9918257,0
      </coordinates></Point></Placemark>
<Placemark><name><![CDATA[Triangle Bait & Tackle]]></name><styleUrl>#icon-1686-A52714-nodesc</styleUrl>
<ExtendedData><Data name="Phone"><value>+1 425 555 0101</value></Data><Data name="Category"><value>Fishing</value></Data></ExtendedData>
<Point><coordinates>-122.0891923,47.9126187,0</coordinates></Point></Placemark>
<Placemark><name>Delivery area</name><styleUrl>#poly-0288D1</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>-122.25,47.95 -122.05,47.95 -122.05,48.02 -122.25,48.02 -122.25,47.95</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
<Placemark><name>Van route</name><LineString><coordinates>-122.2008239,47.9918257 -122.0891923,47.9126187</coordinates></LineString></Placemark>
</Folder></Document></kml>`;

  it('maps ExtendedData to fields, the style colour to the colour, and draws the shape and the route', () => {
    const plan = parseKml(input(myMaps, 'Our stores.kml'));
    expect(plan.locations.map((l) => l.fields.title)).toEqual(["John's Sporting Goods", 'Triangle Bait & Tackle', 'Delivery area']);
    const [johns, triangle, area] = plan.locations;
    expect(johns).toMatchObject({
      fields: { phone: '+1 425 555 0100', link: 'https://example.com/johns', color: '#a52714', description: '<b>Open</b> daily' },
      groups: ['Outdoor', 'Fishing'],
      position: { kind: 'geo', lat: 47.9918257, lng: -122.2008239 },
    });
    expect(triangle!.groups).toEqual(['Fishing']);
    expect(area).toMatchObject({ fields: { color: '#0288d1' }, drawnRegion: 'delivery-area', floor: 'kml' });
    expect(plan.groups.map((g) => g.name)).toEqual(['Outdoor', 'Fishing']);
    expect(plan.columns.used.sort()).toEqual(['Category', 'Phone', 'Website', 'color', 'description', 'name']);
    // The points go on the drawn floor with the shape (the floor shows them all), the route is drawn, not a location.
    const floor = drawnFloor(plan);
    expect(floor.name).toBe('Our stores');
    expect(johns!.floor).toBe('kml');
    expect(floor.drawing.svg).toMatch(/<g id="lines"[^>]*>\n<path d="M/);
    for (const location of [johns!, triangle!]) {
      const { lat, lng } = location.position as { lat: number; lng: number };
      const at = projectToFloor(floor.geo!, floor.drawing, { lat, lng })!;
      expect(at.x).toBeGreaterThan(0);
      expect(at.x).toBeLessThan(floor.drawing.width);
    }
    expectRegionsDrawn(plan);
  });

  it('refuses what is not KML in words, saying what to do', () => {
    expect(() => parseKml(input('<kml><Document>', 'cut.kml'))).toThrow(/read as KML placemarks, but .*Export it again/);
    expect(() => parseKml(input('<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY a "aaaa">]><kml/>', 'e.kml'))).toThrow(/entities/);
    expect(() => parseKml(input('<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>', 'empty.kml'))).toThrow(/no placemarks/);
  });
});

describe('GeoJSON refusals and problems', () => {
  it('says what is wrong and what to do', () => {
    expect(() => parseGeoJson(input('{"type":"FeatureCollection","features":[', 'cut.geojson'))).toThrow(/read as GeoJSON, but it is not valid JSON.*Export it again/);
    expect(() => parseGeoJson(input('{"type":"FeatureCollection","features":[]}', 'empty.geojson'))).toThrow(/holds no features/);
    expect(() =>
      parseGeoJson(input(JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [-13627361, 4547675] } }] }), 'mercator.geojson')),
    ).toThrow(/not longitudes and latitudes.*EPSG:4326/);
  });

  it('keeps the rest of the file when a feature has no geometry, saying which', () => {
    const plan = parseGeoJson(
      input(
        JSON.stringify([
          { type: 'Feature', properties: { name: 'Here' }, geometry: { type: 'Point', coordinates: [2.35, 48.85] } },
          { type: 'Feature', properties: { name: 'Nowhere' }, geometry: null },
          { type: 'Feature', properties: { name: 'Route' }, geometry: { type: 'LineString', coordinates: [[2.35, 48.85], [2.36, 48.86]] } },
        ]),
        'mixed.geojson',
      ),
    );
    expect(plan.locations.map((l) => l.fields.title)).toEqual(['Here']);
    expect(plan.problems.map((p) => [p.row, p.message])).toEqual([
      [2, 'Feature 2 (Nowhere) has no geometry and no address (no place on the map), so it was left out.'],
      [3, 'Route is a line (a route or a boundary): it is drawn on the map, but a line is not a location, so none was made for it.'],
    ]);
    // Both counted as left out, so the preview's locations and skipped add up to the file's 3 features.
    expect(plan.leftOut).toBe(2);
    expect(drawnFloor(plan).drawing.svg).toContain('<g id="lines"');
  });

  it('brings a placemark with only an <address> in unplaced, as a table row with an address and no coordinates', () => {
    const kml = `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Hotels</name>
      <Placemark><name>Lub d - Bangkok Siam</name><address>925/9 Rama 1 Rd., Pathum Wan, Bangkok 10330, Thailand</address></Placemark>
      <Placemark><address>Huai Khwang, Bangkok, Thailand</address></Placemark>
      <Placemark><name>Bang Kapi</name><Point><coordinates>100.5915072,13.749176,0</coordinates></Point></Placemark>
      <Placemark><name>Walking</name><address></address><Point><coordinates></coordinates></Point></Placemark>
    </Document></kml>`;
    const plan = parseKml(input(kml, 'hotels.kml'));
    expect(plan.locations.map((l) => [l.row, l.fields.title, l.fields.about, l.position])).toEqual([
      [1, 'Lub d - Bangkok Siam', '925/9 Rama 1 Rd., Pathum Wan, Bangkok 10330, Thailand', null],
      [2, 'Huai Khwang, Bangkok, Thailand', 'Huai Khwang, Bangkok, Thailand', null],
      [3, 'Bang Kapi', undefined, { kind: 'geo', lat: 13.749176, lng: 100.5915072 }],
    ]);
    // The address, for geocoding on import to place them by.
    expect(plan.locations[1]!.address).toEqual({ street: 'Huai Khwang, Bangkok, Thailand', city: '', state: '', postcode: '', country: '' });
    expect(plan.leftOut).toBe(1);
    expect(plan.problems.map((p) => [p.row, p.message])).toEqual([
      [4, 'Feature 4 (Walking) has no geometry and no address (no place on the map), so it was left out.'],
      [null, '2 features have an address but no coordinates: placed by their address where the geocoder knows it, else brought in without a position, to be placed on the map by hand.'],
    ]);
  });

  it('reads a MultiPoint as a location per point, and a bare geometry', () => {
    const plan = parseGeoJson(input(JSON.stringify({ type: 'Feature', id: 'kiosks', properties: { title: 'Kiosk' }, geometry: { type: 'MultiPoint', coordinates: [[2.35, 48.85], [2.36, 48.86]] } }), 'k.geojson'));
    expect(plan.locations.map((l) => [l.id, l.fields.title])).toEqual([['kiosks', 'Kiosk (1)'], ['kiosks-2', 'Kiosk (2)']]);
    const bare = parseGeoJson(input('{"type":"Point","coordinates":[2.35,48.85]}', 'p.geojson'));
    expect(bare.locations[0]).toMatchObject({ fields: { title: 'Point 1' }, position: { kind: 'geo', lat: 48.85, lng: 2.35 } });
  });
});


describe('polygons imported into a street map (issue 29 item 1: regions on a basemap floor)', () => {
  const size = defaultSettings().size;
  /** A new street map (the new-map page's): one floor on the basemap over the world, nothing on it. */
  const street: MapDocument = {
    ...blank,
    settings: { ...blank.settings, defaultLayer: 'map' },
    layers: [{ id: 'map', name: 'Map', file: null, geo: mercatorBoundsFor({ north: 80, south: -60, west: -180, east: 180 }, size), basemap: true }],
  };
  const states = readFileSync(path.join(import.meta.dirname, '../fixtures/realworld/geojson/us-states-geojson-vt.json'), 'utf8');
  const AUSTIN = { lat: 30.27, lng: -97.74 };
  const DENVER = { lat: 39.74, lng: -104.99 };

  it('draws the real US states file in the street map floor’s own units, its bounds fitted to them, each state’s location inside its path', () => {
    const plan = parseGeoJson(input(states, 'us-states.json', { document: street }));
    const floor = drawnFloor(plan);
    // The street map's floor itself, still on the basemap, at its size.
    expect(floor).toMatchObject({ key: 'map', name: 'Map', basemap: true, geo: { kind: 'bounds', projection: 'mercator' }, drawing: { width: size.width, height: size.height } });
    const geo = floor.geo as { north: number; south: number; west: number; east: number };
    // Alaska's Aleutians (written west of -180) to Maine, Hawaii and Puerto Rico to Alaska's north: not across the world.
    expect(geo.west).toBeLessThan(-188);
    expect(geo.east).toBeGreaterThan(-66);
    expect(geo.east - geo.west).toBeLessThan(200);
    expect(geo.south).toBeLessThan(17.9);
    expect(geo.north).toBeGreaterThan(71);
    expect(plan.locations).toHaveLength(52);
    expectRegionsDrawn(plan);
    // The drawing has no background: the basemap is the floor's.
    expect(floor.drawing.svg).not.toMatch(/<rect|id="sphere"/);
    // Austin falls inside Texas's path where the floor's calibration puts it; Denver does not.
    const texas = ringsOf(pathD(floor.drawing.svg, elementIdFor('48'))!);
    const at = (place: { lat: number; lng: number }) => { const p = projectToFloor(floor.geo!, size, place)!; return [p.x, p.y] as [number, number]; };
    expect(insideRings(texas, at(AUSTIN))).toBe(true);
    expect(insideRings(texas, at(DENVER))).toBe(false);
  });

  it('plans the drawing onto that floor (no floor of its own), its bounds recorded, the states linked to their paths', () => {
    const plan = parseGeoJson(input(states, 'us-states.json', { document: street }));
    const floor = drawnFloor(plan);
    const planned = planImport(street, plan, { sourceName: 'us-states.json' });
    expect(planned.files).toEqual([expect.objectContaining({ layer: 'map', existing: true })]);
    const { document } = applyEdits(street, planned.edits);
    expect(document.layers).toEqual([expect.objectContaining({ id: 'map', basemap: true, geo: floor.geo })]);
    const texas = document.locations.find((location) => location.title === 'Texas')!;
    expect(texas).toMatchObject({ layer: 'map', element: elementIdFor('48'), marker: 'hidden' });
    expect(document.locations.every((location) => location.layer === 'map' && location.element)).toBe(true);
  });

  it('keeps the bounds of a street map that has locations; a drawn floor, or a street map with a drawing, gets a drawn floor of its own as before', () => {
    const busy: MapDocument = { ...street, locations: [{ ...LOCATION_DEFAULTS, id: 'hq', title: 'HQ', layer: 'map', groups: [], entrances: [], position: { x: 10, y: 10 } } as MapDocument['locations'][number]] };
    const kept = drawnFloor(parseGeoJson(input(states, 'us-states.json', { document: busy })));
    expect(kept).toMatchObject({ key: 'map', basemap: true, geo: street.layers[0]!.geo });
    const drawn = drawnFloor(parseGeoJson(input(states, 'us-states.json')));
    expect(drawn.key).toBe('geojson');
    expect(drawn.basemap).toBeUndefined();
    const withDrawing: MapDocument = { ...street, layers: [{ ...street.layers[0]!, file: { kind: 'svg', url: '/files/a.svg', width: size.width, height: size.height } }] };
    expect(drawnFloor(parseGeoJson(input(states, 'us-states.json', { document: withDrawing }))).key).toBe('geojson');
  });
});
