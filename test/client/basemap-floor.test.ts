/**
 * A floor on a street basemap, the pure parts of its MapLibre view (client/src/components/map/
 * basemap-floor.ts, is-basemap-floor.ts): which floors lie on the basemap, the floor's units as
 * longitude and latitude and back, and the GeoJSON of its markers (hidden and filtered-out
 * locations left out, colours as the canvas gives them).
 */
import { describe, expect, it } from 'vitest';
import { floorBounds, floorSizeOf, markerFeatures, toFloor, toLngLat, type FloorGeo } from '../../client/src/components/map/basemap-floor';
import { isBasemapFloor } from '../../client/src/components/map/is-basemap-floor';
import { colorOf } from '../../client/src/components/map/marker-colour';
import { LOCATION_DEFAULTS } from '../../events/compact-locations';
import { emptyMapDocument, type Layer, type Location } from '../../events/map-document';

/** Texas, on a 1000 × 800 floor. */
const texas: FloorGeo = { geo: { kind: 'bounds', projection: 'mercator', north: 36.5, south: 25.8, west: -106.7, east: -93.5 }, size: { width: 1000, height: 800 } };
const layer: Layer = { id: 'tx', name: 'Texas', file: null, geo: texas.geo, basemap: true };

function location(id: string, patch: Partial<Location> = {}): Location {
  return { ...LOCATION_DEFAULTS, id, title: id, layer: 'tx', groups: [], entrances: [], position: { x: 500, y: 400 }, ...patch } as Location;
}

describe('a floor on the basemap', () => {
  it('is a floor flagged so on Web Mercator bounds; any other calibration is drawn on its own', () => {
    expect(isBasemapFloor(layer)).toBe(true);
    expect(isBasemapFloor({ ...layer, basemap: undefined })).toBe(false);
    expect(isBasemapFloor({ ...layer, geo: { ...texas.geo, projection: 'equirectangular' } })).toBe(false);
    expect(isBasemapFloor({ ...layer, geo: { kind: 'd3', projection: 'mercator', scale: 100, translate: [0, 0] } })).toBe(false);
    expect(isBasemapFloor({ ...layer, geo: undefined })).toBe(false);
  });

  it('has its drawing’s size, else the document’s', () => {
    const doc = { ...emptyMapDocument(), settings: { ...emptyMapDocument().settings, size: { width: 1000, height: 800 } } };
    expect(floorSizeOf(doc, layer)).toEqual({ width: 1000, height: 800 });
    expect(floorSizeOf(doc, { ...layer, file: { kind: 'svg', url: '/files/a.svg', width: 640, height: 480 } } as Layer)).toEqual({ width: 640, height: 480 });
  });

  it('puts its corners at its bounds and its points back where they were', () => {
    expect(toLngLat(texas, { x: 0, y: 0 })).toEqual([-106.7, expect.closeTo(36.5, 9)]);
    const [lng, lat] = toLngLat(texas, { x: 1000, y: 800 });
    expect(lng).toBeCloseTo(-93.5, 9);
    expect(lat).toBeCloseTo(25.8, 9);
    expect(floorBounds(texas)).toEqual([
      [-106.7, 25.8],
      [-93.5, 36.5],
    ]);
    // Dallas: through longitude and latitude and back.
    const dallas = toFloor(texas, -96.797, 32.7767)!;
    expect(dallas.x).toBeGreaterThan(0);
    expect(dallas.y).toBeGreaterThan(0);
    const [back, up] = toLngLat(texas, dallas);
    expect(back).toBeCloseTo(-96.797, 9);
    expect(up).toBeCloseTo(32.7767, 9);
  });

  it('is linear in Web Mercator: the middle of the floor is halfway in x, not in latitude', () => {
    const [lng, lat] = toLngLat(texas, { x: 500, y: 400 });
    expect(lng).toBeCloseTo(-100.1, 9);
    // Mercator stretches the north: the middle row lies north of the latitudes' middle.
    expect(lat).toBeGreaterThan((36.5 + 25.8) / 2 + 0.1);
  });
});

describe('the markers’ GeoJSON', () => {
  const groupColors = new Map([['coffee', '#16a34a']]);
  const colours = { groupColors, accent: '#2563eb' };
  const locations = [
    location('own', { color: '#dc2626', groups: ['coffee'] }),
    location('grouped', { groups: ['coffee'], marker: 'dot' }),
    location('plain', { marker: 'circle' }),
    location('hidden', { hidden: true }),
    location('no-marker', { marker: 'hidden' }),
    location('region', { position: null, element: 'r-1' } as Partial<Location>),
    location('upstairs', { layer: 'other' }),
  ];

  it('has a point per shown location of the floor, coloured as on the canvas', () => {
    const { features } = markerFeatures(locations, 'tx', texas, colours, null);
    expect(features.map((feature) => feature.properties)).toEqual([
      { id: 'own', color: '#dc2626', shape: 'pin' },
      { id: 'grouped', color: '#16a34a', shape: 'dot' },
      { id: 'plain', color: '#2563eb', shape: 'dot' },
    ]);
    for (const location of locations.slice(0, 3)) expect(features.find((f) => f.properties.id === location.id)!.properties.color).toBe(colorOf(location, groupColors, '#2563eb'));
    expect(features[0]!.geometry).toEqual({ type: 'Point', coordinates: toLngLat(texas, { x: 500, y: 400 }) });
  });

  it('leaves out what the filters do not let through', () => {
    const { features } = markerFeatures(locations, 'tx', texas, colours, new Set(['grouped', 'hidden', 'upstairs']));
    expect(features.map((feature) => feature.properties.id)).toEqual(['grouped']);
  });

  it('is built for 25,000 stores at once', () => {
    const many = Array.from({ length: 25_000 }, (_, index) => location(`s${index}`, { position: { x: index % 1000, y: (index * 7) % 800 } }));
    const started = performance.now();
    const { features } = markerFeatures(many, 'tx', texas, colours, null);
    expect(features).toHaveLength(25_000);
    // Well under the frame budget of a filter change on a quiet machine (a few ms a thousand); loose for a loaded one.
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
