/**
 * A basemap floor's regions read from its drawing (client/src/components/map/basemap-regions.ts,
 * basemap-svg-path.ts; issue 29 item 1): SVG shapes to outlines in the floor's units (paths with
 * curves and arcs, polygons, rects, circles, uses, transforms, the viewBox), outer rings and
 * holes, GeoJSON in longitude and latitude for MapLibre, and each region's look as the canvas
 * gives it. And the round trip of the real US states file imported into a street map: the
 * server's drawing (server/import/basemap-drawing.ts) read back here puts Austin in Texas.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FloorGeo } from '../../client/src/components/map/basemap-floor';
import { drawingLines, lineFeatures, outlineAt, outlinePoint, pickableOutlines, regionFeatures, regionLook, regionOutlines, viewBoxMatrix } from '../../client/src/components/map/basemap-regions';
import { arcPoints, insideRing, parseTransform, pathRings, polygonsOf, ringArea, type Ring } from '../../client/src/components/map/basemap-svg-path';
import { REGION_TINT, tint } from '../../events/colour-tint';
import { LOCATION_DEFAULTS } from '../../events/compact-locations';
import { elementIdFor } from '../../events/element-id';
import { mercatorBoundsFor } from '../../events/basemap-bounds';
import { defaultRegionStyles, defaultSettings, emptyMapDocument, type Location, type MapDocument } from '../../events/map-document';
import { parseGeoJson } from '../../server/import/geojson';

const svgOf = (markup: string) => {
  const template = document.createElement('template');
  template.innerHTML = markup;
  return template.content.querySelector('svg')!;
};
const near = (a: number[], b: number[], within = 1e-6) => a.every((value, i) => Math.abs(value - b[i]!) < within);

describe('SVG path data as rings', () => {
  it('reads absolute and relative lines, H and V, implicit lines after a move, and closes each subpath', () => {
    expect(pathRings('M0,0L10,0L10,10L0,10Z')).toEqual([[[0, 0], [10, 0], [10, 10], [0, 10]]]);
    expect(pathRings('m0 0 h10 v10 h-10 z m20 0 10 0 0 5 -10 0z')).toEqual([
      [[0, 0], [10, 0], [10, 10], [0, 10]],
      [[20, 0], [30, 0], [30, 5], [20, 5]],
    ]);
    // d3's compact form, numbers run together.
    expect(pathRings('M1.5.5L3-2L-1-1Z')).toEqual([[[1.5, 0.5], [3, -2], [-1, -1]]]);
  });

  it('flattens curves through their end points and arcs round their centre', () => {
    const [curve] = pathRings('M0 0C0 10 10 10 10 0Q5 -5 0 0z');
    expect(curve!.length).toBeGreaterThan(10);
    expect(curve).toContainEqual([10, 0]);
    // A circle of radius 5 about (5, 0) drawn as two arcs with compact flags.
    const [circle] = pathRings('M0 0a5 5 0 1010 0A5 5 0 0 1 0 0z');
    expect(circle!.length).toBeGreaterThan(8);
    for (const [x, y] of circle!) expect(Math.hypot(x - 5, y)).toBeCloseTo(5, 6);
    expect(arcPoints([0, 0], [0, 0], 5, 5, 0, false, true)).toEqual([[0, 0]]);
  });

  it('keeps what it read before bad data, as a browser draws it', () => {
    expect(pathRings('M0 0L10 0L10 10Lx')).toEqual([[[0, 0], [10, 0], [10, 10]]]);
  });

  it('nests rings as a fill does: a hole in an outer ring, an island in the hole its own polygon', () => {
    const square = (x: number, size: number): Ring => [[x, x], [x + size, x], [x + size, x + size], [x, x + size]];
    const polygons = polygonsOf([square(4, 2), square(0, 10), square(2, 6)]);
    expect(polygons).toEqual([[square(0, 10), square(2, 6)], [square(4, 2)]]);
    expect(insideRing([5, 5], square(4, 2))).toBe(true);
    expect(Math.abs(ringArea(square(0, 10)))).toBe(100);
  });

  it('reads transforms in order', () => {
    expect(parseTransform('translate(10 20) scale(2)')).toEqual([2, 0, 0, 2, 10, 20]);
    const rotated = parseTransform('rotate(90 5 5)');
    expect(near([rotated[0], rotated[1], rotated[2], rotated[3], rotated[4], rotated[5]], [0, 1, -1, 0, 10, 0])).toBe(true);
  });
});

describe('a drawing’s regions as outlines on the floor', () => {
  it('finds each location’s element (an odd id as the import names it) with its transforms and the viewBox fitted into the floor', () => {
    const svg = svgOf(`<svg viewBox="0 0 50 50" width="50" height="50">
      <defs><rect id="kiosk" width="2" height="2"/></defs>
      <g transform="translate(10 0)">
        <path id="id-48" d="M0 0H10V10H0Z"/>
        <g id="campus"><rect x="20" y="0" width="5" height="5"/><circle cx="30" cy="30" r="2"/></g>
      </g>
      <use id="k1" href="#kiosk" x="40" y="40"/>
      <polygon id="tri" points="0,40 5,40 0,45"/>
    </svg>`);
    // The floor is 100 × 200: the 50 × 50 drawing scaled twice, centred down the middle.
    const outlines = regionOutlines(
      svg,
      [
        { id: 'texas', element: elementIdFor('48') },
        { id: 'campus', element: 'campus' },
        { id: 'kiosk', element: 'k1' },
        { id: 'tri', element: 'tri' },
        { id: 'gone', element: 'nowhere' },
      ],
      { width: 100, height: 200 },
    );
    expect([...outlines.keys()]).toEqual(['texas', 'campus', 'kiosk', 'tri']);
    expect(outlines.get('texas')!.box).toEqual({ minX: 20, minY: 50, maxX: 40, maxY: 70 });
    expect(outlines.get('campus')!.polygons).toHaveLength(2);
    expect(outlines.get('kiosk')!.box).toEqual({ minX: 80, minY: 130, maxX: 84, maxY: 134 });
    expect(outlines.get('tri')!.box).toEqual({ minX: 0, minY: 130, maxX: 10, maxY: 140 });
    expect(viewBoxMatrix(svgOf('<svg viewBox="0 0 10 10" preserveAspectRatio="none"></svg>'), { width: 20, height: 40 })).toEqual([2, 0, 0, 4, -0, -0]);
  });

  it('converts the outlines to GeoJSON polygons in longitude and latitude, closed, longitudes not wrapped past ±180', () => {
    const floor: FloorGeo = { geo: { kind: 'bounds', projection: 'mercator', north: 60, south: 10, west: -200, east: -60 }, size: { width: 1000, height: 500 } };
    expect(outlinePoint(floor, { x: 0, y: 0 })).toEqual([-200, 60]);
    expect(outlinePoint(floor, { x: 1000, y: 500 })).toEqual([-60, 10]);
    const outlines = new Map([['a', { polygons: [[[[0, 0], [1000, 0], [1000, 500]] as Ring]], box: { minX: 0, minY: 0, maxX: 1000, maxY: 500 } }]]);
    const look = { fill: '#eeeeee', hover: '#dddddd', active: '#cccccc', line: '#000000' };
    const { features } = regionFeatures(outlines, floor, new Map([['a', look]]));
    expect(features).toEqual([{ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[[[-200, 60], [-60, 60], [-60, 10], [-200, 60]]]] }, properties: { id: 'a', ...look } }]);
    // A region without a look (its location hidden) is not drawn.
    expect(regionFeatures(outlines, floor, new Map()).features).toEqual([]);
  });

  it('colours a region as the canvas does: its colour or its first group’s, tinted; else the map’s region styles', () => {
    const styles = defaultRegionStyles();
    const location = (patch: Partial<Location>) => ({ ...LOCATION_DEFAULTS, id: 'x', title: 'x', layer: 'map', groups: [], entrances: [], ...patch }) as Location;
    const groups = new Map([['south', '#dc2626']]);
    expect(regionLook(location({ groups: ['south'] }), groups, styles)).toEqual({ fill: tint('#dc2626', REGION_TINT.fill), hover: tint('#dc2626', REGION_TINT.hover), active: tint('#dc2626', REGION_TINT.active), line: '#dc2626' });
    expect(regionLook(location({ groups: ['south'], color: '#2563eb' }), groups, styles).line).toBe('#2563eb');
    expect(regionLook(location({}), groups, styles)).toMatchObject({ fill: styles.base, hover: styles.hover, active: styles.active });
  });
});

describe('the real US states file imported into a street map, read back on the basemap', () => {
  it('puts Austin inside Texas and Denver outside it, in longitude and latitude', () => {
    const size = defaultSettings().size;
    const base = emptyMapDocument();
    const street = { ...base, settings: { ...base.settings, defaultLayer: 'map' }, layers: [{ id: 'map', name: 'Map', file: null, geo: mercatorBoundsFor({ north: 80, south: -60, west: -180, east: 180 }, size), basemap: true }] } as MapDocument;
    const text = readFileSync('test/fixtures/realworld/geojson/us-states-geojson-vt.json', 'utf8');
    const plan = parseGeoJson({ bytes: Buffer.from(text), text, filename: 'us-states.json', contentType: '', attachments: new Map(), options: {}, rememberedMapping: null, document: street });
    const floor = plan.floors[0]!;
    if (floor.drawing?.kind !== 'generated' || floor.geo?.kind !== 'bounds') throw new Error('no drawing on the street map');
    const regions = plan.locations.map((location) => ({ id: location.id!, element: location.drawnRegion! }));
    const outlines = regionOutlines(svgOf(floor.drawing.svg), regions, size);
    expect(outlines.size).toBe(52);
    const looks = new Map(regions.map(({ id }) => [id, { fill: '#eeeeee', hover: '#dddddd', active: '#cccccc', line: '#000000' }]));
    const { features } = regionFeatures(outlines, { geo: floor.geo, size }, looks);
    const texas = features.find((feature) => feature.properties.id === '48')!;
    const inTexas = ([lng, lat]: [number, number]) => texas.geometry.coordinates.some(([outer]) => insideRing([lng, lat], outer as Ring));
    expect(inTexas([-97.74, 30.27])).toBe(true);
    expect(inTexas([-104.99, 39.74])).toBe(false);
    // Alaska stays west of the rest, not thrown across the world.
    const alaska = features.find((feature) => feature.properties.id === '02')!;
    const lngs = alaska.geometry.coordinates.flat(2).map(([lng]) => lng!);
    expect(Math.min(...lngs)).toBeLessThan(-180);
    expect(Math.max(...lngs)).toBeLessThan(-129);
  });
});

describe('a drawing’s lines on a street map (an imported route)', () => {
  it('reads the lines group’s paths (two points are a line), polylines and lines through their transforms, and nothing else', () => {
    const svg = svgOf(`<svg viewBox="0 0 50 50" width="50" height="50">
      <g id="regions"><path id="r1" d="M0 0H10V10H0Z"/></g>
      <g id="lines" transform="translate(10 0)">
        <path d="M0 0L5 5M10 10L20 10L20 20"/>
        <polyline points="0,40 5,40 5,45"/>
        <line x1="1" y1="2" x2="3" y2="4" transform="translate(0 10)"/>
      </g>
    </svg>`);
    // The floor is 100 × 200: the 50 × 50 drawing scaled twice, 50 down.
    const lines = drawingLines(svg, { width: 100, height: 200 });
    expect(lines).toEqual([
      [[20, 50], [30, 60]],
      [[40, 70], [60, 70], [60, 90]],
      [[20, 130], [30, 130], [30, 140]],
      [[22, 74], [26, 78]],
    ]);
    expect(drawingLines(svgOf('<svg viewBox="0 0 10 10"><path d="M0 0L5 5"/></svg>'), { width: 10, height: 10 })).toEqual([]);
  });

  it('a line imported into a street map comes back at its longitudes and latitudes', () => {
    const size = defaultSettings().size;
    const base = emptyMapDocument();
    const street = { ...base, settings: { ...base.settings, defaultLayer: 'map' }, layers: [{ id: 'map', name: 'Map', file: null, geo: mercatorBoundsFor({ north: 80, south: -60, west: -180, east: 180 }, size), basemap: true }] } as MapDocument;
    const route = [[-96.8, 32.78], [-97.74, 30.27], [-95.37, 29.76]];
    const text = JSON.stringify({ type: 'Feature', properties: { name: 'Route' }, geometry: { type: 'LineString', coordinates: route } });
    const plan = parseGeoJson({ bytes: Buffer.from(text), text, filename: 'route.geojson', contentType: '', attachments: new Map(), options: {}, rememberedMapping: null, document: street });
    const floor = plan.floors[0]!;
    if (floor.drawing?.kind !== 'generated' || floor.geo?.kind !== 'bounds') throw new Error('no drawing on the street map');
    const { features } = lineFeatures(drawingLines(svgOf(floor.drawing.svg), size), { geo: floor.geo, size });
    expect(features).toHaveLength(1);
    const coordinates = features[0]!.geometry.coordinates;
    expect(coordinates).toHaveLength(3);
    // Within the drawing's rounding (a tenth of a floor unit).
    coordinates.forEach((point, i) => expect(near(point, route[i]!, 0.02), `${JSON.stringify(point)} for ${JSON.stringify(route[i])}`).toBe(true));
  });
});

describe('the regions the editor’s placing may link on a street map', () => {
  it('offers the drawing’s regions no location stands for, not the linked ones, layers or the background, and finds the smallest under a point', () => {
    const svg = svgOf(
      '<svg viewBox="0 0 100 100"><g id="layer"><rect id="sea" width="100" height="100"/><rect id="kansas" x="10" y="10" width="40" height="20"/><rect id="wichita" x="20" y="15" width="5" height="5"/><rect id="texas" x="10" y="40" width="40" height="40"/></g></svg>',
    );
    const outlines = pickableOutlines(svg, new Set(['texas']), { width: 100, height: 100 });
    expect([...outlines.keys()].sort()).toEqual(['kansas', 'wichita']);
    expect(outlineAt(outlines, { x: 30, y: 12 })).toBe('kansas');
    expect(outlineAt(outlines, { x: 22, y: 17 })).toBe('wichita');
    expect(outlineAt(outlines, { x: 30, y: 50 })).toBeNull();
    expect(outlineAt(outlines, { x: 90, y: 90 })).toBeNull();
  });
});
