/** GeoJSON export: located locations of calibrated floors as Points at their latitude/longitude, their fields as properties. */
import { describe, expect, it } from 'vitest';
import { projectToFloor } from '../../events/geo-calibration.js';
import { splitGroupNames } from '../../events/group-list.js';
import { exportGeoJson } from '../../events/locations-geojson.js';
import { emptyMapDocument, MapDocument, type GeoCalibration } from '../../events/map-document.js';

const world: GeoCalibration = { kind: 'd3', projection: 'natural-earth-1', scale: 180, translate: [480, 250] };
const campus: GeoCalibration = { kind: 'bounds', projection: 'mercator', north: 51.7612, south: 51.7512, west: -1.2646, east: -1.2446 };
const size = { width: 960, height: 500 };
const paris = { lat: 48.8566, lng: 2.3522 };
const tokyo = { lat: 35.6762, lng: 139.6503 };
const library = { lat: 51.7543, lng: -1.2544 };

const document = MapDocument.parse({
  ...emptyMapDocument(),
  settings: { ...emptyMapDocument().settings, size, defaultLayer: 'world' },
  layers: [
    { id: 'world', name: 'World', geo: world },
    { id: 'campus', name: 'Campus', geo: campus, file: { kind: 'image', url: '/files/AAAAAAAAAAAAAAAAAAAAAA', width: 2000, height: 1500 } },
    { id: 'plan', name: 'Plan' },
  ],
  groups: [{ id: 'cities', name: 'Cities; capitals', color: '#ff0000' }],
  locations: [
    { id: 'paris', title: 'Paris', layer: 'world', position: projectToFloor(world, size, paris), groups: ['cities'], description: '<p>Hi</p>', zoom: 3, color: '#00ff00', hidden: true },
    { id: 'tokyo', title: 'Tokyo', layer: 'world', position: projectToFloor(world, size, tokyo), link: 'https://example.com/t', precision: 'postcode' },
    { id: 'bodleian', title: 'Bodleian', layer: 'campus', position: projectToFloor(campus, { width: 2000, height: 1500 }, library) },
    { id: 'unplaced', title: 'Nowhere yet', layer: 'world' },
    { id: 'shop', title: 'Shop', layer: 'plan', position: { x: 10, y: 10 } },
  ],
});

describe('GeoJSON export', () => {
  it('writes a Point at the place of each located location on a calibrated floor, in [lng, lat]', () => {
    const collection = exportGeoJson(document);
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features.map((f) => f.id)).toEqual(['paris', 'tokyo', 'bodleian']);
    const [p, t, b] = collection.features.map((f) => f.geometry.coordinates);
    expect(p![0]).toBeCloseTo(paris.lng, 5);
    expect(p![1]).toBeCloseTo(paris.lat, 5);
    expect(t![0]).toBeCloseTo(tokyo.lng, 5);
    expect(t![1]).toBeCloseTo(tokyo.lat, 5);
    // The campus drawing's own size, not the map's, places its points.
    expect(b![0]).toBeCloseTo(library.lng, 6);
    expect(b![1]).toBeCloseTo(library.lat, 6);
  });

  it('carries every field as properties, the floor and groups by name', () => {
    const [parisFeature, tokyoFeature] = exportGeoJson(document).features;
    expect(parisFeature!.properties).toEqual({
      id: 'paris', title: 'Paris', about: '', description: '<p>Hi</p>', floor: 'World', groups: '"Cities; capitals"',
      link: null, phone: '', hours: '', image: null, thumbnail: null, color: '#00ff00', marker: 'pin', label: '', zoom: 3, element: null, hidden: true, precision: null,
    });
    expect(splitGroupNames(parisFeature!.properties.groups)).toEqual(['Cities; capitals']);
    expect(tokyoFeature!.properties.link).toBe('https://example.com/t');
    // How a geocoded place was found goes with it (issue 29).
    expect(tokyoFeature!.properties.precision).toBe('postcode');
    // Plain JSON: what the route sends is what a reader parses.
    expect(JSON.parse(JSON.stringify(exportGeoJson(document)))).toEqual(exportGeoJson(document));
  });
});
