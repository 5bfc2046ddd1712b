/**
 * The editor's "check network" (issue 17): what in a path network keeps visitors from getting
 * somewhere. Reachability is read on the network's main part, its largest connected component
 * over links and connectors (one-way links counted as joining, as a drawing mistake shows there
 * far more often than a one-way trap):
 * - unreachable locations: no way in at all (no entrance and no path point on their floor), a
 *   way in that is cut off on its own floor, or a floor whose paths reach no other floor's main part;
 * - locations reachable only with steps (no step-free way from the main part's step-free core);
 * - dead ends: points with a single link that are not an entrance (named, or the point a
 *   location is entered by) nor a connector's stop, where a drawn line stopped short;
 * - isolated points, and connector stops no link reaches.
 */
import type { MapDocument } from '../map-document.js';
import { STEP_FREE_CONNECTORS } from '../path-network.js';
import { entryNodes } from './find-route.js';
import { routeGraphOf } from './route-graph.js';

export type UnreachableReason =
  /** No entrance and no path point on its floor (or no position to find the nearest). */
  | 'no-entrance'
  /** Its entrances are on its floor's paths, but cut off from that floor's main part. */
  | 'apart-on-floor'
  /** It is on its floor's main part, but that floor is joined to the rest by no connector. */
  | 'floor-apart';

export interface NetworkCheck {
  unreachable: Array<{ location: string; layer: string; reason: UnreachableReason }>;
  /** Reachable, but only by stairs, escalators or links with steps. */
  stepsOnly: Array<{ location: string; layer: string }>;
  deadEnds: Array<{ node: string; layer: string }>;
  isolated: Array<{ node: string; layer: string }>;
  /** Connector stops at a point no link reaches. */
  loneStops: Array<{ connector: string; node: string; layer: string }>;
  /** Connected parts of the whole network (1 when everything hangs together). */
  components: number;
}

/** Union–find over node indexes: which points hang together. */
class Parts {
  private readonly parent: Int32Array;
  constructor(size: number) {
    this.parent = new Int32Array(size).map((_, i) => i);
  }
  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root]!;
    while (this.parent[i] !== root) {
      const next = this.parent[i]!;
      this.parent[i] = root;
      i = next;
    }
    return root;
  }
  join(a: number, b: number): void {
    this.parent[this.find(a)] = this.find(b);
  }
  /** The root of the largest part among `members` (all when omitted), or -1. */
  largest(members: Iterable<number>): number {
    const sizes = new Map<number, number>();
    let best = -1;
    let bestSize = 0;
    for (const i of members) {
      const root = this.find(i);
      const size = (sizes.get(root) ?? 0) + 1;
      sizes.set(root, size);
      if (size > bestSize) {
        best = root;
        bestSize = size;
      }
    }
    return best;
  }
}

export function checkNetwork(document: Pick<MapDocument, 'paths' | 'layers' | 'settings' | 'locations'>): NetworkCheck {
  const { nodes, edges, connectors } = document.paths;
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  const all = new Parts(nodes.length);
  const onFloor = new Parts(nodes.length);
  const stepFree = new Parts(nodes.length);
  const neighbours = nodes.map(() => new Set<number>());
  for (const edge of edges) {
    const a = index.get(edge.from);
    const b = index.get(edge.to);
    if (a === undefined || b === undefined) continue;
    all.join(a, b);
    onFloor.join(a, b);
    if (edge.stepFree) stepFree.join(a, b);
    neighbours[a]!.add(b);
    neighbours[b]!.add(a);
  }
  const stops = new Set<number>();
  for (const connector of connectors) {
    const members = connector.nodes.map((id) => index.get(id)).filter((i) => i !== undefined);
    for (const i of members) {
      stops.add(i);
      all.join(i, members[0]!);
      if (STEP_FREE_CONNECTORS.has(connector.kind)) stepFree.join(i, members[0]!);
    }
  }
  const everyIndex = nodes.map((_, i) => i);
  const main = all.largest(everyIndex);
  const stepFreeMain = stepFree.largest(everyIndex.filter((i) => all.find(i) === main));
  const floorMain = new Map<string, number>();
  const byFloor = new Map<string, number[]>();
  nodes.forEach((node, i) => {
    const members = byFloor.get(node.layer);
    if (members) members.push(i);
    else byFloor.set(node.layer, [i]);
  });
  for (const [layer, members] of byFloor) floorMain.set(layer, onFloor.largest(members));

  const routeGraph = routeGraphOf(document);
  const entrances = new Set<number>();
  const unreachable: NetworkCheck['unreachable'] = [];
  const stepsOnly: NetworkCheck['stepsOnly'] = [];
  for (const location of document.locations) {
    const entries = entryNodes(routeGraph, location).map((node) => index.get(node.id)!);
    for (const i of entries) entrances.add(i);
    if (location.hidden) continue;
    const where = { location: location.id, layer: location.layer };
    if (entries.length === 0) unreachable.push({ ...where, reason: 'no-entrance' });
    else if (!entries.some((i) => all.find(i) === main)) {
      const onMainOfFloor = entries.some((i) => onFloor.find(i) === floorMain.get(nodes[i]!.layer));
      unreachable.push({ ...where, reason: onMainOfFloor ? 'floor-apart' : 'apart-on-floor' });
    } else if (!entries.some((i) => stepFree.find(i) === stepFreeMain)) stepsOnly.push(where);
  }

  const deadEnds: NetworkCheck['deadEnds'] = [];
  const isolated: NetworkCheck['isolated'] = [];
  nodes.forEach((node, i) => {
    const degree = neighbours[i]!.size;
    if (degree === 1 && !entrances.has(i) && !stops.has(i)) deadEnds.push({ node: node.id, layer: node.layer });
    if (degree === 0 && !stops.has(i)) isolated.push({ node: node.id, layer: node.layer });
  });
  const loneStops = connectors.flatMap((connector) =>
    connector.nodes.flatMap((id) => {
      const i = index.get(id);
      return i !== undefined && neighbours[i]!.size === 0 ? [{ connector: connector.id, node: id, layer: nodes[i]!.layer }] : [];
    }),
  );
  const roots = new Set(everyIndex.map((i) => all.find(i)));
  return { unreachable, stepsOnly, deadEnds, isolated, loneStops, components: roots.size };
}
