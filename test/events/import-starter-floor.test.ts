/**
 * Importing into a new map (issue 27): the empty floor a map starts with gives way to the
 * file's own floors, in the same edits the import records (one LayerRemoved after the import's
 * events), and only while nothing has been done with it. The preview says where every row lands
 * from the plan apply records: floor by floor, new or updated, left out and why.
 */
import { describe, expect, it } from 'vitest';
import { planImport, type PlanOptions } from '../../events/import-planner.js';
import { emptyMapDocument, type MapDocument } from '../../events/map-document.js';
import { applyEdit, type MapEdit } from '../../events/map-edits.js';
import { invertEdit } from '../../events/map-edit-inverse.js';

import { applied, plan } from '../support/import-plans.js';

const options: PlanOptions = { sourceName: 'stores.csv' };

const stores = plan([
  { row: 1, fields: { title: 'Berlin' }, position: { kind: 'geo', lat: 52.52, lng: 13.405 } },
  { row: 2, fields: { title: 'Paris' }, position: { kind: 'geo', lat: 48.857, lng: 2.352 } },
  { row: 3, fields: { title: 'Head office' } },
  { row: 4, fields: {}, position: { kind: 'geo', lat: 1, lng: 2 } },
]);

describe('importing into a new map', () => {
  it('replaces the untouched starter floor with the file’s geographic floor: one floor, the default, holding every row', () => {
    const document = emptyMapDocument();
    const result = planImport(document, stores, options);
    expect(result.edits.map((edit) => edit.type)).toEqual(['ImportApplied', 'LayerRemoved']);
    const after = applied(document, result.edits);
    expect(after.layers).toHaveLength(1);
    const floor = after.layers[0]!;
    expect(floor.geo).toBeDefined();
    expect(after.settings.defaultLayer).toBe(floor.id);
    // The unplaced row waits on the file's floor, not on a floor that is gone.
    expect(after.locations.map((l) => [l.title, l.layer, l.position !== null])).toEqual([['Berlin', floor.id, true], ['Paris', floor.id, true], ['Head office', floor.id, false]]);

    expect(result.preview.removedFloor).toBe('Ground floor');
    expect(result.preview.floors).toEqual([{ id: floor.id, name: floor.name, new: true, locations: 3, updated: 0 }]);
    expect(result.preview.sample.map((row) => [row.row, row.floor, row.skipped])).toEqual([
      [1, floor.name, null],
      [2, floor.name, null],
      [3, floor.name, null],
      [4, '', 'Row 4 has no title: fill in its name, or choose the column that holds names.'],
    ]);
    expect(result.preview.counts).toMatchObject({ layers: 1, locations: 3, skipped: 1 });
  });

  it('a level named like the starter floor (a Mapplic mall’s "Ground floor") gives it its drawing, and its shops link to that drawing’s regions', () => {
    const document = emptyMapDocument();
    const mall = plan(
      [
        { row: 1, id: 'sears', fields: { title: 'Sears' }, floor: 'ground-floor', position: { kind: 'fraction', x: 0.79, y: 0.27 } },
        { row: 2, id: 'kfc', fields: { title: 'KFC' }, floor: 'first-floor', position: { kind: 'fraction', x: 0.75, y: 0.5 } },
      ],
      {
        format: 'mapplic',
        floors: [
          { key: 'ground-floor', name: 'Ground floor', drawing: { kind: 'attachment', name: 'mall-ground.svg' } },
          { key: 'first-floor', name: 'First Floor', drawing: { kind: 'attachment', name: 'mall-level1.svg' } },
        ],
      },
    );
    const regions: Record<string, Set<string>> = { 'ground-floor': new Set(['sears']), 'first-floor': new Set(['kfc']) };
    const result = planImport(document, mall, { sourceName: 'mall.json', regionsOf: (key) => regions[key], drawingSize: () => ({ width: 1000, height: 600 }) });
    expect(result.preview.counts).toMatchObject({ locations: 2, regionsLinked: 2 });
    expect(result.files.map((file) => [file.floorKey, file.existing])).toEqual([['ground-floor', true], ['first-floor', false]]);
  });

  it('keeps the file’s floor order when the starter floor is one of its floors (Mapplic’s mall: Basement, Ground Floor, First Floor), and one undo puts it back', () => {
    const document = emptyMapDocument();
    const mall = plan(
      [
        { row: 1, id: 'sears', fields: { title: 'Sears' }, floor: 'ground-floor', position: { kind: 'fraction', x: 0.79, y: 0.27 } },
        { row: 2, id: 'kfc', fields: { title: 'KFC' }, floor: 'first-floor', position: { kind: 'fraction', x: 0.75, y: 0.5 } },
      ],
      {
        format: 'mapplic',
        floors: [
          { key: 'basement-floor', name: 'Basement', drawing: null },
          { key: 'ground-floor', name: 'Ground Floor', drawing: null },
          { key: 'first-floor', name: 'First Floor', drawing: null },
        ],
      },
    );
    const result = planImport(document, mall, { sourceName: 'mall.json' });
    expect(result.edits.map((edit) => edit.type)).toEqual(['ImportApplied', 'LayersReordered']);
    const after = applied(document, result.edits);
    expect(after.layers.map((l) => l.name)).toEqual(['Basement', 'Ground floor', 'First Floor']);
    expect(result.preview.floors.map((f) => f.name)).toEqual(['Basement', 'Ground floor', 'First Floor']);
    let current = document;
    const inverses: MapEdit[][] = [];
    for (const edit of result.edits) {
      inverses.push(invertEdit(current, edit));
      current = applyEdit(current, edit);
    }
    expect(applied(current, inverses.reverse().flat()).layers).toEqual(document.layers);
  });

  it('leaves the order alone when the file lists the starter floor first', () => {
    const document = emptyMapDocument();
    const twoFloors = plan([{ row: 1, fields: { title: 'Sears' }, floor: 'ground', position: { kind: 'fraction', x: 0.5, y: 0.5 } }], {
      format: 'mapplic',
      floors: [
        { key: 'ground', name: 'Ground floor', drawing: null },
        { key: 'first', name: 'First floor', drawing: null },
      ],
    });
    expect(planImport(document, twoFloors, { sourceName: 'mall.json' }).edits.map((edit) => edit.type)).toEqual(['ImportApplied']);
  });

  it('one undo brings the starter floor back as it was', () => {
    const document = emptyMapDocument();
    const { edits } = planImport(document, stores, options);
    let current = document;
    const inverses: MapEdit[][] = [];
    for (const edit of edits) {
      inverses.push(invertEdit(current, edit));
      current = applyEdit(current, edit);
    }
    const undone = applied(current, inverses.reverse().flat());
    expect(undone.layers).toEqual(document.layers);
    expect(undone.settings).toEqual(document.settings);
    expect(undone.locations).toEqual([]);
  });

  it('makes only the floors a CSV names, the starter floor gone', () => {
    const document = emptyMapDocument();
    const result = planImport(document, plan([
      { row: 1, fields: { title: 'Shoes' }, floor: 'Level 1', position: { kind: 'pixel', x: 10, y: 20 } },
      { row: 2, fields: { title: 'Toys' }, floor: 'Level 2', position: { kind: 'pixel', x: 30, y: 40 } },
    ]), options);
    const after = applied(document, result.edits);
    expect(after.layers.map((l) => l.name)).toEqual(['Level 1', 'Level 2']);
    expect(after.settings.defaultLayer).toBe(after.layers[0]!.id);
    expect(result.preview.floors.map((f) => [f.name, f.new, f.locations])).toEqual([['Level 1', true, 1], ['Level 2', true, 1]]);
  });

  it('keeps the starter floor when the file puts something on it: a place on it, or its name', () => {
    const document = emptyMapDocument();
    const placed = planImport(document, plan([{ row: 1, fields: { title: 'Desk' }, position: { kind: 'pixel', x: 100, y: 200 } }]), options);
    expect(placed.edits.map((edit) => edit.type)).toEqual(['ImportApplied']);
    expect(placed.preview.removedFloor).toBeNull();
    expect(placed.preview.floors).toEqual([{ id: 'ground', name: 'Ground floor', new: false, locations: 1, updated: 0 }]);

    const named = planImport(document, plan([
      { row: 1, fields: { title: 'Desk' }, floor: 'ground floor' },
      { row: 2, fields: { title: 'Berlin' }, position: { kind: 'geo', lat: 52.52, lng: 13.405 } },
    ]), options);
    const after = applied(document, named.edits);
    expect(after.layers.map((l) => l.id)).toEqual(['ground', expect.any(String)]);
    expect(named.preview.floors.map((f) => [f.name, f.new, f.locations])).toEqual([['Ground floor', false, 1], [after.layers[1]!.name, true, 1]]);
  });

  it('keeps a floor that has been worked on: a drawing, a calibration, a location, a second floor', () => {
    const base = emptyMapDocument();
    const worked: MapDocument[] = [
      { ...base, layers: [{ ...base.layers[0]!, file: { kind: 'svg', url: '/files/AAAAAAAAAAAAAAAAAAAAAA', width: 800, height: 600 } }] },
      { ...base, layers: [{ ...base.layers[0]!, geo: { kind: 'bounds', projection: 'mercator', north: 1, south: 0, west: 0, east: 1 } }] },
      applyEdit(base, { type: 'LocationAdded', location: { id: 'desk', title: 'Desk', about: '', description: '', image: null, thumbnail: null, link: null, phone: '', hours: '', layer: 'ground', position: null, element: null, zoom: null, marker: 'pin', color: null, label: '', groups: [], hidden: false, entrances: [] } }),
      applyEdit(base, { type: 'LayerAdded', layer: { id: 'first', name: 'First floor', file: null } }),
    ];
    for (const document of worked) {
      const result = planImport(document, stores, options);
      expect(result.edits.some((edit) => edit.type === 'LayerRemoved')).toBe(false);
      expect(result.preview.removedFloor).toBeNull();
      expect(applied(document, result.edits).layers.map((l) => l.id)).toEqual(expect.arrayContaining(document.layers.map((l) => l.id)));
    }
  });

  it('the preview’s floors count every row, not only the sample’s, and updates land where they stay', () => {
    const base = emptyMapDocument();
    const document = applyEdit(base, { type: 'LocationAdded', location: { id: 'desk', title: 'Desk', about: '', description: '', image: null, thumbnail: null, link: null, phone: '', hours: '', layer: 'ground', position: null, element: null, zoom: null, marker: 'pin', color: null, label: '', groups: [], hidden: false, entrances: [] } });
    const rows = Array.from({ length: 45 }, (_, i) => ({ row: i + 2, fields: { title: `Shop ${i}` }, floor: i < 30 ? 'Level 1' : 'Level 2' }));
    const result = planImport(document, plan([{ row: 1, id: 'desk', fields: { about: 'By the door' } }, ...rows]), options);
    expect(result.preview.sample).toHaveLength(20);
    expect(result.preview.floors.map((f) => [f.name, f.new, f.locations, f.updated])).toEqual([['Ground floor', false, 0, 1], ['Level 1', true, 30, 0], ['Level 2', true, 15, 0]]);
    expect(result.preview.removedFloor).toBeNull();
  });
});
