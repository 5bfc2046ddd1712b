/**
 * What changed between the published document and the current one (events/map-changes.ts):
 * locations, floors and groups added, changed and removed by id, path records counted, the
 * settings, and nothing for the same document or one whose keys come back in another order;
 * what changed in a changed record, in the words the review shows.
 */
import { describe, expect, it } from 'vitest';
import { detailWords, diffDocuments, type DocumentChange } from '../../events/map-changes.js';
import { emptyMapDocument, MapDocument } from '../../events/map-document.js';

const base = MapDocument.parse({
  ...emptyMapDocument(),
  layers: [{ id: 'ground', name: 'Ground floor', file: null }, { id: 'first', name: 'First floor', file: null }],
  groups: [{ id: 'food', name: 'Food', color: '#ea580c' }],
  locations: [
    { id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 1, y: 2 }, groups: ['food'] },
    { id: 'shop', title: 'Shop', layer: 'first', position: { x: 3, y: 4 } },
  ],
  paths: { nodes: [{ id: 'n1', layer: 'ground', x: 1, y: 1 }, { id: 'n2', layer: 'ground', x: 5, y: 1 }], edges: [{ id: 'e1', from: 'n1', to: 'n2' }], connectors: [] },
});

describe('diffDocuments', () => {
  it('finds nothing between a document and itself, or a copy with its keys in another order', () => {
    expect(diffDocuments(base, base)).toEqual({ changes: [], paths: { added: 0, changed: 0, removed: 0 }, settingsChanged: false, total: 0 });
    const reversed = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).reverse()) as T;
    const copy = { ...reversed(base), settings: reversed(base.settings), locations: base.locations.map(reversed), layers: base.layers.map(reversed) };
    expect(diffDocuments(base, copy).total).toBe(0);
  });

  it('names each location, floor and group added, changed or removed', () => {
    const after = MapDocument.parse({
      ...base,
      layers: [{ ...base.layers[0]!, name: 'Street level' }, { id: 'roof', name: 'Roof', file: null }],
      groups: [],
      locations: [
        { ...base.locations[0]!, groups: [], title: 'Tea Room' },
        { id: 'bank', title: 'Bank', layer: 'ground', position: { x: 9, y: 9 } },
      ],
    });
    const { changes, total } = diffDocuments(base, after);
    expect(changes).toEqual([
      { kind: 'floor', change: 'changed', id: 'ground', name: 'Street level', details: [{ field: 'renamed', from: 'Ground floor', to: 'Street level' }] },
      { kind: 'floor', change: 'added', id: 'roof', name: 'Roof' },
      { kind: 'floor', change: 'removed', id: 'first', name: 'First floor' },
      { kind: 'group', change: 'removed', id: 'food', name: 'Food' },
      {
        kind: 'location',
        change: 'changed',
        id: 'cafe',
        name: 'Tea Room',
        details: [
          { field: 'renamed', from: 'Café Noir', to: 'Tea Room' },
          { field: 'groups', added: [], removed: ['Food'] },
        ],
      },
      { kind: 'location', change: 'added', id: 'bank', name: 'Bank' },
      { kind: 'location', change: 'removed', id: 'shop', name: 'Shop' },
    ]);
    expect(total).toBe(7);
  });

  it('counts path points, links and connectors, and notices the settings', () => {
    const after = MapDocument.parse({
      ...base,
      settings: { ...base.settings, maxZoom: base.settings.maxZoom + 1 },
      paths: { nodes: [{ id: 'n1', layer: 'ground', x: 2, y: 1 }, { id: 'n3', layer: 'ground', x: 9, y: 9 }], edges: [], connectors: [] },
    });
    const result = diffDocuments(base, after);
    expect(result.paths).toEqual({ added: 1, changed: 1, removed: 2 });
    expect(result.settingsChanged).toBe(true);
    expect(result.changes.filter((c) => c.kind === 'path').map((c) => [c.change, c.name])).toEqual([
      ['added', '1 path record'],
      ['changed', '1 path record'],
      ['removed', '2 path records'],
    ]);
    expect(result.total).toBe(5);
  });

  describe('what changed in a record', () => {
    const wordsOf = (change: DocumentChange | undefined) => change?.details?.map(detailWords);
    const changedLocation = (edit: Partial<MapDocument['locations'][number]>, extra: Partial<MapDocument> = {}) => {
      const after = MapDocument.parse({ ...base, ...extra, locations: [{ ...base.locations[0]!, ...edit }, base.locations[1]!] });
      const { changes } = diffDocuments(base, after);
      expect(changes).toHaveLength(changes.filter((c) => c.kind !== 'location').length + 1);
      return changes.find((c) => c.kind === 'location');
    };

    it('says a location was hidden, shown again, moved on its floor or to another', () => {
      expect(wordsOf(changedLocation({ hidden: true }))).toEqual(['now hidden from visitors']);
      const hidden = MapDocument.parse({ ...base, locations: [{ ...base.locations[0]!, hidden: true }, base.locations[1]!] });
      expect(diffDocuments(hidden, base).changes.map((c) => c.details?.map(detailWords))).toEqual([['shown to visitors again']]);
      expect(wordsOf(changedLocation({ position: { x: 5, y: 2 } }))).toEqual(['moved']);
      // Another floor says which (its position there is part of that move).
      expect(wordsOf(changedLocation({ layer: 'first', position: { x: 7, y: 7 } }))).toEqual(['moved to floor “First floor”']);
      expect(wordsOf(changedLocation({ position: null }))).toEqual(['taken off the map']);
    });

    it('names the floor by its current name when it was renamed too', () => {
      const layers = [base.layers[0]!, { ...base.layers[1]!, name: 'Level 2' }];
      expect(wordsOf(changedLocation({ layer: 'first' }, { layers }))).toEqual(['moved to floor “Level 2”']);
    });

    it('says regions linked and unlinked, groups joined and left, and the other fields by name', () => {
      expect(wordsOf(changedLocation({ element: 'unit-12' }))).toEqual(['linked to region “unit-12”']);
      const linked = MapDocument.parse({ ...base, locations: [{ ...base.locations[0]!, element: 'unit-12' }, base.locations[1]!] });
      expect(diffDocuments(linked, base).changes[0]?.details?.map(detailWords)).toEqual(['unlinked from its region']);
      const groups = [...base.groups, { id: 'shops', name: 'Shops', color: '#2563eb', legend: true }];
      expect(wordsOf(changedLocation({ groups: ['shops'] }, { groups }))).toEqual(['added to “Shops”, taken out of “Food”']);
      expect(wordsOf(changedLocation({ description: '<p>New</p>', about: 'Short', hours: '9–5', image: 'https://example.com/a.png', color: '#000000' }))).toEqual([
        'recoloured',
        'summary changed',
        'description changed',
        'picture changed',
        'opening hours changed',
      ]);
      // The order of a location's groups is no change worth a line but is one in the record.
      const two = MapDocument.parse({ ...base, groups, locations: [{ ...base.locations[0]!, groups: ['food', 'shops'] }, base.locations[1]!] });
      const swapped = MapDocument.parse({ ...two, locations: [{ ...two.locations[0]!, groups: ['shops', 'food'] }, two.locations[1]!] });
      expect(diffDocuments(two, swapped).changes[0]?.details?.map(detailWords)).toEqual(['groups changed']);
    });

    it('says floors renamed, their drawing added, replaced or removed, and groups renamed, recoloured or left out of the legend', () => {
      const drawing = { kind: 'svg' as const, url: '/files/AAAAAAAAAAAAAAAAAAAAAA', width: 100, height: 100 };
      const drawn = MapDocument.parse({ ...base, layers: [{ ...base.layers[0]!, file: drawing }, base.layers[1]!] });
      expect(diffDocuments(base, drawn).changes[0]?.details?.map(detailWords)).toEqual(['drawing added']);
      expect(diffDocuments(drawn, base).changes[0]?.details?.map(detailWords)).toEqual(['drawing removed']);
      const redrawn = MapDocument.parse({ ...drawn, layers: [{ ...drawn.layers[0]!, name: 'Level 0', file: { ...drawing, url: '/files/BBBBBBBBBBBBBBBBBBBBBB' } }, base.layers[1]!] });
      expect(diffDocuments(drawn, redrawn).changes[0]?.details?.map(detailWords)).toEqual(['renamed “Ground floor” → “Level 0”', 'drawing replaced']);
      const regrouped = MapDocument.parse({ ...base, groups: [{ ...base.groups[0]!, name: 'Eat', color: '#16a34a', legend: false }] });
      expect(diffDocuments(base, regrouped).changes[0]?.details?.map(detailWords)).toEqual(['renamed “Food” → “Eat”', 'recoloured', 'left out of the legend']);
    });

    it('lists a few names and counts the rest', () => {
      const many = Array.from({ length: 5 }, (_, i) => ({ id: `g${i}`, name: `G${i}`, color: '#111111' }));
      expect(detailWords({ field: 'groups', added: many.map((g) => g.name), removed: [] })).toBe('added to “G0”, “G1”, “G2” and 2 more');
      expect(detailWords({ field: 'groups', added: ['A', 'B'], removed: [] })).toBe('added to “A” and “B”');
    });
  });
});
