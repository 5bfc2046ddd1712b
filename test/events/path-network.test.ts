/**
 * The path network in the map document (issue 17): version 2 documents migrate to version 3 with
 * an empty network; `PathsEdited` puts and removes records, checked against the floors; removing
 * a node takes its links, its connector stops and the entrances naming it; undo brings all of it
 * back, and removing a floor takes its paths (and undo restores them).
 */
import { describe, expect, it } from 'vitest';
import { emptyMapDocument, Location, MapDocument } from '../../events/map-document.js';
import { applyEdits } from '../../events/map-edit-inverse.js';
import { applyEdit, checkEdit, MapEdit } from '../../events/map-edits.js';
import type { PathsEdit } from '../../events/path-network.js';

const put = (p: Partial<PathsEdit['put']>): PathsEdit => ({
  type: 'PathsEdited',
  put: { nodes: [], edges: [], connectors: [], ...p },
  removed: { nodes: [], edges: [], connectors: [] },
});
const removed = (r: Partial<PathsEdit['removed']>): PathsEdit => ({
  type: 'PathsEdited',
  put: { nodes: [], edges: [], connectors: [] },
  removed: { nodes: [], edges: [], connectors: [], ...r },
});

function twoFloors(): MapDocument {
  const document = emptyMapDocument();
  const shop = (id: string, layer: string): Location => Location.parse({ id, title: id, layer, position: { x: 10, y: 10 } });
  const base: MapDocument = {
    ...document,
    layers: [
      { id: 'ground', name: 'Ground', file: null },
      { id: 'first', name: 'Level 1', file: null },
    ],
    locations: [shop('cafe', 'ground'), shop('books', 'first')],
  };
  return applyEdit(
    base,
    put({
      nodes: [
        { id: 'g1', layer: 'ground', x: 0, y: 0 },
        { id: 'g2', layer: 'ground', x: 100, y: 0 },
        { id: 'f1', layer: 'first', x: 100, y: 0 },
        { id: 'f2', layer: 'first', x: 100, y: 100 },
      ],
      edges: [
        { id: 'e1', from: 'g1', to: 'g2', stepFree: true, oneWay: false },
        { id: 'e2', from: 'f1', to: 'f2', stepFree: true, oneWay: false },
      ],
      connectors: [{ id: 'lift', kind: 'lift', name: 'Lift A', nodes: ['g2', 'f1'] }],
    }),
  );
}

describe('the path network', () => {
  it('reads a version 2 document as version 3 with an empty network and no entrances', () => {
    const v2 = { ...emptyMapDocument(), version: 2, paths: undefined, locations: [{ id: 'a', title: 'A', layer: 'ground' }] };
    const document = MapDocument.parse(v2);
    expect(document.version).toBe(3);
    expect(document.paths).toEqual({ nodes: [], edges: [], connectors: [] });
    expect(document.locations[0]!.entrances).toEqual([]);
  });

  it('refuses a document whose links, connectors or entrances name what is not there', () => {
    const document = twoFloors();
    const issues = (doc: unknown) => MapDocument.safeParse(doc).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues(document)).toEqual([]);
    expect(issues({ ...document, paths: { ...document.paths, edges: [{ id: 'x', from: 'g1', to: 'nowhere' }] } })).toEqual([
      'paths.edges.0.to: there is no path point nowhere',
    ]);
    expect(issues({ ...document, paths: { ...document.paths, edges: [{ id: 'x', from: 'g1', to: 'f1' }] } })).toEqual([
      'paths.edges.0.to: a link stays on one floor (a connector joins floors)',
    ]);
    expect(issues({ ...document, locations: [{ ...document.locations[0]!, entrances: ['zz'] }] })).toEqual([
      'locations.0.entrances: names a path point that does not exist: zz',
    ]);
  });

  it('checks an edit against the floors and the network as it would be', () => {
    const document = twoFloors();
    expect(checkEdit(document, put({ nodes: [{ id: 'n', layer: 'attic', x: 0, y: 0 }] }))).toBe('paths.nodes.4.layer: there is no layer attic');
    expect(checkEdit(document, put({ connectors: [{ id: 'c', kind: 'stairs', name: '', nodes: ['g1', 'g2'] }] }))).toBe(
      'paths.connectors.1.nodes.1: a connector stops once on each floor',
    );
    expect(checkEdit(document, { type: 'LocationUpdated', id: 'cafe', changes: { entrances: ['nope'] } })).toBe('changes.entrances: there is no path point nope');
    expect(checkEdit(document, { type: 'LocationUpdated', id: 'cafe', changes: { entrances: ['g1'] } })).toBeNull();
    // The wire format fills what an edit leaves out.
    expect(MapEdit.parse({ type: 'PathsEdited', put: { nodes: [{ id: 'n', layer: 'ground', x: 1, y: 2 }] } })).toEqual({
      type: 'PathsEdited',
      put: { nodes: [{ id: 'n', layer: 'ground', x: 1, y: 2 }], edges: [], connectors: [] },
      removed: { nodes: [], edges: [], connectors: [] },
    });
  });

  it('removing a node takes its links, its connector stop and the entrances on it; undo brings them back', () => {
    const start = applyEdit(twoFloors(), { type: 'LocationUpdated', id: 'cafe', changes: { entrances: ['g2'] } });
    const { document, inverse } = applyEdits(start, [removed({ nodes: ['g2'] })]);
    expect(document.paths.nodes.map((n) => n.id)).toEqual(['g1', 'f1', 'f2']);
    expect(document.paths.edges.map((e) => e.id)).toEqual(['e2']);
    expect(document.paths.connectors).toEqual([]);
    expect(document.locations.find((l) => l.id === 'cafe')!.entrances).toEqual([]);
    const undone = applyEdits(document, inverse).document;
    expect(undone.paths.nodes.map((n) => n.id).sort()).toEqual(['f1', 'f2', 'g1', 'g2']);
    expect(undone.paths.edges.map((e) => e.id).sort()).toEqual(['e1', 'e2']);
    expect(undone.paths.connectors).toEqual(start.paths.connectors);
    expect(undone.locations.find((l) => l.id === 'cafe')!.entrances).toEqual(['g2']);
  });

  it('moving a node replaces it whole, and undo moves it back', () => {
    const start = twoFloors();
    const { document, inverse } = applyEdits(start, [put({ nodes: [{ id: 'g1', layer: 'ground', x: 5, y: 6 }] })]);
    expect(document.paths.nodes.find((n) => n.id === 'g1')).toEqual({ id: 'g1', layer: 'ground', x: 5, y: 6 });
    expect(applyEdits(document, inverse).document.paths).toEqual(start.paths);
  });

  it('removing a floor takes its paths, and undo brings the floor and its paths back', () => {
    const start = twoFloors();
    const { document, inverse } = applyEdits(start, [{ type: 'LayerRemoved', id: 'first', removedLocations: [] }]);
    expect(document.paths.nodes.map((n) => n.id)).toEqual(['g1', 'g2']);
    expect(document.paths.edges.map((e) => e.id)).toEqual(['e1']);
    expect(document.paths.connectors).toEqual([]);
    const undone = applyEdits(document, inverse).document;
    expect(undone.layers).toEqual(start.layers);
    expect([...undone.paths.nodes].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...start.paths.nodes].sort((a, b) => a.id.localeCompare(b.id)));
    expect(undone.paths.connectors).toEqual(start.paths.connectors);
    expect(MapDocument.safeParse(undone).success).toBe(true);
  });
});
