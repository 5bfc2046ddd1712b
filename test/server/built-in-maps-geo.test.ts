/**
 * The built-in maps are calibrated: a city's latitude/longitude, projected with the layer's
 * `geo`, lands inside its country's (or state's) drawn path, where d3 puts the source
 * coordinates, and back again. Checked against the source features too (geoContains), so a
 * wrong city coordinate cannot pass for a right projection.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { geoAlbersUsa, geoContains, geoNaturalEarth1 } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import { calibrateFromTwoPoints, floorToGeo, projectToFloor } from '../../events/geo-calibration.js';
import { builtInMap, builtInMapDocument } from '../../server/templates/built-in-maps.js';
import { distanceToRings, insideRings, pathD, ringsOf } from '../support/svg-paths.js';

/**
 * Inside the drawn path, or on its outline to the drawing's precision: the world is drawn
 * thinned to half a unit (about 15 km), so a coastal city may sit a fraction of a unit out.
 */
function onRegion(svg: string, id: string, point: { x: number; y: number }): boolean {
  const rings = ringsOf(pathD(svg, id)!);
  return insideRings(rings, [point.x, point.y]) || distanceToRings(rings, [point.x, point.y]) < 1;
}

const require = createRequire(import.meta.url);
function features(path: string, object: string): Feature<Geometry, { name: string }>[] {
  const topology = JSON.parse(readFileSync(require.resolve(path), 'utf8')) as Topology;
  return (feature(topology, topology.objects[object]!) as unknown as FeatureCollection<Geometry, { name: string }>).features;
}

const WORLD_CITIES = [
  { city: 'Paris', lat: 48.8566, lng: 2.3522, country: 'France' },
  { city: 'New York', lat: 40.7128, lng: -74.006, country: 'United States' },
  { city: 'Tokyo', lat: 35.6762, lng: 139.6503, country: 'Japan' },
  { city: 'Sydney', lat: -33.8688, lng: 151.2093, country: 'Australia' },
  { city: 'São Paulo', lat: -23.5505, lng: -46.6333, country: 'Brazil' },
];
const US_CITIES = [
  { city: 'Denver', lat: 39.7392, lng: -104.9903, state: 'Colorado' },
  { city: 'Miami', lat: 25.7617, lng: -80.1918, state: 'Florida' },
  { city: 'Anchorage', lat: 61.2181, lng: -149.9003, state: 'Alaska' },
  { city: 'Honolulu', lat: 21.3069, lng: -157.8583, state: 'Hawaii' },
];

describe('the built-in world map is calibrated', () => {
  const map = builtInMap('world');
  const document = builtInMapDocument(map, { kind: 'svg', url: '/files/world.svg', width: map.width, height: map.height });
  const layer = document.layers[0]!;
  const size = { width: map.width, height: map.height };
  const source = features('world-atlas/countries-50m.json', 'countries');

  it("carries the projection it is drawn with: Natural Earth fitted to the map's width", () => {
    expect(layer.geo).toEqual(map.geo);
    expect(layer.geo?.kind).toBe('d3');
    const fitted = geoNaturalEarth1().fitWidth(map.width, { type: 'Sphere' });
    expect(map.geo.scale).toBeCloseTo(fitted.scale(), 6);
    expect(map.geo.translate[0]).toBeCloseTo(fitted.translate()[0], 6);
    expect(map.geo.translate[1]).toBeCloseTo(fitted.translate()[1], 6);
  });

  it.each(WORLD_CITIES)('$city lands inside $country, where d3 puts it, and back', ({ lat, lng, country }) => {
    const region = map.regions.find((r) => r.name === country)!;
    expect(region, country).toBeDefined();
    // The coordinate is right: inside the source feature.
    const sourceFeature = source.find((f) => (f.properties.name === 'United States of America' ? 'United States' : f.properties.name) === country)!;
    // Within 0.05° of the source's outline: lower Manhattan's tip is sea at 1:50m.
    const near = [[0, 0], [0.05, 0.05], [0.05, -0.05], [-0.05, 0.05], [-0.05, -0.05]].some(([a, b]) => geoContains(sourceFeature, [lng + a!, lat + b!]));
    expect(near).toBe(true);

    const point = projectToFloor(layer.geo!, size, { lat, lng })!;
    const [dx, dy] = geoNaturalEarth1().fitWidth(map.width, { type: 'Sphere' })([lng, lat])!;
    expect(Math.hypot(point.x - dx, point.y - dy)).toBeLessThan(1);
    expect(point.x).toBeGreaterThan(0);
    expect(point.x).toBeLessThan(map.width);
    expect(onRegion(map.svg, region.id, point)).toBe(true);

    const back = floorToGeo(layer.geo!, size, point)!;
    expect(back.lat).toBeCloseTo(lat, 4);
    expect(back.lng).toBeCloseTo(lng, 4);
  });
});

describe('the built-in US map is calibrated', () => {
  const map = builtInMap('us-states');
  const document = builtInMapDocument(map, { kind: 'svg', url: '/files/us.svg', width: map.width, height: map.height });
  const layer = document.layers[0]!;
  const size = { width: map.width, height: map.height };
  const source = features('us-atlas/states-10m.json', 'states');

  it("carries us-atlas's projection, as its README gives it", () => {
    const readme = readFileSync(require.resolve('us-atlas/README.md'), 'utf8');
    expect(readme).toContain('d3.geoAlbersUsa().scale(1300).translate([487.5, 305])');
    expect(layer.geo).toEqual({ kind: 'd3', projection: 'albers-usa', scale: 1300, translate: [487.5, 305] });
  });

  it.each(US_CITIES)('$city lands inside $state, where d3 puts it, and back', ({ lat, lng, state }) => {
    const region = map.regions.find((r) => r.name === state)!;
    expect(region, state).toBeDefined();
    expect(geoContains(source.find((f) => f.properties.name === state)!, [lng, lat])).toBe(true);

    const point = projectToFloor(layer.geo!, size, { lat, lng })!;
    const [dx, dy] = geoAlbersUsa().scale(1300).translate([487.5, 305])([lng, lat])!;
    expect(Math.hypot(point.x - dx, point.y - dy)).toBeLessThan(1);
    expect(onRegion(map.svg, region.id, point)).toBe(true);

    const back = floorToGeo(layer.geo!, size, point)!;
    expect(back.lat).toBeCloseTo(lat, 3);
    expect(back.lng).toBeCloseTo(lng, 3);
  });

  it('has no place for a point outside the US (Albers USA projects none)', () => {
    expect(projectToFloor(layer.geo!, size, { lat: 48.8566, lng: 2.3522 })).toBeNull();
  });
});

describe('two pinned points calibrate a plan', () => {
  it('puts both places where they were pinned, and others in between', () => {
    const size = { width: 1000, height: 800 };
    const first = { point: { x: 100, y: 100 }, place: { lat: 51.51, lng: -0.14 } };
    const second = { point: { x: 900, y: 700 }, place: { lat: 51.49, lng: -0.1 } };
    for (const projection of ['mercator', 'equirectangular'] as const) {
      const result = calibrateFromTwoPoints(size, first, second, projection);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      for (const pin of [first, second]) {
        const point = projectToFloor(result.geo, size, pin.place)!;
        expect(Math.hypot(point.x - pin.point.x, point.y - pin.point.y)).toBeLessThan(0.01);
        const back = floorToGeo(result.geo, size, pin.point)!;
        expect(back.lat).toBeCloseTo(pin.place.lat, 8);
        expect(back.lng).toBeCloseTo(pin.place.lng, 8);
      }
    }
  });

  it('refuses points the wrong way round or too close', () => {
    const size = { width: 1000, height: 800 };
    const first = { point: { x: 100, y: 100 }, place: { lat: 51.51, lng: -0.14 } };
    expect(calibrateFromTwoPoints(size, first, { point: { x: 100.5, y: 700 }, place: { lat: 51.49, lng: -0.1 } }).ok).toBe(false);
    expect(calibrateFromTwoPoints(size, first, { point: { x: 900, y: 700 }, place: { lat: 51.52, lng: -0.1 } }).ok).toBe(false);
  });
});
