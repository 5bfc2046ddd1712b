/**
 * A basemap floor's home view without one set (client/src/components/map/basemap-home.ts):
 * fitted to the floor's bounds where the view can hold them; where MapLibre shows them deeper (a
 * tall phone, a floor round the world: the world is kept at least as tall as the view), centred
 * on where most of the floor's points are, not on the middle of their bounds (the Atlantic).
 */
import { describe, expect, it } from 'vitest';
import type { FloorGeo } from '../../client/src/components/map/basemap-floor';
import { centreOnPoints, centringZoom, homeOnPoints, visibleSpan, worldFillingZoom } from '../../client/src/components/map/basemap-home';
import { boundsAround } from '../../events/basemap-bounds';
import { projectToFloor } from '../../events/geo-calibration';

const PHONE = { width: 375, height: 740 };

describe('how deep MapLibre shows a view', () => {
  it('keeps the world at least as tall as the view, and as wide', () => {
    expect(worldFillingZoom(PHONE)).toBeCloseTo(Math.log2(740 / 512), 9);
    expect(worldFillingZoom({ width: 1280, height: 800 })).toBeCloseTo(Math.log2(1280 / 512), 9);
  });

  it('shows a floor round the world partly: its units across and down in view', () => {
    const world: FloorGeo = { geo: { kind: 'bounds', projection: 'mercator', north: 85, south: -85, west: -180, east: 180 }, size: { width: 1000, height: 1000 } };
    // At the zoom where the world is 740 px across, 375 px show 375/740 of its width.
    const span = visibleSpan(world.geo, world.size, PHONE, worldFillingZoom(PHONE));
    expect(span.width).toBeCloseTo((375 / 740) * 1000, 6);
    expect(span.height).toBeGreaterThan(990);
  });

  it('goes deeper for a view centred away from the equator: MapLibre keeps the view inside the world', () => {
    expect(centringZoom([0, 0], PHONE)).toBeCloseTo(worldFillingZoom(PHONE), 9);
    // At 60° north the world's top is 0.29 of its height away: half the view (370 px) must fit there.
    const top = 0.5 - Math.log(Math.tan(Math.PI / 4 + Math.PI / 6)) / (2 * Math.PI);
    expect(centringZoom([0, 60], PHONE)).toBeCloseTo(Math.log2(370 / top / 512), 9);
    expect(centringZoom([120, 0], { width: 1280, height: 800 })).toBeCloseTo(Math.log2(640 / (60 / 360) / 512), 9);
  });
});

describe('centring on the points a view cannot hold together', () => {
  it('takes the median of the points in the window of the view’s size holding the most of them', () => {
    const points = [
      ...Array.from({ length: 30 }, (_, index) => ({ x: 100 + index, y: 500 })),
      ...Array.from({ length: 10 }, (_, index) => ({ x: 800 + index, y: 200 })),
    ];
    expect(centreOnPoints(points, { width: 1000, height: 1000 }, { width: 300, height: 2000 })).toEqual({ x: 115, y: 500 });
    // Down too, among the points of the window across (one far below them left out).
    expect(centreOnPoints([...points, { x: 110, y: 950 }], { width: 1000, height: 1000 }, { width: 300, height: 200 })).toEqual({ x: 114, y: 500 });
  });

  it('is the floor’s middle where the view holds it whole, or there are no points', () => {
    expect(centreOnPoints([{ x: 10, y: 10 }], { width: 1000, height: 800 }, { width: 1200, height: 900 })).toEqual({ x: 500, y: 400 });
    expect(centreOnPoints([], { width: 1000, height: 800 }, { width: 100, height: 100 })).toEqual({ x: 500, y: 400 });
  });
});

describe('a basemap floor’s home view', () => {
  const size = { width: 1200, height: 800 };
  // A chain round the world, most of its stores in the Americas: bounds from Hawaii to New Zealand.
  const places = [
    ...Array.from({ length: 60 }, (_, index) => ({ lat: 30 + (index % 15), lng: -120 + index })),
    ...Array.from({ length: 20 }, (_, index) => ({ lat: 48 + (index % 5), lng: 0 + index })),
    ...Array.from({ length: 15 }, (_, index) => ({ lat: 25 + (index % 10), lng: 110 + index })),
    { lat: 21.3, lng: -157.8 },
    { lat: -36.8, lng: 174.8 },
  ];
  const geo = boundsAround(places, size);
  const floor: FloorGeo = { geo, size };
  const points = places.map((place) => projectToFloor(geo, size, place)!);

  it('on a phone, is centred on the stores, not on the middle of their bounds', () => {
    // The bounds fitted to 375 px across would need zoom −1: deeper than MapLibre goes there.
    const home = homeOnPoints(floor, points, PHONE, -1)!;
    expect(home.zoom).toBeGreaterThanOrEqual(worldFillingZoom(PHONE));
    expect(home.zoom).toBeCloseTo(centringZoom(home.center, PHONE), 9);
    // Across: the median of Hawaii, the Americas and Europe (the most stores 375 px hold), an American store.
    expect(home.center[0]).toBeCloseTo(-81, 6);
    const span = visibleSpan(geo, size, PHONE, home.zoom);
    const centre = projectToFloor(geo, size, { lng: home.center[0], lat: home.center[1] })!;
    const inView = (x: number) => points.filter((point) => Math.abs(point.x - x) <= span.width / 2 && Math.abs(point.y - centre.y) <= span.height / 2).length;
    expect(inView(centre.x)).toBeGreaterThan(inView(size.width / 2));
  });

  it('is the bounds fitted where the view holds them (no other centre)', () => {
    expect(homeOnPoints(floor, points, { width: 1280, height: 800 }, 1.5)).toBeNull();
    const texas: FloorGeo = { geo: { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 }, size: { width: 1000, height: 800 } };
    expect(homeOnPoints(texas, [{ x: 500, y: 400 }], PHONE, 4.2)).toBeNull();
  });
});
