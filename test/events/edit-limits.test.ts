/**
 * The document's limits checked edit by edit before anything is recorded (issue 26): a 100,001st
 * location, a 201st group, a location named twice in one removal, a calibration beyond Web
 * Mercator's poles; and path points removed in bulk in time linear in the network's size.
 */
import { describe, expect, it } from 'vitest';
import { isProjectableCalibration, projectToFloor } from '../../events/geo-calibration.js';
import { emptyMapDocument, Location, MAX_GROUPS, MAX_LOCATIONS, type MapDocument } from '../../events/map-document.js';
import { checkEdit } from '../../events/map-edits.js';
import { applyPathsEdit, type PathNetwork } from '../../events/path-network.js';

const location = (id: string): Location => Location.parse({ id, title: id, layer: 'ground' });

describe('edits against the document limits', () => {
  it(`refuses a location beyond ${MAX_LOCATIONS}`, () => {
    const full: MapDocument = { ...emptyMapDocument(), locations: Array.from({ length: MAX_LOCATIONS }, (_, i) => location(`l${i}`)) };
    expect(checkEdit(full, { type: 'LocationAdded', location: location('one-more') })).toBe(`location: a map has at most ${MAX_LOCATIONS} locations`);
    expect(checkEdit({ ...full, locations: full.locations.slice(1) }, { type: 'LocationAdded', location: location('one-more') })).toBeNull();
  });

  it(`refuses a group beyond ${MAX_GROUPS}`, () => {
    const groups = Array.from({ length: MAX_GROUPS }, (_, i) => ({ id: `g${i}`, name: `G${i}`, color: '#4f46e5', legend: true }));
    const edit = { type: 'GroupAdded', group: { id: 'extra', name: 'Extra', color: '#4f46e5', legend: true } } as const;
    expect(checkEdit({ ...emptyMapDocument(), groups }, edit)).toBe(`group: a map has at most ${MAX_GROUPS} groups`);
    expect(checkEdit({ ...emptyMapDocument(), groups: groups.slice(1) }, edit)).toBeNull();
  });

  it('refuses a removal naming one location twice', () => {
    const document: MapDocument = { ...emptyMapDocument(), locations: [location('a'), location('b')] };
    expect(checkEdit(document, { type: 'LocationsRemoved', ids: ['a', 'b', 'a'] })).toBe('ids.2: names the location a twice');
    expect(checkEdit(document, { type: 'LocationsRemoved', ids: ['a', 'b'] })).toBeNull();
  });

  it('refuses a Mercator calibration whose north and south are both beyond the poles’ cut, and never projects to NaN', () => {
    const polar = { kind: 'bounds', projection: 'mercator', north: 90, south: 86, west: 0, east: 10 } as const;
    expect(isProjectableCalibration(polar)).toBe(false);
    expect(checkEdit(emptyMapDocument(), { type: 'LayerCalibrated', id: 'ground', geo: polar })).toMatch(/^geo: must span some latitude/);
    expect(projectToFloor(polar, { width: 100, height: 100 }, { lat: 88, lng: 5 })).toBeNull();
    // North 90 with a south inside the limit is a legal calibration: the top edge is the cut.
    const legal = { ...polar, south: 0 };
    expect(isProjectableCalibration(legal)).toBe(true);
    expect(checkEdit(emptyMapDocument(), { type: 'LayerCalibrated', id: 'ground', geo: legal })).toBeNull();
  });
});

describe('removing path points in bulk', () => {
  /** A network whose nodes count how often they are read, to tell a scan per id from a lookup. */
  function countedNetwork(size: number): { network: PathNetwork; reads: () => number } {
    let reads = 0;
    const nodes = Array.from({ length: size }, (_, i) => ({ id: `n${i}`, layer: 'ground', x: i, y: 0 }));
    const counted = new Proxy(nodes, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    return { network: { nodes: counted, edges: [], connectors: [] }, reads: () => reads };
  }

  it('reads each point a bounded number of times, however many unknown ids are removed', () => {
    const size = 5_000;
    const { network, reads } = countedNetwork(size);
    const ids = Array.from({ length: 10_000 }, (_, i) => `unknown-${i}`);
    const result = applyPathsEdit(network, { type: 'PathsEdited', put: { nodes: [], edges: [], connectors: [] }, removed: { nodes: [...ids, 'n7'], edges: [], connectors: [] } });
    expect([...result.removedNodes]).toEqual(['n7']);
    expect(result.network.nodes).toHaveLength(size - 1);
    // A scan per removed id reads about 10,000 × 5,000 = 50 million; a lookup reads each a few times.
    expect(reads()).toBeLessThan(5 * size);
  });
});
