import { describe, expect, it } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { diffLocations, differenceSummary } from '../../client/src/features/editor/timeline/location-diff';

const at = (locations: Location[]): MapDocument => ({ ...emptyMapDocument(), locations });
const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 100, y: 100 } });
const bakery = Location.parse({ id: 'bakery', title: 'Bakery', layer: 'ground', position: { x: 300, y: 200 } });
const shop = Location.parse({ id: 'shop', title: 'Shop', layer: 'ground', position: null, element: 'shop-12' });

describe('diffLocations', () => {
  it('finds nothing between equal maps, whatever the key order', () => {
    const reordered = Object.fromEntries(Object.entries(cafe).reverse()) as Location;
    expect(diffLocations(at([cafe, shop]), at([reordered, shop]))).toEqual([]);
  });

  it('names added, removed, moved and changed locations, added last', () => {
    const then = at([cafe, bakery, shop]);
    const now = at([
      { ...cafe, position: { x: 120, y: 100 } },
      { ...shop, title: 'Shop 12' },
      Location.parse({ id: 'kiosk', title: 'Kiosk', layer: 'first', position: { x: 1, y: 2 } }),
    ]);
    expect(diffLocations(then, now)).toEqual([
      { id: 'cafe', title: 'Cafe', change: 'moved', layer: 'ground' },
      { id: 'bakery', title: 'Bakery', change: 'removed', layer: 'ground' },
      { id: 'shop', title: 'Shop', change: 'changed', layer: 'ground' },
      { id: 'kiosk', title: 'Kiosk', change: 'added', layer: 'first' },
    ]);
  });

  it('counts another floor, a region linked or a position dropped as a move', () => {
    const then = at([cafe, bakery, shop]);
    const now = at([{ ...cafe, layer: 'first' }, { ...bakery, position: null, element: 'b1' }, { ...shop, element: 'shop-13' }]);
    expect(diffLocations(then, now).map((difference) => difference.change)).toEqual(['moved', 'moved', 'moved']);
  });

  it('counts a moved location that also changed as moved', () => {
    expect(diffLocations(at([cafe]), at([{ ...cafe, title: 'Café', position: { x: 0, y: 0 } }]))).toEqual([{ id: 'cafe', title: 'Cafe', change: 'moved', layer: 'ground' }]);
  });
});

describe('differenceSummary', () => {
  it('says how many differ and names the first few', () => {
    expect(differenceSummary([])).toBe('The locations are the same as in the current map.');
    expect(differenceSummary([{ id: 'cafe', title: 'Cafe', change: 'moved', layer: 'ground' }])).toBe('1 location differs from the current map: Cafe (moved since).');
    const many = ['A', 'B', 'C', 'D', 'E'].map((title) => ({ id: title, title, change: 'changed' as const, layer: 'ground' }));
    expect(differenceSummary(many)).toBe('5 locations differ from the current map: A (changed since), B (changed since), C (changed since), and 2 more.');
  });
});
