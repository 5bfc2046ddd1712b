/**
 * Import plans written by hand for the planner's pure tests (events/import-planner.ts), and the
 * document their edits make, each edit checked as the map's decider checks it.
 */
import { expect } from 'vitest';
import type { MapDocument } from '../../events/map-document.js';
import { applyEdit, checkEdit, type MapEdit } from '../../events/map-edits.js';
import type { ImportPlan, PlannedLocation } from '../../events/map-import.js';

/** A CSV's plan of these rows (every field not given left empty). */
export function plan(locations: Array<Partial<PlannedLocation> & { row: number }>, extra: Partial<ImportPlan> = {}): ImportPlan {
  return {
    format: 'csv',
    floors: [],
    groups: [],
    locations: locations.map((l) => ({ id: null, fields: {}, floor: null, position: null, groups: [], element: null, ...l })),
    columns: { used: ['title'], ignored: [] },
    mapping: { title: 'title' },
    problems: [],
    ...extra,
  };
}

/** The document after the edits, each checked as the map's decider checks them. */
export function applied(document: MapDocument, edits: readonly MapEdit[]): MapDocument {
  return edits.reduce((current, edit) => {
    expect(checkEdit(current, edit)).toBeNull();
    return applyEdit(current, edit);
  }, document);
}
