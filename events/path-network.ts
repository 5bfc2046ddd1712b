/**
 * The path network of a map (wayfinding): on each floor, points (nodes) joined by walkable links
 * (edges: walkways, corridors, doors); between floors, connectors (a lift, stairs, an escalator,
 * a ramp) that stop at one node on each floor they reach. Locations name the nodes visitors
 * enter them by (`entrances`); a location that names none is entered at the node nearest to it.
 *
 * The network is a store of typed records (node, edge, connector) changed by one edit,
 * `PathsEdited`: records put (added or replaced whole, by id) and ids removed. Removing a node
 * takes with it the edges that end at it, its stop in any connector (a connector left with fewer
 * than two stops goes) and its place in locations' entrances.
 */
import { z } from 'zod';
import { CONNECTOR_KINDS } from './connector-kinds.js';

import { ElementId as Id } from './element-id.js';

/** Records a network holds at most: a large airport's floors, with room to spare. */
export const MAX_PATH_NODES = 50_000;
export const MAX_PATH_EDGES = 100_000;
export const MAX_CONNECTORS = 2_000;
/** Records one `PathsEdited` carries at most, per kind. */
export const PATHS_EDIT_CHUNK = 10_000;

// The kinds live apart from the schemas (routing reads them without zod); named here as before.
export { CONNECTOR_KINDS, STEP_FREE_CONNECTORS, type ConnectorKind } from './connector-kinds.js';

/** A point of the network on one floor, in the floor's coordinates (like a location's position). */
export const PathNode = z.object({
  id: Id,
  layer: Id,
  x: z.number().finite(),
  y: z.number().finite(),
});
export type PathNode = z.infer<typeof PathNode>;

/** A walkable link between two nodes of one floor. */
export const PathEdge = z.object({
  id: Id,
  from: Id,
  to: Id,
  /** False where the link has steps (a kerb, a short stair inside a floor). */
  stepFree: z.boolean().default(true),
  /** Walkable from `from` to `to` only (a one-way gate, an exit lane). */
  oneWay: z.boolean().default(false),
});
export type PathEdge = z.infer<typeof PathEdge>;

/** A way between floors: its stops are nodes on different floors, all reachable from each other. */
export const Connector = z.object({
  id: Id,
  kind: z.enum(CONNECTOR_KINDS),
  /** Shown in directions ("Take Lift A to Level 1"); empty for "the lift". */
  name: z.string({ error: 'must be text' }).trim().max(100, 'must be at most 100 characters').default(''),
  nodes: z.array(Id).min(2, 'must stop on at least two floors').max(100),
});
export type Connector = z.infer<typeof Connector>;

export const PathNetwork = z.object({
  nodes: z.array(PathNode).max(MAX_PATH_NODES, `at most ${MAX_PATH_NODES} path points`).default([]),
  edges: z.array(PathEdge).max(MAX_PATH_EDGES, `at most ${MAX_PATH_EDGES} path links`).default([]),
  connectors: z.array(Connector).max(MAX_CONNECTORS, `at most ${MAX_CONNECTORS} connectors`).default([]),
});
export type PathNetwork = z.infer<typeof PathNetwork>;

export function emptyPathNetwork(): PathNetwork {
  return { nodes: [], edges: [], connectors: [] };
}

/** The one edit of the network: records put whole (added or replaced) and ids removed; removals first. */
export const PathsEdit = z.object({
  type: z.literal('PathsEdited'),
  put: z
    .object({
      nodes: z.array(PathNode).max(PATHS_EDIT_CHUNK).default([]),
      edges: z.array(PathEdge).max(PATHS_EDIT_CHUNK).default([]),
      connectors: z.array(Connector).max(PATHS_EDIT_CHUNK).default([]),
    })
    .default({ nodes: [], edges: [], connectors: [] }),
  removed: z
    .object({
      nodes: z.array(Id).max(PATHS_EDIT_CHUNK).default([]),
      edges: z.array(Id).max(PATHS_EDIT_CHUNK).default([]),
      connectors: z.array(Id).max(PATHS_EDIT_CHUNK).default([]),
    })
    .default({ nodes: [], edges: [], connectors: [] }),
});
export type PathsEdit = z.infer<typeof PathsEdit>;

/** Where a network does not hold together ("field: problem"), or null. Sets, not scans. */
export function checkPathNetwork(network: PathNetwork, layerIds: ReadonlySet<string>): string | null {
  if (network.nodes.length > MAX_PATH_NODES) return `paths.nodes: a map has at most ${MAX_PATH_NODES} path points`;
  if (network.edges.length > MAX_PATH_EDGES) return `paths.edges: a map has at most ${MAX_PATH_EDGES} path links`;
  if (network.connectors.length > MAX_CONNECTORS) return `paths.connectors: a map has at most ${MAX_CONNECTORS} connectors`;
  const nodeLayer = new Map<string, string>();
  for (const [index, node] of network.nodes.entries()) {
    if (nodeLayer.has(node.id)) return `paths.nodes.${index}.id: repeats the id ${node.id}`;
    if (!layerIds.has(node.layer)) return `paths.nodes.${index}.layer: there is no layer ${node.layer}`;
    nodeLayer.set(node.id, node.layer);
  }
  const edgeIds = new Set<string>();
  for (const [index, edge] of network.edges.entries()) {
    if (edgeIds.has(edge.id)) return `paths.edges.${index}.id: repeats the id ${edge.id}`;
    edgeIds.add(edge.id);
    const from = nodeLayer.get(edge.from);
    const to = nodeLayer.get(edge.to);
    if (from === undefined) return `paths.edges.${index}.from: there is no path point ${edge.from}`;
    if (to === undefined) return `paths.edges.${index}.to: there is no path point ${edge.to}`;
    if (edge.from === edge.to) return `paths.edges.${index}.to: a link joins two different points`;
    if (from !== to) return `paths.edges.${index}.to: a link stays on one floor (a connector joins floors)`;
  }
  const connectorIds = new Set<string>();
  for (const [index, connector] of network.connectors.entries()) {
    if (connectorIds.has(connector.id)) return `paths.connectors.${index}.id: repeats the id ${connector.id}`;
    connectorIds.add(connector.id);
    const floors = new Set<string>();
    for (const [stop, node] of connector.nodes.entries()) {
      const layer = nodeLayer.get(node);
      if (layer === undefined) return `paths.connectors.${index}.nodes.${stop}: there is no path point ${node}`;
      if (floors.has(layer)) return `paths.connectors.${index}.nodes.${stop}: a connector stops once on each floor`;
      floors.add(layer);
    }
  }
  return null;
}

/** The first of `entrances` that is not one of the network's nodes (`nodeIds`), or null. */
export function missingEntrance(nodeIds: ReadonlySet<string>, entrances: readonly string[]): string | null {
  return entrances.find((id) => !nodeIds.has(id)) ?? null;
}

function replaceById<T extends { id: string }>(items: readonly T[], removed: ReadonlySet<string>, put: readonly T[]): T[] {
  if (removed.size === 0 && put.length === 0) return items as T[];
  const replacing = new Map(put.map((item) => [item.id, item]));
  const kept = items.filter((item) => !removed.has(item.id)).map((item) => {
    const next = replacing.get(item.id);
    if (next) replacing.delete(item.id);
    return next ?? item;
  });
  return [...kept, ...replacing.values()];
}

/**
 * The network after removing and putting what `edit` says, with the removals' consequences:
 * edges at a removed node go, a removed node leaves its connectors (a connector with fewer than
 * two stops goes). Ids removed that the network lacks are passed over. Also answers the node
 * ids that went, for locations' entrances.
 */
export function applyPathsEdit(network: PathNetwork, edit: PathsEdit): { network: PathNetwork; removedNodes: ReadonlySet<string> } {
  // A set of the network's ids, not a scan per id: one edit may remove 10,000 ids of a 50,000-point network.
  const nodeIds = edit.removed.nodes.length > 0 ? new Set(network.nodes.map((n) => n.id)) : null;
  const removedNodes = new Set(edit.removed.nodes.filter((id) => nodeIds!.has(id)));
  const putNodes = new Set(edit.put.nodes.map((n) => n.id));
  for (const id of putNodes) removedNodes.delete(id);
  const removedEdges = new Set(edit.removed.edges);
  const removedConnectors = new Set(edit.removed.connectors);
  const nodes = replaceById(network.nodes, removedNodes, edit.put.nodes);
  let edges = replaceById(network.edges, removedEdges, edit.put.edges);
  let connectors = replaceById(network.connectors, removedConnectors, edit.put.connectors);
  if (removedNodes.size > 0) {
    edges = edges.filter((e) => !removedNodes.has(e.from) && !removedNodes.has(e.to));
    connectors = connectors.flatMap((c) => {
      if (!c.nodes.some((n) => removedNodes.has(n))) return [c];
      const stops = c.nodes.filter((n) => !removedNodes.has(n));
      return stops.length >= 2 ? [{ ...c, nodes: stops }] : [];
    });
  }
  return { network: { nodes, edges, connectors }, removedNodes };
}

/** The network without the nodes of one floor (and what hangs on them): a removed floor's paths. */
export function withoutLayer(network: PathNetwork, layer: string): { network: PathNetwork; removedNodes: ReadonlySet<string> } {
  const ids = network.nodes.filter((n) => n.layer === layer).map((n) => n.id);
  if (ids.length === 0) return { network, removedNodes: new Set() };
  return applyPathsEdit(network, { type: 'PathsEdited', put: { nodes: [], edges: [], connectors: [] }, removed: { nodes: ids, edges: [], connectors: [] } });
}

/** The record-level difference that takes `after` back to `before` (for undo). */
export function pathsEditBetween(after: PathNetwork, before: PathNetwork): PathsEdit {
  const diff = <T extends { id: string }>(now: readonly T[], then: readonly T[]) => {
    const thenById = new Map(then.map((item) => [item.id, item]));
    const nowIds = new Set(now.map((item) => item.id));
    const removed = now.filter((item) => !thenById.has(item.id)).map((item) => item.id);
    const nowById = new Map(now.map((item) => [item.id, item]));
    const put = then.filter((item) => !nowIds.has(item.id) || nowById.get(item.id) !== item);
    return { put, removed };
  };
  const nodes = diff(after.nodes, before.nodes);
  const edges = diff(after.edges, before.edges);
  const connectors = diff(after.connectors, before.connectors);
  return {
    type: 'PathsEdited',
    put: { nodes: nodes.put, edges: edges.put, connectors: connectors.put },
    removed: { nodes: nodes.removed, edges: edges.removed, connectors: connectors.removed },
  };
}

export function isEmptyPathsEdit(edit: PathsEdit): boolean {
  const { put, removed } = edit;
  return put.nodes.length + put.edges.length + put.connectors.length + removed.nodes.length + removed.edges.length + removed.connectors.length === 0;
}

/**
 * The edit without removals of records the network does not hold: a peer may have removed them
 * first (removing is idempotent, so that is no error), and what was never there must not be
 * recorded — one editMap naming 100,000 unknown ids would otherwise put megabytes in the log
 * that every reader replays for nothing. The same edit object when nothing is pruned.
 */
export function withoutUnknownRemovals(network: PathNetwork, edit: PathsEdit): PathsEdit {
  const { removed } = edit;
  const keep = (ids: readonly string[], records: readonly { id: string }[]): string[] | null => {
    if (ids.length === 0) return null;
    const held = new Set(records.map((record) => record.id));
    const known = ids.filter((id) => held.has(id));
    return known.length === ids.length ? null : known;
  };
  const nodes = keep(removed.nodes, network.nodes);
  const edges = keep(removed.edges, network.edges);
  const connectors = keep(removed.connectors, network.connectors);
  if (!nodes && !edges && !connectors) return edit;
  return { ...edit, removed: { nodes: nodes ?? removed.nodes, edges: edges ?? removed.edges, connectors: connectors ?? removed.connectors } };
}
