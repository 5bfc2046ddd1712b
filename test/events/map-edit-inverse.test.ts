import { describe, expect, it } from 'vitest';
import { emptyMapDocument, Group, Location, type MapDocument } from '../../events/map-document';
import { applyEdits } from '../../events/map-edit-inverse';
import type { MapEdit } from '../../events/map-edits';

const food = Group.parse({ id: 'food', name: 'Food', color: '#f97316' });
const given: MapDocument = {
  ...emptyMapDocument(),
  layers: [
    { id: 'ground', name: 'Ground floor', file: null },
    { id: 'first', name: 'First floor', file: { kind: 'image', url: '/files/plan', width: 800, height: 600 } },
  ],
  groups: [food],
  locations: [
    Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', groups: ['food'], position: { x: 1, y: 2 } }),
    Location.parse({ id: 'bank', title: 'Bank', layer: 'first' }),
  ],
};

// Given a document, when an edit is applied and then its inverse, then the document is as it was.
const cases: Array<[string, MapEdit]> = [
  ['LocationAdded', { type: 'LocationAdded', location: Location.parse({ id: 'shop', title: 'Shop', layer: 'ground' }) }],
  ['LocationUpdated', { type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café', about: 'Coffee', groups: [] } }],
  ['LocationMoved (placed)', { type: 'LocationMoved', id: 'cafe', position: { x: 9, y: 9 }, layer: 'first' }],
  ['LocationMoved (unplaced)', { type: 'LocationMoved', id: 'bank', position: { x: 9, y: 9 } }],
  ['LocationRemoved', { type: 'LocationRemoved', id: 'cafe' }],
  ['LayerAdded', { type: 'LayerAdded', layer: { id: 'roof', name: 'Roof', file: null } }],
  ['LayerRenamed', { type: 'LayerRenamed', id: 'first', name: 'Mezzanine' }],
  ['LayersReordered', { type: 'LayersReordered', order: ['first', 'ground'] }],
  ['LayerFileReplaced', { type: 'LayerFileReplaced', id: 'first', file: null }],
  ['LayerRemoved (the default, with a location)', { type: 'LayerRemoved', id: 'ground', removedLocations: [] }],
  ['GroupAdded', { type: 'GroupAdded', group: Group.parse({ id: 'shops', name: 'Shops', color: '#0ea5e9' }) }],
  ['GroupUpdated', { type: 'GroupUpdated', id: 'food', changes: { name: 'Dining', legend: false } }],
  ['GroupRemoved', { type: 'GroupRemoved', id: 'food' }],
  ['SettingsChanged', { type: 'SettingsChanged', settings: { ...given.settings, maxZoom: 12 } }],
  ['RegionStylesChanged', { type: 'RegionStylesChanged', regions: { base: '#000000', hover: '#111111', active: '#222222' } }],
  ['DocumentImported', { type: 'DocumentImported', document: emptyMapDocument() }],
];

/** Order-insensitive for the lists an undo may rebuild in another order. */
const normalised = (document: MapDocument) => ({ ...document, locations: [...document.locations].sort((a, b) => a.id.localeCompare(b.id)) });

describe('invertEdit', () => {
  it.each(cases)('%s, then its inverse, gives the document back', (_name, edit) => {
    const done = applyEdits(given, [edit]);
    expect(done.applied).toHaveLength(1);
    expect(done.document).not.toEqual(given);
    const undone = applyEdits(done.document, done.inverse);
    expect(normalised(undone.document)).toEqual(normalised(given));
  });

  it('a batch is undone in reverse order', () => {
    const edits: MapEdit[] = [
      { type: 'GroupAdded', group: Group.parse({ id: 'shops', name: 'Shops', color: '#0ea5e9' }) },
      { type: 'LocationUpdated', id: 'bank', changes: { groups: ['shops'] } },
      { type: 'LocationRemoved', id: 'bank' },
    ];
    const done = applyEdits(given, edits);
    expect(done.applied).toHaveLength(3);
    expect(normalised(applyEdits(done.document, done.inverse).document)).toEqual(normalised(given));
  });

  it('skips edits that no longer fit, and applies the rest', () => {
    const done = applyEdits(given, [{ type: 'LocationRemoved', id: 'nowhere' }, { type: 'LayerRenamed', id: 'ground', name: 'Lobby' }]);
    expect(done.applied).toEqual([{ type: 'LayerRenamed', id: 'ground', name: 'Lobby' }]);
  });
});
