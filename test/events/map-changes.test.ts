/**
 * What changed between the published document and the current one (events/map-changes.ts):
 * locations, floors and groups added, changed and removed by id, path records counted, the
 * settings, and nothing for the same document or one whose keys come back in another order.
 */
import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../../events/map-changes.js';
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
      { kind: 'floor', change: 'changed', id: 'ground', name: 'Street level' },
      { kind: 'floor', change: 'added', id: 'roof', name: 'Roof' },
      { kind: 'floor', change: 'removed', id: 'first', name: 'First floor' },
      { kind: 'group', change: 'removed', id: 'food', name: 'Food' },
      { kind: 'location', change: 'changed', id: 'cafe', name: 'Tea Room' },
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
});
