/** Editing a map, given / when / then: fine-grained edit events, checked against the document. */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../events/errors.js';
import { decideMap, evolveMap, initialMapState, MapEvent, type MapEvent as MapEventType } from '../../events/map.js';
import { emptyMapDocument, Location } from '../../events/map-document.js';
import { applyEdit, MapEdit } from '../../events/map-edits.js';
import type { Principal } from '../../events/principal.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const ana: Principal = { uid: 'ana', email: 'a@example.com', emailVerified: true, displayName: 'Ana', admin: false, stripeRole: null };
const ben: Principal = { ...ana, uid: 'ben' };
const root: Principal = { ...ana, uid: 'root', admin: true };

const created: MapEventType = {
  type: 'MapCreated',
  data: { mapId: 'm1', uid: 'ana', author: 'ana', title: 'Mall', state: 0, document: emptyMapDocument(), created: '2026-11-20T09:00:00.000Z' },
};
const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 10, y: 20 } });

function edit(past: MapEventType[], edits: unknown[], principal: Principal = ana) {
  const state = past.reduce(evolveMap, initialMapState);
  return decideMap({ type: 'EditMap', data: { mapId: 'm1', edits: edits.map((e) => MapEdit.parse(e)) } }, state, { principal, now: NOW, testMapsInUse: 0 });
}

function refused(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('editing a map', () => {
  it('records each edit under its own name, with the map and the edit time', () => {
    const events = edit([created], [{ type: 'LocationAdded', location: cafe }]);
    expect(events).toEqual([{ type: 'LocationAdded', data: { location: cafe, mapId: 'm1', edited: NOW.toISOString() } }]);
    // The stored form reads back as the same event.
    expect(MapEvent.parse(JSON.parse(JSON.stringify(events[0])))).toEqual(events[0]);
    const state = [created, ...events].reduce(evolveMap, initialMapState);
    expect(state.status === 'active' && state.document.locations).toEqual([cafe]);
  });

  it('checks edits in order, so one command can add a group and a location in it', () => {
    const events = edit([created], [
      { type: 'GroupAdded', group: { id: 'food', name: 'Food', color: '#f97316' } },
      { type: 'LocationAdded', location: { ...cafe, groups: ['food'] } },
      { type: 'LocationUpdated', id: 'cafe', changes: { about: 'Coffee and cake' } },
      { type: 'LocationMoved', id: 'cafe', position: { x: 50, y: 60 } },
    ]);
    const state = [created, ...events].reduce(evolveMap, initialMapState);
    if (state.status !== 'active') throw new Error('not active');
    expect(state.document.locations[0]).toMatchObject({ id: 'cafe', title: 'Cafe', about: 'Coffee and cake', groups: ['food'], position: { x: 50, y: 60 } });
    expect(state.edited).toBe(NOW.toISOString());
  });

  it('refuses an edit that does not fit the document, naming the field, and records none of the batch', () => {
    expect(refused(() => edit([created], [{ type: 'LocationAdded', location: { ...cafe, layer: 'attic' } }])).message).toBe(
      'edits.0.location.layer: there is no layer attic',
    );
    const second = refused(() => edit([created], [{ type: 'LocationAdded', location: cafe }, { type: 'LocationAdded', location: cafe }]));
    expect([second.code, second.message]).toEqual(['invalid-argument', 'edits.1.location.id: a location with the id cafe exists already']);
    expect(refused(() => edit([created], [{ type: 'LocationRemoved', id: 'ghost' }])).message).toBe('edits.0.id: there is no location ghost');
    expect(refused(() => edit([created], [{ type: 'LayerRemoved', id: 'ground' }])).message).toBe('edits.0.id: a map keeps at least one layer');
    expect(refused(() => edit([created], [{ type: 'LayersReordered', order: ['ground', 'ground'] }])).message).toBe(
      'edits.0.order: must name every layer exactly once',
    );
  });

  it('links a region to one location of its floor at most, however the second link is tried', () => {
    const hall = Location.parse({ id: 'hall', title: 'Main hall', layer: 'ground', position: null, element: 'main-hall' });
    const other = Location.parse({ id: 'other', title: 'Other', layer: 'ground', position: { x: 1, y: 1 } });
    const past = [created, ...edit([created], [{ type: 'LayerAdded', layer: { id: 'first', name: 'First floor' } }, { type: 'LocationAdded', location: hall }, { type: 'LocationAdded', location: other }, { type: 'LocationAdded', location: { ...hall, id: 'upstairs', layer: 'first' } }])];
    const taken = 'the region main-hall is the location “Main hall” already. A region stands for one location: unlink it there first, or choose another region.';
    expect(refused(() => edit(past, [{ type: 'LocationAdded', location: { ...hall, id: 'again' } }])).message).toBe(`edits.0.location.element: ${taken}`);
    expect(refused(() => edit(past, [{ type: 'LocationUpdated', id: 'other', changes: { element: 'main-hall' } }])).message).toBe(`edits.0.changes.element: ${taken}`);
    // The same id on another floor's drawing is another region; moving onto a floor where it is taken is refused.
    const upstairs = refused(() => edit(past, [{ type: 'LocationMoved', id: 'upstairs', position: { x: 5, y: 5 }, layer: 'ground' }]));
    expect(upstairs.message).toBe(`edits.0.layer: ${taken}`);
    // Unlinked first, the region links again; a location keeps its own region through other changes.
    expect(edit(past, [{ type: 'LocationUpdated', id: 'hall', changes: { element: null } }, { type: 'LocationUpdated', id: 'other', changes: { element: 'main-hall' } }])).toHaveLength(2);
    expect(edit(past, [{ type: 'LocationUpdated', id: 'hall', changes: { element: 'main-hall', title: 'Hall' } }])).toHaveLength(1);
  });

  it('removing a layer removes its locations, and the event names them', () => {
    const events = edit([created], [
      { type: 'LayerAdded', layer: { id: 'first', name: 'First floor' } },
      { type: 'LocationAdded', location: { ...cafe, layer: 'first' } },
      { type: 'LayerRemoved', id: 'first' },
    ]);
    expect(events[2]).toEqual({ type: 'LayerRemoved', data: { id: 'first', removedLocations: ['cafe'], mapId: 'm1', edited: NOW.toISOString() } });
    const state = [created, ...events].reduce(evolveMap, initialMapState);
    expect(state.status === 'active' && [state.document.layers.length, state.document.locations.length]).toEqual([1, 0]);
  });

  it('only the owner edits, or an admin; a deleted map is gone', () => {
    expect(refused(() => edit([created], [{ type: 'LocationAdded', location: cafe }], ben)).code).toBe('permission-denied');
    expect(edit([created], [{ type: 'LocationAdded', location: cafe }], root)).toHaveLength(1);
    const deleted: MapEventType = { type: 'MapDeleted', data: { mapId: 'm1', deletedAt: NOW.toISOString() } };
    expect(refused(() => edit([created, deleted], [{ type: 'LocationAdded', location: cafe }])).code).toBe('not-found');
  });
});

describe('applyEdit', () => {
  const base = applyEdit(applyEdit(emptyMapDocument(), { type: 'GroupAdded', group: { id: 'food', name: 'Food', color: '#f97316', legend: true } }), {
    type: 'LocationAdded',
    location: { ...cafe, groups: ['food'] },
  });

  it('an update changes only the fields it names', () => {
    const updated = applyEdit(base, MapEdit.parse({ type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café' } }));
    expect(updated.locations[0]).toEqual({ ...base.locations[0], title: 'Café' });
    expect(MapEdit.safeParse({ type: 'LocationUpdated', id: 'cafe', changes: { id: 'other' } }).success).toBe(false);
  });

  it('removing a group takes it off its locations', () => {
    const removed = applyEdit(base, { type: 'GroupRemoved', id: 'food' });
    expect([removed.groups, removed.locations[0]!.groups]).toEqual([[], []]);
  });

  it('reorders layers and replaces a whole document', () => {
    const two = applyEdit(base, { type: 'LayerAdded', layer: { id: 'roof', name: 'Roof', file: null } });
    expect(applyEdit(two, { type: 'LayersReordered', order: ['roof', 'ground'] }).layers.map((l) => l.id)).toEqual(['roof', 'ground']);
    expect(applyEdit(two, { type: 'DocumentImported', document: emptyMapDocument() })).toEqual(emptyMapDocument());
    expect(base.locations).toHaveLength(1);
  });
});

describe('removing path records nobody holds (issue 26 item 8)', () => {
  const withPoints = edit([created], [
    {
      type: 'PathsEdited',
      put: { nodes: [{ id: 'n1', layer: 'ground', x: 0, y: 0 }, { id: 'n2', layer: 'ground', x: 5, y: 0 }], edges: [{ id: 'e1', from: 'n1', to: 'n2' }] },
    },
  ]);

  it('records nothing when every removed id is unknown (a peer removed them first, or they never were)', () => {
    const unknown = Array.from({ length: 2_000 }, (_, i) => `gone-${i}`);
    expect(edit([created, ...withPoints], [{ type: 'PathsEdited', removed: { nodes: unknown, edges: ['e9'], connectors: ['c1'] } }])).toEqual([]);
  });

  it('records only the ids the network holds', () => {
    const events = edit([created, ...withPoints], [{ type: 'PathsEdited', removed: { nodes: ['gone', 'n2'], edges: ['e1', 'e9'] } }]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'PathsEdited', data: { removed: { nodes: ['n2'], edges: ['e1'], connectors: [] } } });
  });

  it('keeps the rest of a batch whose path removal comes to nothing', () => {
    const events = edit([created, ...withPoints], [
      { type: 'PathsEdited', removed: { nodes: ['gone'] } },
      { type: 'LocationAdded', location: cafe },
    ]);
    expect(events.map((e) => e.type)).toEqual(['LocationAdded']);
  });
});

describe('a geocoded location moved by hand', () => {
  it('is known exactly from then on; one never geocoded stays without a precision', () => {
    const geocoded = Location.parse({ ...cafe, id: 'store', precision: 'city' });
    const events = edit([created], [
      { type: 'LocationAdded', location: geocoded },
      { type: 'LocationAdded', location: cafe },
      { type: 'LocationMoved', id: 'store', position: { x: 1, y: 2 } },
      { type: 'LocationMoved', id: 'cafe', position: { x: 3, y: 4 } },
    ]);
    const state = [created, ...events].reduce(evolveMap, initialMapState);
    if (state.status !== 'active') throw new Error('not active');
    expect(state.document.locations.map((l) => [l.id, l.precision])).toEqual([['store', 'exact'], ['cafe', undefined]]);
  });

  it('is exact once its position is typed in (an update), unless the update places it again by its address', () => {
    const typed = edit([created], [
      { type: 'LocationAdded', location: Location.parse({ ...cafe, id: 'a', precision: 'postcode' }) },
      { type: 'LocationAdded', location: Location.parse({ ...cafe, id: 'b', precision: 'postcode' }) },
      { type: 'LocationUpdated', id: 'a', changes: { position: { x: 5, y: 6 } } },
      { type: 'LocationUpdated', id: 'b', changes: { position: { x: 5, y: 6 }, precision: 'city' } },
    ]);
    const state = [created, ...typed].reduce(evolveMap, initialMapState);
    if (state.status !== 'active') throw new Error('not active');
    expect(state.document.locations.map((l) => [l.id, l.precision])).toEqual([['a', 'exact'], ['b', 'city']]);
  });
});
