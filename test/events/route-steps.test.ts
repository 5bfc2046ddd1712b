/**
 * Turn-by-turn steps (issue 17, part 3): turns by angle (nearly straight bends merged), the
 * nearest location as a landmark within a few metres, floor changes with the connector and the
 * floor's name, the destination's side; the viewer's words (route-words.ts, English here) say them.
 */
import { describe, expect, it } from 'vitest';
import en from 'virtual:viewer-messages/en';
import { stepSentence, type StepWordsOptions } from '../../client/src/i18n/route-words.js';
import { createTranslator } from '../../client/src/i18n/translator.js';
import { findRoute } from '../../events/wayfinding/find-route.js';
import { turnKind } from '../../events/wayfinding/route-steps.js';
import type { Route, RouteResult, RouteStep } from '../../events/wayfinding/route-types.js';
import { networkDocument, stairsOrLift } from './wayfinding/network-fixture.js';

/** A step in English: the English catalogue's words, as the editor shows them. */
const english = createTranslator('en', en);
const describeStep = (step: RouteStep, options?: StepWordsOptions) => stepSentence(english, step, options);

function routeOf(result: RouteResult): Route {
  if (!result.ok) throw new Error(`no route: ${JSON.stringify(result.failure)}`);
  return result.route;
}

describe('turnKind', () => {
  it('names a bend by its angle, positive to the right (y points down the map)', () => {
    expect([0, 19, -19].map(turnKind)).toEqual(['straight', 'straight', 'straight']);
    expect([30, -30].map(turnKind)).toEqual(['slight-right', 'slight-left']);
    expect([90, -90, 60].map(turnKind)).toEqual(['right', 'left', 'right']);
    expect([140, -140].map(turnKind)).toEqual(['sharp-right', 'sharp-left']);
    expect([170, -170, 180].map(turnKind)).toEqual(['u-turn', 'u-turn', 'u-turn']);
  });
});

describe('route steps', () => {
  // a → b east, b → c down the map (a right turn), c → d → e east (a left turn, then a straight
  // run through d), e → f a slight right, f → g a sharp right back towards the west.
  const document = networkDocument({
    floors: [['g', 'Ground floor']],
    nodes: [
      ['a', 'g', 0, 0],
      ['b', 'g', 100, 0],
      ['c', 'g', 100, 100],
      ['d', 'g', 200, 102],
      ['e', 'g', 300, 100],
      ['f', 'g', 450, 160],
      ['g', 'g', 300, 200],
    ],
    edges: [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g']],
    locations: [
      { id: 'start', title: 'Lumière Café', layer: 'g', at: [0, -10], entrances: ['a'] },
      { id: 'nero', title: 'Café Nero', layer: 'g', at: [55, -30] },
      // Nearer the first turn, but further along the way in, or across the junction: not passed, so not "after" them.
      { id: 'ahead', title: 'Not Yet', layer: 'g', at: [108, -30] },
      { id: 'across', title: 'Across', layer: 'g', at: [100, -40] },
      { id: 'far', title: 'Far Away', layer: 'g', at: [1000, 1000] },
      { id: 'closed', title: 'Closed Shop', layer: 'g', at: [95, 110], hidden: true },
      { id: 'door', title: 'Door Shop', layer: 'g', at: [2000, 2000], entrances: ['e'] },
      { id: 'end', title: 'Bella Shoes', layer: 'g', at: [280, 230], entrances: ['g'] },
    ],
  });

  it('turns where the line bends, with the nearest location as landmark, and the side of the destination', () => {
    const route = routeOf(findRoute(document, { location: 'start' }, { location: 'end' }, { stepFree: false }));
    expect(route.steps.map((s) => s.kind)).toEqual(['depart', 'right', 'left', 'slight-right', 'sharp-right', 'arrive']);
    const [depart, right, left, slight, sharp, arrive] = route.steps;
    expect(depart!.landmark).toEqual({ id: 'start', title: 'Lumière Café' });
    expect(right!.at).toEqual({ x: 100, y: 0 });
    expect(right!.distance).toBeCloseTo(100);
    expect(right!.metres).toBeCloseTo(10);
    expect(right!.landmark).toEqual({ id: 'nero', title: 'Café Nero' });
    expect(left!.landmark).toBeUndefined(); // the hidden shop beside it is not a landmark
    expect(slight!.at).toEqual({ x: 300, y: 100 });
    expect(slight!.distance).toBeCloseTo(Math.hypot(100, 2) + Math.hypot(100, 2));
    expect(slight!.landmark).toEqual({ id: 'door', title: 'Door Shop' }); // by its entrance
    expect(sharp!.landmark).toBeUndefined();
    // Walking from f (450,160) to g (300,200), Bella Shoes at (280,230) lies to the left.
    expect(arrive!.side).toBe('left');
    expect(arrive!.landmark).toEqual({ id: 'end', title: 'Bella Shoes' });
    expect(route.steps.reduce((sum, s) => sum + s.distance, 0)).toBeCloseTo(route.distance);
    expect(route.steps.map((s) => describeStep(s))).toEqual([
      'Start at Lumière Café',
      'Turn right after Café Nero',
      'Turn left',
      'Bear right after Door Shop',
      'Turn sharp right',
      'Bella Shoes is on the left',
    ]);
    expect(describeStep(right!, { distance: true })).toBe('Walk 10 m, then turn right after Café Nero');
  });

  it('takes the stairs or the lift to the floor by its name', () => {
    const document = stairsOrLift();
    const shortest = routeOf(findRoute(document, { location: 'cafe' }, { location: 'books' }, { stepFree: false }));
    expect(shortest.steps.map((s) => s.kind)).toEqual(['depart', 'connector', 'arrive']);
    expect(shortest.steps[1]!.connector).toEqual({ id: 'stairs', kind: 'stairs', name: '', toLayer: 'first', toLayerName: 'Level 1' });
    expect(shortest.steps[1]!.layer).toBe('ground');
    expect(shortest.steps.map((s) => describeStep(s))).toEqual(['Start at Café Nero', 'Take the stairs to Level 1', 'Page Turner is on the left']);

    const stepFree = routeOf(findRoute(document, { location: 'cafe' }, { location: 'books' }, { stepFree: true }));
    expect(stepFree.steps.map((s) => describeStep(s))).toEqual(['Start at Café Nero', 'Take Lift A to Level 1', 'Turn left', 'Page Turner is on the left']);
    expect(stepFree.steps[1]!.metres).toBeCloseTo(40);
    expect(stepFree.seconds).toBeGreaterThan(shortest.seconds);
  });

  it('says the destination is ahead when it lies along the way, and the walk is done between path points', () => {
    const document = networkDocument({
      floors: [['g', 'Ground']],
      nodes: [['a', 'g', 0, 0], ['b', 'g', 100, 0]],
      edges: [['a', 'b']],
      locations: [{ id: 'shop', title: 'Pixel & Plug', layer: 'g', at: [160, 5] }],
    });
    const route = routeOf(findRoute(document, { node: 'a' }, { location: 'shop' }, { stepFree: false }));
    expect(route.steps.map((s) => describeStep(s))).toEqual(['Start here', 'Pixel & Plug is ahead']);
  });
});
