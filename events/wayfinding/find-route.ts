/**
 * Routing (issue 17): the way between two places of a map over its path network, the shortest
 * by metres walked plus what floor changes are worth (route-costs.ts), or the shortest without
 * steps (no stairs, no escalators, no links with steps). Pure: the same answer in the viewer,
 * the editor and the server.
 *
 * The search is ngraph.path's A* over an ngraph.graph (route-graph.ts), chosen over graphology's
 * shortest paths because ngraph.path takes a heuristic, a per-search `blocked` test and oriented
 * links on one cached graph: the step-free search and one-way links need no second graph, and
 * the straight-line heuristic keeps a search on a 10,000-point network to a few milliseconds
 * (`npm run bench -- route`). Several starts (a location's entrances) and several goals (every
 * entrance of every location of a group) are one search: a virtual source linked to the starts
 * and a virtual sink the goals link to, added to the graph for the search and taken off after.
 */
import { aStar } from 'ngraph.path';
import type { Location, MapDocument, Point } from '../map-document.js';
import type { Connector, PathNode } from '../path-network.js';
import { connectorCost, connectorSeconds, FLOOR_CHANGE_COST, WALKING_SPEED } from './route-costs.js';
import { routeGraphOf, type GraphLinkData, type GraphNodeData, type RouteGraph } from './route-graph.js';
import { routeSteps } from './route-steps.js';
import type { Route, RouteEnd, RouteFailure, RouteLeg, RouteOptions, RouteResult, RouteTarget } from './route-types.js';

/** Ids no path point can have (ids are letters, digits and _ . : -), for the search's virtual ends. */
const SOURCE = '#source';
const SINK = '#sink';
/** Beyond this many goals the heuristic (the nearest goal's distance) costs more than it saves. */
const MAX_HEURISTIC_GOALS = 16;

type RoutingDocument = Pick<MapDocument, 'paths' | 'layers' | 'settings' | 'locations' | 'groups'>;

/** Where one end of a route may be: path points, each with the location it enters (if any). */
interface ResolvedEnd {
  nodes: Array<{ node: PathNode; location?: Location }>;
}

type Resolution = { ok: true; end: ResolvedEnd } | { ok: false; reason: 'unknown-end' | 'off-network' };

/** The path point nearest `point` on `layer`, or undefined when the floor has none. */
export function nearestNode(graph: RouteGraph, layer: string, point: Point): PathNode | undefined {
  let best: PathNode | undefined;
  let bestDistance = Infinity;
  for (const node of graph.nodesByLayer.get(layer) ?? []) {
    const distance = (node.x - point.x) ** 2 + (node.y - point.y) ** 2;
    if (distance < bestDistance) {
      best = node;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The points a visitor enters `location` by: its entrances, or when it names none the point
 * nearest its position on its own floor (for a region, its position stands for the region).
 */
export function entryNodes(graph: RouteGraph, location: Location): PathNode[] {
  const named = location.entrances.map((id) => graph.graph.getNode(id)?.data?.node).filter((node) => node !== undefined);
  if (named.length > 0) return named;
  if (!location.position) return [];
  const nearest = nearestNode(graph, location.layer, location.position);
  return nearest ? [nearest] : [];
}

function resolve(document: RoutingDocument, graph: RouteGraph, end: RouteTarget): Resolution {
  if ('node' in end) {
    const node = graph.graph.getNode(end.node)?.data?.node;
    return node ? { ok: true, end: { nodes: [{ node }] } } : { ok: false, reason: 'unknown-end' };
  }
  if ('location' in end) {
    const location = document.locations.find((l) => l.id === end.location);
    if (!location) return { ok: false, reason: 'unknown-end' };
    const nodes = entryNodes(graph, location).map((node) => ({ node, location }));
    return nodes.length > 0 ? { ok: true, end: { nodes } } : { ok: false, reason: 'off-network' };
  }
  if (!document.groups.some((g) => g.id === end.group)) return { ok: false, reason: 'unknown-end' };
  const nodes = document.locations
    .filter((location) => !location.hidden && location.groups.includes(end.group))
    .flatMap((location) => entryNodes(graph, location).map((node) => ({ node, location })));
  return nodes.length > 0 ? { ok: true, end: { nodes } } : { ok: false, reason: 'off-network' };
}

/** The path points of the cheapest way from a start to a goal (virtual ends left out), or null. */
function search(routeGraph: RouteGraph, starts: readonly PathNode[], goals: readonly PathNode[], stepFree: boolean): PathNode[] | null {
  const { graph, minScale, maxJump } = routeGraph;
  const zero: GraphLinkData = { cost: 0, stepFree: true };
  graph.addNode(SOURCE);
  graph.addNode(SINK);
  try {
    for (const start of starts) graph.addLink(SOURCE, start.id, zero);
    for (const goal of goals) graph.addLink(goal.id, SINK, zero);
    const guided = routeGraph.heuristicSafe && goals.length <= MAX_HEURISTIC_GOALS;
    const targets = goals.map((node) => ({ x: node.x, y: node.y, floor: graph.getNode(node.id)!.data!.floor }));
    // What reaching another floor costs at least. Where every connector stands in one place on
    // all its floors, a connector's whole cost (a straight walk plus it is never more than the
    // way left); else only what a floor change costs beyond the furthest jump in the plane.
    const floorPart = (floors: number) => (maxJump === 0 ? connectorCost(floors) : Math.max(0, FLOOR_CHANGE_COST - maxJump));
    // Straight-line metres to the nearest goal at the smallest scale of any floor, plus what
    // reaching its floor costs at least: never more than the way left, and consistent (it
    // drops by no more than a link costs; route-graph.ts says when), so A* stays exact.
    const nearest = (data: GraphNodeData | undefined, ends: ReadonlyArray<{ x: number; y: number; floor: number }>) => {
      if (!data) return 0;
      let best = Infinity;
      for (const end of ends) {
        const dx = end.x - data.node.x;
        const dy = end.y - data.node.y;
        const estimate = Math.sqrt(dx * dx + dy * dy) * minScale + (end.floor === data.floor ? 0 : floorPart(Math.abs(end.floor - data.floor)));
        if (estimate < best) best = estimate;
      }
      return best;
    };
    // (ngraph.path's bidirectional NBA* was tried too: on the benchmark's grid it spent the same
    // CPU time, so the simpler one-way search stays.)
    const finder = aStar(graph, {
      oriented: true,
      distance: (_from, _to, link) => link.data.cost,
      blocked: stepFree ? (_from, _to, link) => !link.data.stepFree : () => false,
      heuristic: guided ? (from) => nearest(from.data, targets) : () => 0,
    });
    const found = finder.find(SOURCE, SINK);
    // ngraph.path's A* answers the goal alone when it was only seen across a blocked link: a
    // path counts when it runs from the sink back to the source.
    if (found.length < 3 || found[found.length - 1]!.id !== SOURCE || found[0]!.id !== SINK) return null;
    return found
      .slice(1, -1)
      .reverse()
      .map((n) => n.data!.node);
  } finally {
    graph.removeNode(SOURCE);
    graph.removeNode(SINK);
  }
}

/** Consecutive points on one floor as a leg; a connector between floors starts the next. */
function legsOf(routeGraph: RouteGraph, nodes: readonly PathNode[]): { legs: RouteLeg[]; hops: Connector[] } {
  const legs: RouteLeg[] = [];
  const hops: Connector[] = [];
  let current: RouteLeg | undefined;
  nodes.forEach((node, index) => {
    const previous = nodes[index - 1];
    // Links between floors are connectors' alone (an edge stays on its floor).
    if (previous && previous.layer !== node.layer) hops.push(routeGraph.graph.getLink(previous.id, node.id)!.data.connector!);
    if (!current || current.layer !== node.layer) {
      current = { layer: node.layer, points: [], distance: 0 };
      legs.push(current);
    }
    const last = current.points[current.points.length - 1];
    if (last) current.distance += Math.hypot(node.x - last.x, node.y - last.y);
    current.points.push({ x: node.x, y: node.y });
  });
  return { legs, hops };
}

/**
 * The route from `from` to `to` (a place, or the nearest location of a group), or why there is
 * none: an end unknown to the document, an end the network does not reach ('off-network': a
 * location with no entrance and no path point on its floor), 'no-step-free-path' when only a
 * way with steps joins them, else 'no-path'.
 */
export function findRoute(document: RoutingDocument, from: RouteEnd, to: RouteTarget, options: RouteOptions): RouteResult {
  const routeGraph = routeGraphOf(document);
  const start = resolve(document, routeGraph, from);
  if (!start.ok) return failure({ reason: start.reason, which: 'from' });
  const goal = resolve(document, routeGraph, to);
  if (!goal.ok) return failure({ reason: goal.reason, which: 'to' });
  const starts = start.end.nodes.map((n) => n.node);
  const goals = goal.end.nodes.map((n) => n.node);
  const nodes = search(routeGraph, starts, goals, options.stepFree);
  if (!nodes) {
    const withSteps = options.stepFree ? search(routeGraph, starts, goals, false) : null;
    return failure({ reason: withSteps ? 'no-step-free-path' : 'no-path' });
  }
  const first = nodes[0]!;
  const last = nodes[nodes.length - 1]!;
  const fromLocation = start.end.nodes.find((n) => n.node.id === first.id)?.location;
  const toLocation = goal.end.nodes.find((n) => n.node.id === last.id)?.location;
  const { legs, hops } = legsOf(routeGraph, nodes);
  const distance = legs.reduce((sum, leg) => sum + leg.distance, 0);
  const metres = legs.reduce((sum, leg) => sum + leg.distance * (routeGraph.scales.get(leg.layer) ?? routeGraph.minScale), 0);
  const floorIndex = new Map(document.layers.map((layer, index) => [layer.id, index]));
  const floorOf = (layer: string) => floorIndex.get(layer) ?? 0;
  const rideSeconds = hops.reduce((sum, hop, i) => sum + connectorSeconds(hop.kind, Math.abs(floorOf(legs[i + 1]!.layer) - floorOf(legs[i]!.layer))), 0);
  const pointOf = (id: string) => routeGraph.graph.getNode(id)?.data?.node;
  const route: Route = {
    from: fromLocation ? { location: fromLocation.id, node: first.id } : { node: first.id },
    to: toLocation ? { location: toLocation.id, node: last.id } : { node: last.id },
    stepFree: options.stepFree,
    legs,
    steps: routeSteps(document, legs, hops, { from: fromLocation, to: toLocation }, routeGraph.scales, pointOf),
    distance,
    metres,
    seconds: metres / WALKING_SPEED + rideSeconds,
    floorChanges: hops.length,
  };
  return { ok: true, route };
}

function failure(reason: RouteFailure): RouteResult {
  return { ok: false, failure: reason };
}
