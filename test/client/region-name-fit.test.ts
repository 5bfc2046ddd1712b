/** Region names fitted inside their shapes: as large as allowed, two lines when narrow, none when too small. */
import { describe, expect, it } from 'vitest';
import { estimateWidth, fitName, NAME_LIMITS } from '../../client/src/components/map/region-name-fit';

describe('fitName', () => {
  it('stops at the largest size on a roomy shape', () => {
    const fit = fitName('Café', 400, 300, 1, estimateWidth)!;
    expect(fit.lines).toEqual(['Café']);
    expect(fit.size).toBe(NAME_LIMITS.max);
    // In shape units: a drawing shown twice as large takes half the size.
    expect(fitName('Café', 400, 300, 2, estimateWidth)!.size).toBe(NAME_LIMITS.max / 2);
  });

  it('splits a long name in two on a narrow shape, and never runs past the shape', () => {
    const fit = fitName('Northwind Outfitters', 90, 200, 1, estimateWidth)!;
    expect(fit.lines).toEqual(['Northwind', 'Outfitters']);
    for (const line of fit.lines) expect(estimateWidth(line) * fit.size).toBeLessThanOrEqual(90);
    expect(fit.lines.length * fit.size * 1.15).toBeLessThanOrEqual(200);
  });

  it('shows nothing where even the smallest size does not fit', () => {
    expect(fitName('Sunrise Pharmacy', 20, 8, 1, estimateWidth)).toBeNull();
    expect(fitName('  ', 200, 200, 1, estimateWidth)).toBeNull();
    expect(fitName('Hall', 0, 100, 1, estimateWidth)).toBeNull();
  });
});
