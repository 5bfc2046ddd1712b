/**
 * The `PathsEdited` edits the path tool makes, built from the network as it stands: each user
 * action is one edit (one undo step, one line of the timeline). Pure; new ids come from `ids`.
 */
import type { Point } from '../../../../../events/map-document';
import type { ConnectorKind, PathEdge, PathNetwork, PathNode, PathsEdit } from '../../../../../events/path-network';

export type NewId = (kind: 'node' | 'edge' | 'conn') => string;

export function pathsEdit(parts: { nodes?: PathNode[]; edges?: PathEdge[]; connectors?: PathsEdit['put']['connectors']; removeNodes?: string[]; removeEdges?: string[]; removeConnectors?: string[] }): PathsEdit {
  return {
    type: 'PathsEdited',
    put: { nodes: parts.nodes ?? [], edges: parts.edges ?? [], connectors: parts.connectors ?? [] },
    removed: { nodes: parts.removeNodes ?? [], edges: parts.removeEdges ?? [], connectors: parts.removeConnectors ?? [] },
  };
}

/** Whether a link already joins a and b (either way). */
export function linked(network: PathNetwork, a: string, b: string): boolean {
  return network.edges.some((edge) => (edge.from === a && edge.to === b) || (edge.from === b && edge.to === a));
}

export function newEdge(ids: NewId, from: string, to: string, flags: Partial<Pick<PathEdge, 'stepFree' | 'oneWay'>> = {}): PathEdge {
  return { id: ids('edge'), from, to, stepFree: flags.stepFree ?? true, oneWay: flags.oneWay ?? false };
}

/**
 * A link cut in two at `point` by a new node (a path drawn into the middle of a corridor): the
 * old link goes, two take its place with its flags, in its direction (a one-way link stays one way).
 */
export function splitEdge(ids: NewId, edge: PathEdge, layer: string, point: Point): { node: PathNode; edit: PathsEdit } {
  const node: PathNode = { id: ids('node'), layer, x: point.x, y: point.y };
  const flags = { stepFree: edge.stepFree, oneWay: edge.oneWay };
  return {
    node,
    edit: pathsEdit({ nodes: [node], edges: [newEdge(ids, edge.from, node.id, flags), newEdge(ids, node.id, edge.to, flags)], removeEdges: [edge.id] }),
  };
}

/** Both edits as one: what a click that splits a link and joins it to the path does. */
export function mergeEdits(a: PathsEdit, b: PathsEdit): PathsEdit {
  return {
    type: 'PathsEdited',
    put: { nodes: [...a.put.nodes, ...b.put.nodes], edges: [...a.put.edges, ...b.put.edges], connectors: [...a.put.connectors, ...b.put.connectors] },
    removed: { nodes: [...a.removed.nodes, ...b.removed.nodes], edges: [...a.removed.edges, ...b.removed.edges], connectors: [...a.removed.connectors, ...b.removed.connectors] },
  };
}

export function moveNodeEdit(node: PathNode, to: Point): PathsEdit {
  return pathsEdit({ nodes: [{ ...node, x: to.x, y: to.y }] });
}

export function edgeFlagsEdit(edge: PathEdge, flags: Partial<Pick<PathEdge, 'stepFree' | 'oneWay'>>): PathsEdit {
  return pathsEdit({ edges: [{ ...edge, ...flags }] });
}

/** A one-way link turned round (walkable the other way only). */
export function reverseEdgeEdit(edge: PathEdge): PathsEdit {
  return pathsEdit({ edges: [{ ...edge, from: edge.to, to: edge.from }] });
}

export interface ConnectorDraft {
  kind: ConnectorKind;
  name: string;
  /** Where it stands (the same x, y on every floor it reaches). */
  at: Point;
  /** The floors it stops on, two at least. */
  layers: readonly string[];
}

/** A connector with one stop node per floor at the same x, y: one edit. */
export function connectorEdit(ids: NewId, draft: ConnectorDraft): PathsEdit {
  const nodes = draft.layers.map((layer): PathNode => ({ id: ids('node'), layer, x: draft.at.x, y: draft.at.y }));
  return pathsEdit({ nodes, connectors: [{ id: ids('conn'), kind: draft.kind, name: draft.name.trim(), nodes: nodes.map((node) => node.id) }] });
}
