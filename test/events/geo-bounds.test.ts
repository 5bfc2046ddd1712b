/**
 * events/geo-bounds.ts: a bounds floor's arithmetic without d3-geo (a street map's MapLibre view
 * converts through it, issue 29), the same as events/geo-calibration.ts gives for bounds floors.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundsToFloor, boundsToGeo, type BoundsCalibration } from '../../events/geo-bounds.js';
import { floorToGeo, projectToFloor } from '../../events/geo-calibration.js';

const size = { width: 1000, height: 800 };
const floors: BoundsCalibration[] = [
  { kind: 'bounds', projection: 'mercator', north: 33.2, south: 32.5, west: -97.6, east: -96.4 },
  { kind: 'bounds', projection: 'equirectangular', north: 60, south: 40, west: -10, east: 30 },
  // Across the antimeridian: east runs past 180.
  { kind: 'bounds', projection: 'mercator', north: -10, south: -25, west: 170, east: 200 },
];

describe('a bounds floor without d3-geo', () => {
  it('places and reads points as the calibration module does', () => {
    for (const geo of floors) {
      for (const point of [{ x: 0, y: 0 }, { x: 500, y: 400 }, { x: 1000, y: 800 }, { x: 137.5, y: 612.25 }]) {
        const place = boundsToGeo(geo, size, point);
        expect(place).toEqual(floorToGeo(geo, size, point));
        const back = boundsToFloor(geo, size, place!);
        expect(back).toEqual(projectToFloor(geo, size, place!));
        expect(back!.x).toBeCloseTo(point.x, 6);
        expect(back!.y).toBeCloseTo(point.y, 6);
      }
    }
  });

  it('gives no point for a place off the globe', () => {
    expect(boundsToFloor(floors[0]!, size, { lat: 91, lng: 0 })).toBeNull();
    expect(boundsToFloor(floors[0]!, size, { lat: Number.NaN, lng: 0 })).toBeNull();
  });

  it('imports nothing of d3', () => {
    expect(readFileSync(path.resolve(import.meta.dirname, '../../events/geo-bounds.ts'), 'utf8')).not.toMatch(/from 'd3/);
    for (const file of ['basemap-floor.ts', 'basemap-regions.ts']) {
      expect(readFileSync(path.resolve(import.meta.dirname, '../../client/src/components/map', file), 'utf8'), file).not.toMatch(/geo-calibration'/);
    }
  });
});
