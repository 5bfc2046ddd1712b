/**
 * How an import's edits are recorded (server/import/import-routes.ts importAppends, issue 26
 * item 8): an import of one part in one append; a big import's parts one append each, so no
 * append holds the database for all of it, with the edits that follow a part in its append.
 */
import { describe, expect, it } from 'vitest';
import type { MapEdit } from '../../events/map-edits.js';
import { importAppends } from '../../server/import/import-routes.js';

const source = { format: 'csv', name: 'stores.csv', mapping: null } as const;
const part = (number: number, of: number): MapEdit => ({ type: 'ImportApplied', source, part: { number, of }, layers: [], groups: [], locations: [], updates: [] });
const whole: MapEdit = { type: 'ImportApplied', source, layers: [], groups: [], locations: [], updates: [] };
const starterRemoved: MapEdit = { type: 'LayerRemoved', id: 'ground', removedLocations: [] };

describe('the appends an import is recorded in', () => {
  it('keeps an import of one part, and what follows it, in one append', () => {
    expect(importAppends([whole, starterRemoved])).toEqual([[whole, starterRemoved]]);
  });

  it('gives each part of a big import its own append, the edits after the last part with it', () => {
    const parts = [part(1, 3), part(2, 3), part(3, 3)];
    expect(importAppends([...parts, starterRemoved])).toEqual([[parts[0]], [parts[1]], [parts[2], starterRemoved]]);
  });
});
