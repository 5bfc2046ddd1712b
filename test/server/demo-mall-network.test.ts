/**
 * The demo mall's path network (issue 17, part 6): it runs where the corridors are drawn, holds
 * together on both floors, reaches every location (step-free from the main entrance), has two
 * lifts, stairs and an escalator, and one named pair whose step-free route differs from the
 * shortest (the stairs against Lift A).
 */
import { describe, expect, it } from 'vitest';
import type { PathNode } from '../../events/path-network.js';
import { checkNetwork } from '../../events/wayfinding/check-network.js';
import en from 'virtual:viewer-messages/en';
import { stepSentence, type StepWordsOptions } from '../../client/src/i18n/route-words.js';
import { createTranslator } from '../../client/src/i18n/translator.js';
import { findRoute } from '../../events/wayfinding/find-route.js';
import type { Route, RouteResult, RouteStep } from '../../events/wayfinding/route-types.js';
import { DEMO_FLOORS, demoMallDocument } from '../../server/seed/demo-mall.js';
import { DEMO_STEP_FREE_PAIR } from '../../server/seed/demo-mall-paths.js';

/** A step in English: the English catalogue's words, as the editor shows them. */
const english = createTranslator('en', en);
const describeStep = (step: RouteStep, options?: StepWordsOptions) => stepSentence(english, step, options);

function routeOf(result: RouteResult): Route {
  if (!result.ok) throw new Error(`no route: ${JSON.stringify(result.failure)}`);
  return result.route;
}

const document = demoMallDocument();

describe('the demo mall network', () => {
  it('holds together: no unreachable location, dead end, lone stop or separate part', () => {
    expect(checkNetwork(document)).toEqual({ unreachable: [], stepsOnly: [], deadEnds: [], isolated: [], loneStops: [], components: 1 });
    expect(document.paths.connectors.map((c) => `${c.kind}:${c.name}`).sort()).toEqual([
      'escalator:Atrium escalator',
      'lift:Lift A',
      'lift:Lift B',
      'stairs:West stairs',
    ]);
    expect(new Set(document.paths.nodes.map((n) => n.layer))).toEqual(new Set(['ground', 'level-1']));
  });

  it('runs where the plans draw walkways: in the corridors, or from a shop\'s door straight to the corridor', () => {
    // The floor plans' corridors (demo-mall.ts floorPlanSvg): across the mall and across it north–south.
    const inCorridor = (n: PathNode) => (n.y >= 350 && n.y <= 450 && n.x >= 40 && n.x <= 1160) || (n.x >= 560 && n.x <= 640 && n.y >= 40 && n.y <= 760);
    const doors = new Map<string, PathNode>();
    for (const floor of DEMO_FLOORS) {
      for (const shop of floor.shops) {
        const location = document.locations.find((l) => l.id === shop.id)!;
        expect(location.entrances).toHaveLength(1);
        const door = document.paths.nodes.find((n) => n.id === location.entrances[0])!;
        const [x, y, w, h] = shop.rect;
        // On the shop's outline, on the side that faces the corridor.
        expect(door.layer).toBe(floor.id);
        expect(door.x).toBeGreaterThan(x);
        expect(door.x).toBeLessThan(x + w);
        expect([y, y + h]).toContain(door.y);
        expect(Math.abs(door.y - 400)).toBeLessThanOrEqual(60);
        doors.set(door.id, door);
      }
    }
    const byId = new Map(document.paths.nodes.map((n) => [n.id, n]));
    for (const node of document.paths.nodes) expect(inCorridor(node) || doors.has(node.id), node.id).toBe(true);
    for (const edge of document.paths.edges) {
      const [a, b] = [byId.get(edge.from)!, byId.get(edge.to)!];
      // Along a corridor, or a door's short straight way into it.
      expect(a.x === b.x || a.y === b.y, edge.id).toBe(true);
      if (doors.has(a.id) || doors.has(b.id)) expect(inCorridor(doors.has(a.id) ? b : a), edge.id).toBe(true);
    }
  });

  it('reaches every location step-free from the main entrance, by each location\'s entrance', () => {
    for (const location of document.locations) {
      if (location.id === 'g-entrance') continue;
      const route = routeOf(findRoute(document, { location: 'g-entrance' }, { location: location.id }, { stepFree: true }));
      expect(route.to).toEqual({ location: location.id, node: location.entrances[0] });
      expect(route.steps.some((s) => s.connector?.kind === 'stairs' || s.connector?.kind === 'escalator')).toBe(false);
    }
  });

  it('has a pair whose step-free route takes Lift A where the shortest takes the stairs', () => {
    const { from, to } = DEMO_STEP_FREE_PAIR;
    const names = [from, to].map((id) => document.locations.find((l) => l.id === id)!.title);
    expect(names).toEqual(['Urban Thread', 'Cinema Royale']);
    const shortest = routeOf(findRoute(document, { location: from }, { location: to }, { stepFree: false }));
    const stepFree = routeOf(findRoute(document, { location: from }, { location: to }, { stepFree: true }));
    expect(shortest.steps.map((s) => describeStep(s))).toEqual([
      'Start at Urban Thread',
      'Turn right',
      'Take West stairs to Level 1',
      'Turn left',
      'Cinema Royale is ahead',
    ]);
    expect(stepFree.steps.map((s) => describeStep(s))).toEqual([
      'Start at Urban Thread',
      'Turn right',
      'Take Lift A to Level 1',
      'Turn right after FitZone Gym',
      'Cinema Royale is ahead',
    ]);
    expect(stepFree.metres).toBeGreaterThan(shortest.metres * 2);
    expect(stepFree.floorChanges).toBe(1);
  });

  it('finds the nearest of a group across floors (the nearest food from the cinema is upstairs)', () => {
    const route = routeOf(findRoute(document, { location: 'l1-cinema' }, { group: 'food' }, { stepFree: true }));
    expect(route.floorChanges).toBe(0);
    expect(document.locations.find((l) => l.id === route.to.location)!.groups).toContain('food');
  });
});
