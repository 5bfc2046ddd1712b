/**
 * The demo mall's path network (issue 17): the walkways drawn on both floors' plans (the long
 * corridor across the mall at y 350–450 and the cross corridor at x 560–640), a door at the
 * corridor side of every shop, two lifts, stairs and an escalator between the floors, and the
 * main entrance on the ground floor, step-free. Built from the same floor data as the drawings
 * (demo-mall.ts), so the paths run where the corridors are drawn.
 *
 * Stairs (x 220) and the escalator (x 520) are nearer the west of the mall than the lifts
 * (Lift A by the atrium at x 700, Lift B at the north end of the cross corridor): from Urban
 * Thread (ground, west) to Cinema Royale (Level 1, west) the shortest route takes the stairs,
 * the step-free one Lift A ({@link DEMO_STEP_FREE_PAIR}).
 */
import type { Connector, PathEdge, PathNetwork, PathNode } from '../../events/path-network.js';
import type { DemoFloor } from './demo-mall.js';

/** The corridor's centre line across the mall, and the cross corridor's. */
const CORRIDOR_Y = 400;
const CROSS_X = 600;
/** The north end of the cross corridor (Lift B), and the main entrance's door in the south wall. */
const NORTH_Y = 80;
const ENTRANCE: [number, number] = [600, 760];

/** The floors' connectors: where they stand (the same spot on each floor) and what they are. */
const CONNECTORS: Array<{ id: string; kind: Connector['kind']; name: string; at: [number, number] }> = [
  { id: 'lift-a', kind: 'lift', name: 'Lift A', at: [700, CORRIDOR_Y] },
  { id: 'lift-b', kind: 'lift', name: 'Lift B', at: [CROSS_X, NORTH_Y] },
  { id: 'stairs', kind: 'stairs', name: 'West stairs', at: [220, CORRIDOR_Y] },
  { id: 'escalator', kind: 'escalator', name: 'Atrium escalator', at: [520, CORRIDOR_Y] },
];

/** Locations whose step-free route differs from the shortest (stairs against Lift A). */
export const DEMO_STEP_FREE_PAIR = { from: 'g-urbanthread', to: 'l1-cinema' } as const;

export interface DemoNetwork {
  paths: PathNetwork;
  /** The path points each location is entered by, by location id. */
  entrances: Record<string, string[]>;
}

export function demoMallNetwork(floors: readonly DemoFloor[]): DemoNetwork {
  const nodes: PathNode[] = [];
  const edges: PathEdge[] = [];
  const entrances: Record<string, string[]> = {};
  const stops = new Map<string, string[]>(CONNECTORS.map((c) => [c.id, []]));
  for (const floor of floors) {
    const prefix = floor.id === 'ground' ? 'g' : floor.id;
    const corridor = (x: number) => `${prefix}-c${x}`;
    const xs = new Set<number>([CROSS_X, ...CONNECTORS.filter((c) => c.at[1] === CORRIDOR_Y).map((c) => c.at[0])]);
    const link = (from: string, to: string) => edges.push({ id: `${from}-${to}`, from, to, stepFree: true, oneWay: false });
    // Each shop's door on its corridor side, joined straight to the corridor in front of it.
    for (const shop of floor.shops) {
      const [x, y, w, h] = shop.rect;
      const door = `${prefix}-door-${shop.id}`;
      const doorX = x + w / 2;
      nodes.push({ id: door, layer: floor.id, x: doorX, y: y + h <= CORRIDOR_Y ? y + h : y });
      xs.add(doorX);
      link(door, corridor(doorX));
      entrances[shop.id] = [door];
    }
    // Services in the corridor are entered where they stand; the main entrance at its door.
    for (const point of floor.points) {
      const [x, y] = point.at;
      if (y === CORRIDOR_Y) {
        xs.add(x);
        entrances[point.id] = [corridor(x)];
      }
    }
    const line = [...xs].sort((a, b) => a - b);
    for (const x of line) nodes.push({ id: corridor(x), layer: floor.id, x, y: CORRIDOR_Y });
    line.slice(1).forEach((x, i) => link(corridor(line[i]!), corridor(x)));
    // The cross corridor: north to Lift B on every floor, south to the main entrance on the ground.
    const north = `${prefix}-north`;
    nodes.push({ id: north, layer: floor.id, x: CROSS_X, y: NORTH_Y });
    link(corridor(CROSS_X), north);
    // The main entrance is the point drawn at the mall's south wall (outside the shops' rows).
    const entrance = floor.points.find((p) => p.at[1] >= ENTRANCE[1]);
    if (entrance) {
      const door = `${prefix}-entrance`;
      nodes.push({ id: door, layer: floor.id, x: ENTRANCE[0], y: ENTRANCE[1] });
      link(corridor(CROSS_X), door);
      entrances[entrance.id] = [door];
    }
    for (const connector of CONNECTORS) {
      stops.get(connector.id)!.push(connector.at[1] === CORRIDOR_Y ? corridor(connector.at[0]) : north);
    }
  }
  const connectors = CONNECTORS.map(({ id, kind, name }) => ({ id, kind, name, nodes: stops.get(id)! }));
  return { paths: { nodes, edges, connectors }, entrances };
}
