/**
 * The routing graph of a map's path network (ngraph.graph, searched by ngraph.path): one graph
 * node per path point, an oriented link per direction a visitor may walk (two for a two-way
 * edge, one for a one-way edge), and links between every two stops of a connector, both ways.
 * Link costs are metres (see route-costs.ts). Built once per network and kept while the
 * document's `paths` object (and its floors) stay the same: edits replace `paths` with a new
 * object, so a cached graph never outlives what it was built from.
 */
import createGraph, { type Graph } from 'ngraph.graph';
import type { MapDocument } from '../map-document.js';
import type { Connector, PathNode } from '../path-network.js';
import { STEP_FREE_CONNECTORS } from '../connector-kinds.js';
import { connectorCost, metresPerUnit } from './route-costs.js';

export interface GraphNodeData {
  node: PathNode;
  /** The floor's place in the document's layers (floors apart = index difference). */
  floor: number;
  /** Metres per map unit on the node's floor. */
  scale: number;
}

export interface GraphLinkData {
  /** Metres (walked, or what the floor change is worth). */
  cost: number;
  stepFree: boolean;
  /** Set on links between floors. */
  connector?: Connector;
}

export interface RouteGraph {
  graph: Graph<GraphNodeData | undefined, GraphLinkData>;
  /** Path points by floor, for the point nearest a location. */
  nodesByLayer: ReadonlyMap<string, readonly PathNode[]>;
  /** Metres per unit by floor id. */
  scales: ReadonlyMap<string, number>;
  /** The smallest metres per unit of any floor (the A* heuristic's scale, so it never overestimates). */
  minScale: number;
  /**
   * Whether the straight-line heuristic is safe: true when no connector's stops lie further
   * apart (in metres at `minScale`) than the connector costs, which holds when floors are drawn
   * one above the other (a lift's stops at the same place on each floor). Otherwise searches
   * run without a heuristic (Dijkstra), still exact, only slower.
   */
  heuristicSafe: boolean;
  /** The furthest apart two stops of one connector lie, in metres at `minScale` (0 when every connector stands in one place). */
  maxJump: number;
}

interface Cached {
  layers: MapDocument['layers'];
  size: MapDocument['settings']['size'];
  graph: RouteGraph;
}

const cache = new WeakMap<MapDocument['paths'], Cached>();

/** The graph of `document`'s network, built on first use and cached per `document.paths`. */
export function routeGraphOf(document: Pick<MapDocument, 'paths' | 'layers' | 'settings'>): RouteGraph {
  const cached = cache.get(document.paths);
  if (cached && cached.layers === document.layers && cached.size === document.settings.size) return cached.graph;
  const graph = buildRouteGraph(document);
  cache.set(document.paths, { layers: document.layers, size: document.settings.size, graph });
  return graph;
}

export function buildRouteGraph(document: Pick<MapDocument, 'paths' | 'layers' | 'settings'>): RouteGraph {
  const graph = createGraph<GraphNodeData | undefined, GraphLinkData>();
  const floors = new Map(document.layers.map((layer, index) => [layer.id, index]));
  const scales = new Map(document.layers.map((layer) => [layer.id, metresPerUnit(layer, document.settings)]));
  const minScale = Math.min(...scales.values());
  const nodesByLayer = new Map<string, PathNode[]>();
  for (const node of document.paths.nodes) {
    graph.addNode(node.id, { node, floor: floors.get(node.layer) ?? 0, scale: scales.get(node.layer) ?? minScale });
    const list = nodesByLayer.get(node.layer);
    if (list) list.push(node);
    else nodesByLayer.set(node.layer, [node]);
  }
  // Two records joining the same points the same way cost the same (the same straight line, or
  // the same floors); the step-free one is kept, so neither search loses a way it may take.
  const link = (from: string, to: string, data: GraphLinkData) => {
    const existing = graph.getLink(from, to);
    if (!existing) graph.addLink(from, to, data);
    else if (data.stepFree && !existing.data.stepFree) existing.data = data;
  };
  for (const edge of document.paths.edges) {
    const from = graph.getNode(edge.from);
    const to = graph.getNode(edge.to);
    if (!from?.data || !to?.data) continue;
    const cost = Math.hypot(to.data.node.x - from.data.node.x, to.data.node.y - from.data.node.y) * from.data.scale;
    link(edge.from, edge.to, { cost, stepFree: edge.stepFree });
    if (!edge.oneWay) link(edge.to, edge.from, { cost, stepFree: edge.stepFree });
  }
  let heuristicSafe = Number.isFinite(minScale);
  let maxJump = 0;
  for (const connector of document.paths.connectors) {
    const stepFree = STEP_FREE_CONNECTORS.has(connector.kind);
    const stops = connector.nodes.map((id) => graph.getNode(id)?.data).filter((data) => data !== undefined);
    for (const a of stops) {
      for (const b of stops) {
        if (a === b || a.node.layer === b.node.layer) continue;
        const cost = connectorCost(Math.abs(a.floor - b.floor));
        const jump = Math.hypot(a.node.x - b.node.x, a.node.y - b.node.y) * minScale;
        if (jump > cost) heuristicSafe = false;
        maxJump = Math.max(maxJump, jump);
        link(a.node.id, b.node.id, { cost, stepFree, connector });
      }
    }
  }
  return { graph, nodesByLayer, scales, minScale, heuristicSafe, maxJump };
}
