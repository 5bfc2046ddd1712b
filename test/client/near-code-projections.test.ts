/**
 * The store locator's code converts a street map's floors (Web Mercator bounds) itself, and a
 * floor drawn in a d3 projection once the drawn projections' code is loaded beside it
 * (store-locator/load-near-code.ts): a street map's page fetches no d3-geo (issue 29).
 */
import { describe, expect, it } from 'vitest';
import { loadNearCode, needsDrawnProjections } from '../../client/src/features/viewer/store-locator/load-near-code';
import { floorToGeo } from '../../events/geo-calibration';
import { defaultRegionStyles, defaultSettings, type GeoCalibration, type MapDocument } from '../../events/map-document';
import { location } from './support/locations';

const MERCATOR: GeoCalibration = { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 };
const DRAWN: GeoCalibration = { kind: 'd3', projection: 'albers-usa', scale: 1300, translate: [487.5, 305] };

function doc(...geos: GeoCalibration[]): MapDocument {
  const settings = defaultSettings();
  return {
    version: 3,
    settings,
    layers: geos.map((geo, index) => ({ id: `f${index}`, name: `Floor ${index}`, file: null, geo })),
    groups: [],
    locations: geos.map((_, index) => location({ id: `s${index}`, title: `Store ${index}`, layer: `f${index}`, position: { x: 480, y: 300 } })),
    styles: { regions: defaultRegionStyles() },
    paths: { nodes: [], edges: [], connectors: [] },
  };
}

describe("the store locator's places", () => {
  it('asks for the drawn projections only where a floor is drawn in a d3 projection', () => {
    expect(needsDrawnProjections(doc(MERCATOR))).toBe(false);
    expect(needsDrawnProjections(doc(MERCATOR, DRAWN))).toBe(true);
  });

  it("places a street map's locations with the code alone, and a drawn floor's once the drawn projections are loaded", async () => {
    const map = doc(MERCATOR, DRAWN);
    const [onStreets, onDrawn] = map.locations;
    const size = map.settings.size;
    const code = await loadNearCode(false);
    expect(code.placeOfLocation(map)(onStreets!)).toEqual(floorToGeo(MERCATOR, size, onStreets!.position!));
    // Without the drawn projections, a d3 floor's location has no place (as an uncalibrated one), never a wrong one.
    expect(code.placeOfLocation(map)(onDrawn!)).toBeNull();
    const withDrawn = await loadNearCode(true);
    expect(withDrawn).toBe(code);
    expect(code.placeOfLocation(map)(onDrawn!)).toEqual(floorToGeo(DRAWN, size, onDrawn!.position!));
    expect(code.placeOfLocation(map)(onDrawn!)).not.toBeNull();
  });
});
