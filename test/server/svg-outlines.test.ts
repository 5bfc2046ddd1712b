/**
 * Region outlines read from a floor drawing for the IMDF export (server/export/svg-outlines.ts):
 * shapes of every kind as rings in the floor's units, transforms of the shape and its groups
 * applied, a group's outline made of its shapes, code ids named as locations name them, and
 * nothing from parts that are not drawn.
 */
import { describe, expect, it } from 'vitest';
import { svgOutlines } from '../../server/export/svg-outlines.js';

const round = (rings: Array<Array<{ x: number; y: number }>> | undefined) => rings?.map((ring) => ring.map((p) => [Math.round(p.x * 100) / 100, Math.round(p.y * 100) / 100]));

describe('svg outlines', () => {
  it('reads rects, polygons and paths, with their own and their groups’ transforms', () => {
    const outlines = svgOutlines(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
      <rect id="shop-a" x="10" y="10" width="20" height="10" rx="2"/>
      <polygon id="shop-b" points="0,0 10,0 10,10"/>
      <g transform="translate(100 0)"><path id="shop-c" d="M0 0 h10 v10 h-10 z" transform="scale(2)"/></g>
      <defs><rect id="hidden" x="0" y="0" width="5" height="5"/></defs>
    </svg>`);
    expect(round(outlines.get('shop-a'))).toEqual([[[10, 10], [30, 10], [30, 20], [10, 20]]]);
    expect(round(outlines.get('shop-b'))).toEqual([[[0, 0], [10, 0], [10, 10]]]);
    expect(round(outlines.get('shop-c'))).toEqual([[[100, 0], [120, 0], [120, 20], [100, 20]]]);
    expect(outlines.has('hidden')).toBe(false);
  });

  it('outlines a group by its shapes, samples curves and circles, and names code ids as locations do', () => {
    const outlines = svgOutlines(`<svg xmlns="http://www.w3.org/2000/svg">
      <g id="unit-7"><rect x="0" y="0" width="10" height="10"/><rect x="20" y="0" width="10" height="10"/><text>7</text></g>
      <circle id="kiosk" cx="50" cy="50" r="5"/>
      <path id="11" d="M0 0 L10 0 L10 10 Z"/>
    </svg>`);
    expect(outlines.get('unit-7')).toHaveLength(2);
    const circle = outlines.get('kiosk')![0]!;
    expect(circle.length).toBeGreaterThan(8);
    for (const p of circle) expect(Math.hypot(p.x - 50, p.y - 50)).toBeCloseTo(5, 1);
    expect(outlines.has('id-11')).toBe(true);
  });

  it('keeps what it read before a broken part of the file', () => {
    const outlines = svgOutlines('<svg xmlns="http://www.w3.org/2000/svg"><rect id="a" width="1" height="1"/><rect id="b" <<');
    expect(outlines.has('a')).toBe(true);
  });
});
