/**
 * The editor's "check network" (issue 17): unreachable locations and why, locations reachable
 * only with steps, dead ends, isolated points and connector stops no link reaches.
 */
import { describe, expect, it } from 'vitest';
import { checkNetwork } from '../../events/wayfinding/check-network.js';
import { networkDocument, stairsOrLift } from './wayfinding/network-fixture.js';

describe('checkNetwork', () => {
  it('finds nothing wrong in a network that reaches everything', () => {
    expect(checkNetwork(stairsOrLift())).toEqual({ unreachable: [], stepsOnly: [], deadEnds: [], isolated: [], loneStops: [], components: 1 });
  });

  it('lists what keeps visitors from getting somewhere', () => {
    const document = networkDocument({
      floors: [['g', 'Ground'], ['f', 'First'], ['h', 'Roof'], ['s', 'Mezzanine']],
      nodes: [
        ['a', 'g', 0, 0], ['b', 'g', 100, 0], ['c', 'g', 200, 0], ['d', 'g', 300, 0],
        ['x', 'g', 100, 100], ['y', 'g', 100, -100], ['z', 'g', 900, 900],
        ['i1', 'g', 500, 500], ['i2', 'g', 600, 500],
        ['f1', 'f', 0, 0], ['f2', 'f', 100, 0],
        ['h1', 'h', 300, 0],
        ['s1', 's', 0, 0], ['s2', 's', 100, 0],
      ],
      edges: [['a', 'b'], ['b', 'c'], ['c', 'd'], ['b', 'x'], ['b', 'y'], ['i1', 'i2'], ['f1', 'f2'], ['s1', 's2']],
      connectors: [
        { id: 'lift', kind: 'lift', nodes: ['d', 'h1'] },
        { id: 'stairs', kind: 'stairs', nodes: ['a', 's1'] },
      ],
      locations: [
        { id: 'shop', layer: 'g', at: [100, 130], entrances: ['x'] },
        { id: 'lost', layer: 'g', at: [0, 0], entrances: ['i1'] },
        { id: 'up', layer: 'f', at: [100, 10] },
        { id: 'nowhere', layer: 'g' },
        { id: 'stepsy', layer: 's', at: [100, 10] },
        { id: 'hidden', layer: 'g', hidden: true },
      ],
    });
    const check = checkNetwork(document);
    expect(check.unreachable).toEqual([
      { location: 'lost', layer: 'g', reason: 'apart-on-floor' },
      { location: 'up', layer: 'f', reason: 'floor-apart' },
      { location: 'nowhere', layer: 'g', reason: 'no-entrance' },
    ]);
    expect(check.stepsOnly).toEqual([{ location: 'stepsy', layer: 's' }]);
    // x is the shop's entrance, s2 the point "stepsy" is entered by, d and s1 connector stops.
    expect(check.deadEnds).toEqual([{ node: 'y', layer: 'g' }, { node: 'i2', layer: 'g' }, { node: 'f1', layer: 'f' }]);
    expect(check.isolated).toEqual([{ node: 'z', layer: 'g' }]);
    expect(check.loneStops).toEqual([{ connector: 'lift', node: 'h1', layer: 'h' }]);
    expect(check.components).toBe(4);
  });
});
