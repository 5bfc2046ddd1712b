/**
 * Meaningful region ids: what a click in a drawing may mean, ids people gave against ids that
 * Inkscape, Illustrator and other programs made up, and never a layer.
 */
import { describe, expect, it } from 'vitest';
import { isGeneratedId, isMeaningfulRegion } from '../../events/region-ids.js';

const shape = (id: string, tag = 'rect') => ({ id, tag, layer: false });

describe('isMeaningfulRegion', () => {
  it('takes ids people gave', () => {
    for (const id of ['shop-12', 'H865', 'food-court', 'g12', 'US-CA', 'MainHall', 'unit_b3', 'de-by', 'rectory', 'pathway', '101', '01', '2a']) {
      expect(isMeaningfulRegion(shape(id)), id).toBe(true);
    }
  });

  it('refuses ids Inkscape and Illustrator made up', () => {
    for (const [id, tag] of [['rect837-0-8', 'rect'], ['path12', 'path'], ['g45', 'g'], ['layer1', 'g'], ['XMLID_5_', 'path'], ['Layer_1', 'g'], ['Group_5', 'g'], ['rect4731', 'path'], ['_x31_', 'g'], ['tspan4', 'tspan']] as const) {
      expect(isMeaningfulRegion(shape(id, tag)), id).toBe(false);
    }
  });

  it('never takes a layer, whatever its id', () => {
    expect(isMeaningfulRegion({ id: 'ground-floor', tag: 'g', layer: true })).toBe(false);
    expect(isMeaningfulRegion({ id: '', tag: 'rect', layer: false })).toBe(false);
  });

  it('reads g123 as made up only on a group', () => {
    expect(isGeneratedId('g123', 'g')).toBe(true);
    expect(isGeneratedId('g123', 'G')).toBe(true);
    expect(isGeneratedId('g123', 'rect')).toBe(false);
  });
});
