/**
 * Fitting points into a map view, either view's pure part (client/src/components/map/
 * view-fit.ts): the room kept free around them, shrunk together on a small screen; the canvas's
 * view that shows them in the free area, within the zoom limits; how far a view pans for a
 * point to come inside it.
 */
import { describe, expect, it } from 'vitest';
import { boxOf, insetsWithin, panInto, viewFitting } from '../../client/src/components/map/view-fit';

const ROUTE = { top: 96, right: 88, bottom: 120, left: 72 };

describe('the room kept free around fitted points', () => {
  it('is the padding on every edge, or each edge’s own', () => {
    expect(insetsWithin(48, 1280, 800)).toEqual({ top: 48, right: 48, bottom: 48, left: 48 });
    expect(insetsWithin(ROUTE, 1280, 800)).toEqual(ROUTE);
  });

  it('shrinks on a small screen, both edges of an axis together, leaving 40% of it free', () => {
    // 375 × 320: the route's 216 px of height over 60% of 320 (192) shrink by 192/216.
    const room = insetsWithin(ROUTE, 375, 320);
    expect(room.left).toBe(72);
    expect(room.right).toBe(88);
    expect(room.top + room.bottom).toBeCloseTo(192, 9);
    expect(room.bottom / room.top).toBeCloseTo(120 / 96, 9);
  });
});

describe('the canvas’s view fitting points', () => {
  // A 1000 × 600 floor in a 1000 × 600 view: zoom 1 is scale 1.
  const frame = { width: 1000, height: 600, fit: 1, minZoom: 1, maxZoom: 8 };

  it('centres their box in the room left free, as large as it fits', () => {
    const view = viewFitting(frame, [{ x: 100, y: 100 }, { x: 300, y: 200 }], { top: 100, right: 0, bottom: 0, left: 200 })!;
    // Free area 800 × 500 from (200, 100); the box is 200 × 100: 4× across, 5× down.
    expect(view.k).toBe(4);
    const middle = { x: 200 * view.k + view.x, y: 150 * view.k + view.y };
    expect(middle).toEqual({ x: 200 + 400, y: 100 + 250 });
  });

  it('zooms no deeper than asked, nor than the map allows, nor further out than the whole floor', () => {
    const close = [{ x: 500, y: 300 }, { x: 510, y: 305 }];
    expect(viewFitting(frame, close, 48, 1.8)!.k).toBe(1.8);
    expect(viewFitting(frame, close, 48)!.k).toBe(8);
    expect(viewFitting({ ...frame, fit: 0.5 }, [{ x: 0, y: 0 }, { x: 10_000, y: 10_000 }], 48)!.k).toBe(0.5);
  });

  it('is none before the view has a size, or without points', () => {
    expect(viewFitting({ ...frame, width: 0 }, [{ x: 1, y: 1 }], 48)).toBeNull();
    expect(viewFitting(frame, [], 48)).toBeNull();
    expect(boxOf([])).toBeNull();
  });
});

describe('panning a point into view', () => {
  it('moves as little as it takes for the point to sit the margin inside, and not at all when it does', () => {
    expect(panInto({ x: 500, y: 300 }, 1000, 600, 80)).toEqual({ dx: 0, dy: 0 });
    expect(panInto({ x: 20, y: 590 }, 1000, 600, 80)).toEqual({ dx: 60, dy: -70 });
    expect(panInto({ x: 1200, y: -50 }, 1000, 600, 80)).toEqual({ dx: -280, dy: 130 });
  });

  it('keeps the point in the middle of a view smaller than twice the margin', () => {
    expect(panInto({ x: 0, y: 0 }, 100, 60, 80)).toEqual({ dx: 50, dy: 30 });
  });
});
