/**
 * elementIdFor: the one mapping from any raw id to a valid SVG element id (issue 26). Valid ids
 * stay as they are; others get the `id-` prefix with their odd characters escaped; distinct raw
 * ids give distinct results (but for the limits its comment names); the same id, the same result.
 */
import { describe, expect, it } from 'vitest';
import { elementIdFor, isSvgElementId } from '../../events/element-id.js';
import { locationFields } from '../../events/map-document.js';

/** Legal but awkward ids, as real files have them. */
const AWKWARD = [
  '11', '01', '-99', '-1', '0', '', ' ', '7-eleven', '3.14', '.hidden', ':colon', 'a b', 'a_20_b', 'a  b', 'Rhode Island',
  'US-DC', 'region:42', 'floor.1', '東京', 'القاهرة', 'Zürich', '😀', 'a😀b', 'x'.repeat(200), 'x'.repeat(201), '1'.repeat(300),
  `${'1'.repeat(300)}a`, `${'1'.repeat(300)}b`, 'id-11', '_x31_1', 'a/b', 'a#b', 'a"b', '<g>',
];

describe('elementIdFor', () => {
  it('leaves a valid SVG element id as it is', () => {
    for (const id of ['US-DC', 'path3677', '_x31_1', 'region:42', 'floor.1', 'a_b', 'x'.repeat(200)]) expect(elementIdFor(id)).toBe(id);
  });

  it('makes the ids of US FIPS and Natural Earth files readable and valid', () => {
    expect(elementIdFor('11')).toBe('id-11');
    expect(elementIdFor('-99')).toBe('id--99');
    expect(elementIdFor('Rhode Island')).toBe('id-Rhode_20_Island');
  });

  it('answers an id every reader takes, whatever it is given', () => {
    for (const raw of AWKWARD) {
      const id = elementIdFor(raw);
      expect(isSvgElementId(id), JSON.stringify(raw)).toBe(true);
      expect(locationFields.element.safeParse(id).success, JSON.stringify(raw)).toBe(true);
    }
  });

  it('gives distinct raw ids distinct results, the same id the same result', () => {
    // The two collisions no mapping that keeps valid ids can avoid are left out: a valid id spelt as another's result.
    const raws = AWKWARD.filter((raw) => raw !== 'id-11');
    const results = raws.map(elementIdFor);
    expect(new Set(results).size).toBe(raws.length);
    expect(raws.map(elementIdFor)).toEqual(results);
  });

  it('escapes an underscore too, so "a b" and "a_20_b" stay apart', () => {
    expect(elementIdFor('a b')).not.toBe(elementIdFor('a_20_b'));
    expect(elementIdFor('1 b')).not.toBe(elementIdFor('1_20_b'));
  });
});
