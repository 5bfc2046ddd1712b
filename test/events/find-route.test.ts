/**
 * Routing (issue 17, part 3): the shortest way by metres with a cost per floor change; the
 * step-free way avoids stairs, escalators and links with steps; one-way links are walked one way;
 * a location is entered by its nearest entrance (or the path point nearest it); a group's nearest
 * location in one search; failures named; the graph built once per network. A property test
 * checks routes against a brute-force Floyd–Warshall on random grid networks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConnectorKind } from '../../events/path-network.js';
import { findRoute } from '../../events/wayfinding/find-route.js';
import { connectorCost } from '../../events/wayfinding/route-costs.js';
import { routeGraphOf } from '../../events/wayfinding/route-graph.js';
import type { Route, RouteResult } from '../../events/wayfinding/route-types.js';
import { networkDocument, stairsOrLift, type Fixture } from './wayfinding/network-fixture.js';

function routeOf(result: RouteResult): Route {
  if (!result.ok) throw new Error(`no route: ${JSON.stringify(result.failure)}`);
  return result.route;
}

const connectorsTaken = (route: Route) => route.steps.flatMap((s) => (s.connector ? [s.connector.kind] : []));
const pointsOf = (route: Route) => route.legs.flatMap((leg) => leg.points.map((p) => `${leg.layer}:${p.x},${p.y}`));

describe('findRoute', () => {
  it('takes the stairs when they are shortest, and the lift when steps are avoided', () => {
    const document = stairsOrLift();
    const shortest = routeOf(findRoute(document, { location: 'cafe' }, { location: 'books' }, { stepFree: false }));
    expect(connectorsTaken(shortest)).toEqual(['stairs']);
    expect(shortest.from).toEqual({ location: 'cafe', node: 's0' });
    expect(shortest.to).toEqual({ location: 'books', node: 't' });
    expect(pointsOf(shortest)).toEqual(['ground:0,0', 'ground:50,0', 'first:50,0', 'first:50,50']);
    expect(shortest.legs.map((l) => l.layer)).toEqual(['ground', 'first']);
    expect(shortest.distance).toBeCloseTo(100);
    expect(shortest.metres).toBeCloseTo(10); // 0.1 m per unit on uncalibrated floors
    expect(shortest.floorChanges).toBe(1);
    expect(shortest.seconds).toBeGreaterThan(10 / 1.2);

    const stepFree = routeOf(findRoute(document, { location: 'cafe' }, { location: 'books' }, { stepFree: true }));
    expect(connectorsTaken(stepFree)).toEqual(['lift']);
    expect(pointsOf(stepFree)).toEqual(['ground:0,0', 'ground:50,0', 'ground:400,0', 'first:400,0', 'first:50,0', 'first:50,50']);
    expect(stepFree.metres).toBeCloseTo(80);
    expect(stepFree.stepFree).toBe(true);
  });

  it('stays on one floor rather than pay for two floor changes to save a few metres', () => {
    // ground: a (0,0) — b (300,0) directly; or by stairs to a first-floor shortcut 20 units shorter.
    const document = networkDocument({
      floors: [['g', 'Ground'], ['f', 'First']],
      nodes: [['a', 'g', 0, 0], ['b', 'g', 300, 0], ['a2', 'f', 0, 0], ['b2', 'f', 280, 0], ['b3', 'g', 280, 0]],
      edges: [['a', 'b'], ['a2', 'b2'], ['b3', 'b']],
      connectors: [{ id: 'l1', kind: 'lift', nodes: ['a', 'a2'] }, { id: 'l2', kind: 'lift', nodes: ['b2', 'b3'] }],
    });
    const route = routeOf(findRoute(document, { node: 'a' }, { node: 'b' }, { stepFree: false }));
    expect(route.floorChanges).toBe(0);
  });

  it('finds the shortest way when floors are not drawn one above the other (no straight-line guess then)', () => {
    // Ground: a long walk a → m → b (about 424 m). Upstairs, drawn elsewhere in the plane, a 10 m
    // link between the lifts' stops: 25 + 10 + 25 m. A straight-line guess upstairs (from
    // (5000, 5000) to b) would overestimate and miss it.
    const document = networkDocument({
      floors: [['g', 'Ground'], ['f', 'First']],
      nodes: [['a', 'g', 0, 0], ['m', 'g', 1500, 1500], ['b', 'g', 3000, 0], ['a2', 'f', 5000, 5000], ['b2', 'f', 5000, 5100]],
      edges: [['a', 'm'], ['m', 'b'], ['a2', 'b2']],
      connectors: [{ id: 'l1', kind: 'lift', nodes: ['a', 'a2'] }, { id: 'l2', kind: 'lift', nodes: ['b', 'b2'] }],
    });
    expect(routeGraphOf(document).heuristicSafe).toBe(false);
    expect(routeGraphOf(stairsOrLift()).heuristicSafe).toBe(true);
    const route = routeOf(findRoute(document, { node: 'a' }, { node: 'b' }, { stepFree: false }));
    expect(route.floorChanges).toBe(2);
    expect(route.metres).toBeCloseTo(10);
  });

  it('walks a one-way link only from its start to its end', () => {
    // a → b one way (short); a — c — b two way (long).
    const document = networkDocument({
      floors: [['g', 'Ground']],
      nodes: [['a', 'g', 0, 0], ['b', 'g', 100, 0], ['c', 'g', 50, 200]],
      edges: [{ from: 'a', to: 'b', oneWay: true }, ['a', 'c'], ['c', 'b']],
    });
    expect(pointsOf(routeOf(findRoute(document, { node: 'a' }, { node: 'b' }, { stepFree: false })))).toEqual(['g:0,0', 'g:100,0']);
    expect(pointsOf(routeOf(findRoute(document, { node: 'b' }, { node: 'a' }, { stepFree: false })))).toEqual(['g:100,0', 'g:50,200', 'g:0,0']);
  });

  it('avoids links with steps when asked, and says when only a way with steps exists', () => {
    const document = networkDocument({
      floors: [['g', 'Ground'], ['f', 'First']],
      nodes: [['a', 'g', 0, 0], ['b', 'g', 100, 0], ['c', 'g', 50, 100], ['a2', 'f', 0, 0], ['d', 'f', 100, 100]],
      edges: [{ from: 'a', to: 'b', stepFree: false }, ['a', 'c'], ['c', 'b'], ['a2', 'd']],
      connectors: [{ id: 'esc', kind: 'escalator', nodes: ['a', 'a2'] }],
    });
    expect(pointsOf(routeOf(findRoute(document, { node: 'a' }, { node: 'b' }, { stepFree: true })))).toEqual(['g:0,0', 'g:50,100', 'g:100,0']);
    expect(pointsOf(routeOf(findRoute(document, { node: 'a' }, { node: 'b' }, { stepFree: false })))).toEqual(['g:0,0', 'g:100,0']);
    expect(findRoute(document, { node: 'b' }, { node: 'd' }, { stepFree: true })).toEqual({ ok: false, failure: { reason: 'no-step-free-path' } });
    expect(connectorsTaken(routeOf(findRoute(document, { node: 'b' }, { node: 'd' }, { stepFree: false })))).toEqual(['escalator']);
  });

  it('enters a location by its nearest entrance, or by the path point nearest it', () => {
    const document = networkDocument({
      floors: [['g', 'Ground']],
      nodes: [['a', 'g', 0, 0], ['b', 'g', 100, 0], ['c', 'g', 200, 0], ['d', 'g', 300, 0]],
      edges: [['a', 'b'], ['b', 'c'], ['c', 'd']],
      locations: [
        { id: 'start', layer: 'g', at: [5, 30] },
        { id: 'big', layer: 'g', at: [150, 50], entrances: ['b', 'd'] },
        { id: 'far', layer: 'g', at: [400, 50], entrances: ['b', 'd'] },
      ],
    });
    const toBig = routeOf(findRoute(document, { location: 'start' }, { location: 'big' }, { stepFree: false }));
    expect(toBig.from.node).toBe('a');
    expect(toBig.to).toEqual({ location: 'big', node: 'b' });
    const fromFar = routeOf(findRoute(document, { location: 'far' }, { node: 'a' }, { stepFree: false }));
    expect(fromFar.from).toEqual({ location: 'far', node: 'b' });
  });

  it('goes to the nearest location of a group, visible ones only', () => {
    const document = networkDocument({
      floors: [['g', 'Ground'], ['f', 'First']],
      groups: ['toilets'],
      nodes: [['a', 'g', 0, 0], ['b', 'g', 100, 0], ['c', 'g', 600, 0], ['a2', 'f', 0, 0], ['e', 'f', 50, 0]],
      edges: [['a', 'b'], ['b', 'c'], ['a2', 'e']],
      connectors: [{ id: 'lift', kind: 'lift', nodes: ['a', 'a2'] }],
      locations: [
        { id: 'wc-far', layer: 'g', at: [600, 10], groups: ['toilets'] },
        { id: 'wc-upstairs', layer: 'f', at: [50, 10], groups: ['toilets'] },
        { id: 'wc-closed', layer: 'g', at: [100, 10], groups: ['toilets'], hidden: true },
      ],
    });
    const route = routeOf(findRoute(document, { node: 'b' }, { group: 'toilets' }, { stepFree: false }));
    // b → a (10 m) + lift (25 m) + 5 m beats b → c (50 m); the hidden one next door is not offered.
    expect(route.to).toEqual({ location: 'wc-upstairs', node: 'e' });
    const fromFar = routeOf(findRoute(document, { node: 'c' }, { group: 'toilets' }, { stepFree: false }));
    expect(fromFar.to).toEqual({ location: 'wc-far', node: 'c' });
    expect(fromFar.distance).toBe(0);
  });

  it('names what fails: unknown ends, ends off the network, no way at all', () => {
    const document = networkDocument({
      floors: [['g', 'Ground'], ['empty', 'Empty floor']],
      groups: ['none'],
      nodes: [['a', 'g', 0, 0], ['b', 'g', 100, 0], ['island', 'g', 500, 500]],
      edges: [['a', 'b']],
      locations: [
        { id: 'here', layer: 'g', at: [0, 10] },
        { id: 'nowhere', layer: 'g' },
        { id: 'upstairs', layer: 'empty', at: [0, 0] },
      ],
    });
    const stepFree = { stepFree: false };
    expect(findRoute(document, { location: 'missing' }, { node: 'a' }, stepFree)).toEqual({ ok: false, failure: { reason: 'unknown-end', which: 'from' } });
    expect(findRoute(document, { node: 'a' }, { node: 'missing' }, stepFree)).toEqual({ ok: false, failure: { reason: 'unknown-end', which: 'to' } });
    expect(findRoute(document, { node: 'a' }, { group: 'missing' }, stepFree)).toEqual({ ok: false, failure: { reason: 'unknown-end', which: 'to' } });
    expect(findRoute(document, { node: 'a' }, { group: 'none' }, stepFree)).toEqual({ ok: false, failure: { reason: 'off-network', which: 'to' } });
    expect(findRoute(document, { location: 'nowhere' }, { node: 'a' }, stepFree)).toEqual({ ok: false, failure: { reason: 'off-network', which: 'from' } });
    expect(findRoute(document, { location: 'here' }, { location: 'upstairs' }, stepFree)).toEqual({ ok: false, failure: { reason: 'off-network', which: 'to' } });
    expect(findRoute(document, { location: 'here' }, { node: 'island' }, stepFree)).toEqual({ ok: false, failure: { reason: 'no-path' } });
    expect(findRoute(document, { location: 'here' }, { node: 'island' }, { stepFree: true })).toEqual({ ok: false, failure: { reason: 'no-path' } });
    // The graph is left as it was: the search's virtual ends are taken off after each search.
    expect(routeGraphOf(document).graph.getNodeCount()).toBe(3);
  });

  it('builds the graph once per network and again when the network changes', () => {
    const document = stairsOrLift();
    const graph = routeGraphOf(document);
    findRoute(document, { location: 'cafe' }, { location: 'books' }, { stepFree: false });
    findRoute(document, { location: 'cafe' }, { location: 'books' }, { stepFree: true });
    expect(routeGraphOf(document)).toBe(graph);
    expect(routeGraphOf({ paths: document.paths, layers: document.layers, settings: document.settings })).toBe(graph);
    const edited = { ...document, paths: { ...document.paths, edges: document.paths.edges.filter((e) => e.from !== 's0') } };
    expect(routeGraphOf(edited)).not.toBe(graph);
    expect(findRoute(edited, { location: 'cafe' }, { location: 'books' }, { stepFree: false })).toEqual({ ok: false, failure: { reason: 'no-path' } });
    expect(routeOf(findRoute(document, { location: 'cafe' }, { location: 'books' }, { stepFree: false })).floorChanges).toBe(1);
  });
});

/** A random network: up to three floors of a small grid, random links (some diagonal, some with steps, some one way), random connectors. */
const gridNetwork = fc
  .record({
    floors: fc.integer({ min: 1, max: 3 }),
    size: fc.integer({ min: 2, max: 5 }),
    spacing: fc.integer({ min: 5, max: 40 }),
    links: fc.array(fc.record({ on: fc.boolean(), stepFree: fc.boolean(), oneWay: fc.integer({ min: 0, max: 5 }) }), { minLength: 4 * 25 * 3, maxLength: 4 * 25 * 3 }),
    connectors: fc.array(
      fc.record({ x: fc.nat(4), y: fc.nat(4), shift: fc.nat(2), kind: fc.constantFrom<ConnectorKind>('lift', 'stairs', 'escalator', 'ramp'), floors: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }) }),
      { maxLength: 4 },
    ),
    pairs: fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 5 }),
  })
  .map(({ floors, size, spacing, links, connectors, pairs }) => {
    const id = (f: number, x: number, y: number) => `f${f}_${x}_${y}`;
    const fixture: Fixture = { floors: [], nodes: [], edges: [], connectors: [] };
    let link = 0;
    for (let f = 0; f < floors; f += 1) {
      fixture.floors.push([`floor${f}`, `Floor ${f}`]);
      for (let x = 0; x < size; x += 1) for (let y = 0; y < size; y += 1) fixture.nodes.push([id(f, x, y), `floor${f}`, x * spacing, y * spacing]);
      for (let x = 0; x < size; x += 1) {
        for (let y = 0; y < size; y += 1) {
          for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]] as const) {
            const choice = links[link++ % links.length]!;
            if (!choice.on || x + dx >= size || y + dy < 0 || y + dy >= size) continue;
            const reversed = choice.oneWay === 1;
            const [from, to] = reversed ? [id(f, x + dx, y + dy), id(f, x, y)] : [id(f, x, y), id(f, x + dx, y + dy)];
            fixture.edges.push({ from, to, stepFree: choice.stepFree, oneWay: choice.oneWay <= 1 });
          }
        }
      }
    }
    connectors.forEach((c, index) => {
      // Stops at the same place on each floor, or (shift) elsewhere: floors not drawn one above the other.
      const stops = c.floors.slice(0, floors).flatMap((on, f) => (on ? [id(f, (c.x + f * c.shift) % size, c.y % size)] : []));
      if (stops.length >= 2) fixture.connectors!.push({ id: `c${index}`, kind: c.kind, nodes: stops });
    });
    const ids = fixture.nodes.map((n) => n[0]);
    return { fixture, pairs: pairs.map(([a, b]) => [ids[a % ids.length]!, ids[b % ids.length]!] as const) };
  });

/** Every pair's cheapest cost (metres plus floor changes' worth), by Floyd–Warshall over the fixture as written. */
function allPairsCost(fixture: Fixture, stepFree: boolean): Map<string, Map<string, number>> {
  const ids = fixture.nodes.map((n) => n[0]);
  const at = new Map(fixture.nodes.map(([id, layer, x, y]) => [id, { layer, x, y }]));
  const floor = new Map(fixture.floors.map(([id], index) => [id, index]));
  const cost = new Map(ids.map((a) => [a, new Map(ids.map((b) => [b, a === b ? 0 : Infinity]))]));
  const offer = (a: string, b: string, c: number) => {
    if (c < cost.get(a)!.get(b)!) cost.get(a)!.set(b, c);
  };
  for (const edge of fixture.edges) {
    const e = Array.isArray(edge) ? { from: edge[0], to: edge[1], stepFree: true, oneWay: false } : edge;
    if (stepFree && e.stepFree === false) continue;
    const a = at.get(e.from)!;
    const b = at.get(e.to)!;
    const metres = Math.hypot(a.x - b.x, a.y - b.y) * 0.1;
    offer(e.from, e.to, metres);
    if (!e.oneWay) offer(e.to, e.from, metres);
  }
  for (const connector of fixture.connectors ?? []) {
    if (stepFree && (connector.kind === 'stairs' || connector.kind === 'escalator')) continue;
    for (const a of connector.nodes) {
      for (const b of connector.nodes) {
        if (a !== b) offer(a, b, connectorCost(Math.abs(floor.get(at.get(a)!.layer)! - floor.get(at.get(b)!.layer)!)));
      }
    }
  }
  for (const k of ids) for (const i of ids) for (const j of ids) offer(i, j, cost.get(i)!.get(k)! + cost.get(k)!.get(j)!);
  return cost;
}

/** What the route cost: its metres walked plus each floor change's worth. */
function routeCost(route: Route, floors: ReadonlyMap<string, number>): number {
  let cost = route.metres;
  for (let i = 1; i < route.legs.length; i += 1) cost += connectorCost(Math.abs(floors.get(route.legs[i]!.layer)! - floors.get(route.legs[i - 1]!.layer)!));
  return cost;
}

describe('findRoute on random grid networks', () => {
  it('costs what the brute-force shortest path costs, and step-free routes never take stairs or escalators', () => {
    fc.assert(
      fc.property(gridNetwork, ({ fixture, pairs }) => {
        const document = networkDocument(fixture);
        const floors = new Map(fixture.floors.map(([id], index) => [id, index]));
        for (const stepFree of [false, true]) {
          const best = allPairsCost(fixture, stepFree);
          const withSteps = stepFree ? allPairsCost(fixture, false) : best;
          for (const [from, to] of pairs) {
            const result = findRoute(document, { node: from }, { node: to }, { stepFree });
            const expected = best.get(from)!.get(to)!;
            if (expected === Infinity) {
              const reason = stepFree && withSteps.get(from)!.get(to)! < Infinity ? 'no-step-free-path' : 'no-path';
              expect(result).toEqual({ ok: false, failure: { reason } });
              continue;
            }
            const route = routeOf(result);
            expect(routeCost(route, floors)).toBeCloseTo(expected, 6);
            expect(route.from.node).toBe(from);
            expect(route.to.node).toBe(to);
            if (stepFree) expect(connectorsTaken(route).filter((kind) => kind === 'stairs' || kind === 'escalator')).toEqual([]);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
