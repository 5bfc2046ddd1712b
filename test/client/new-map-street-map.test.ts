import { describe, expect, it } from 'vitest';
import { MapDocument } from '../../events/map-document';
import { projectToFloor } from '../../events/geo-calibration';
import { documentForStreetMap, streetMapArea } from '../../client/src/features/new-map/starting-points';

const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));

describe('a street map (issue 29 item 5)', () => {
  it('is one floor on the street basemap: no drawing, Web Mercator bounds a writer takes', () => {
    const document = documentForStreetMap(streetMapArea('Europe/Berlin'));
    expect(document.layers).toHaveLength(1);
    const [floor] = document.layers;
    expect(floor).toMatchObject({ id: 'map', name: 'Map', file: null, basemap: true, geo: { kind: 'bounds', projection: 'mercator' } });
    expect(document.settings.defaultLayer).toBe('map');
    expect(MapDocument.safeParse(document).success).toBe(true);
  });

  it("widens the area to the map's proportions, so a unit across is as long as a unit down", () => {
    for (const zone of ['Europe/Paris', 'America/Chicago', 'America/Sao_Paulo', 'Asia/Tokyo', 'Australia/Sydney', 'Africa/Lagos', 'Etc/UTC', undefined]) {
      const document = documentForStreetMap(streetMapArea(zone));
      const geo = document.layers[0]!.geo as { north: number; south: number; west: number; east: number };
      const { width, height } = document.settings.size;
      const across = ((geo.east - geo.west) * Math.PI) / 180 / width;
      const down = (mercatorY(geo.north) - mercatorY(geo.south)) / height;
      expect(Math.abs(across / down - 1), zone).toBeLessThan(0.02);
      // The area asked for is all in view.
      const area = streetMapArea(zone);
      for (const corner of [{ lat: area.north, lng: area.west }, { lat: area.south, lng: area.east }]) {
        const at = projectToFloor(document.layers[0]!.geo!, { width, height }, corner)!;
        expect(at.x).toBeGreaterThanOrEqual(-1e-6);
        expect(at.x).toBeLessThanOrEqual(width + 1e-6);
        expect(at.y).toBeGreaterThanOrEqual(-1e-6);
        expect(at.y).toBeLessThanOrEqual(height + 1e-6);
      }
    }
  });

  it("opens on the visitor's part of the world, by their time zone; the world when it says nothing", () => {
    expect(streetMapArea('Europe/Berlin').name).toBe('Europe');
    expect(streetMapArea('America/New_York').name).toBe('North America');
    expect(streetMapArea('America/Argentina/Buenos_Aires').name).toBe('South America');
    expect(streetMapArea('America/Bogota').name).toBe('South America');
    expect(streetMapArea('Pacific/Auckland').name).toBe('Australia and New Zealand');
    expect(streetMapArea('Asia/Kolkata').name).toBe('Asia');
    expect(streetMapArea('UTC').name).toBe('the whole world');
    expect(streetMapArea(undefined).name).toBe('the whole world');
  });
});
