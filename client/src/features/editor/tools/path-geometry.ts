/**
 * Where the pointer is on the path network of one floor: the node or link under it, and the
 * point a click lays once snapped (onto a node near it, or onto a right angle from the previous
 * node). Pure, in map units: callers pass how many map units one screen pixel is (`scale`), so
 * "within 10 px" means the same on screen at any zoom.
 */
import type { Point } from '../../../../../events/map-document';
import type { PathEdge, PathNetwork, PathNode } from '../../../../../events/path-network';

/** How near (screen px) the pointer must be to a node or a link to be on it. */
export const HIT_PX = 10;
/** How far (degrees) from a right angle (or 45°) a direction snaps onto it. */
export const ANGLE_SNAP_DEGREES = 8;
/** How far (screen px) a press moves before it is a drag (or a pan) rather than a click. */
export const DRAG_PX = 4;

export const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** The nearest node of `layer` within `HIT_PX` screen pixels of `at` (not `except`), or null. */
export function nodeAt(network: PathNetwork, layer: string, at: Point, scale: number, except?: string): PathNode | null {
  let best: PathNode | null = null;
  let bestDistance = HIT_PX * scale;
  for (const node of network.nodes) {
    if (node.layer !== layer || node.id === except) continue;
    const d = distance(node, at);
    if (d <= bestDistance) {
      best = node;
      bestDistance = d;
    }
  }
  return best;
}

/** The nearest point of the segment a–b to p, and how far along it (0..1). */
export function closestOnSegment(p: Point, a: Point, b: Point): { point: Point; t: number } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  return { point: { x: a.x + t * dx, y: a.y + t * dy }, t };
}

/** The nearest link of `layer` within `HIT_PX` screen pixels of `at`, with the point on it, or null. */
export function edgeAt(network: PathNetwork, layer: string, at: Point, scale: number): { edge: PathEdge; point: Point } | null {
  const byId = new Map(network.nodes.map((node) => [node.id, node]));
  let best: { edge: PathEdge; point: Point } | null = null;
  let bestDistance = HIT_PX * scale;
  for (const edge of network.edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (!from || !to || from.layer !== layer) continue;
    const { point } = closestOnSegment(at, from, to);
    const d = distance(point, at);
    if (d <= bestDistance) {
      best = { edge, point };
      bestDistance = d;
    }
  }
  return best;
}

const toDegrees = (radians: number) => (radians * 180) / Math.PI;
const angleBetween = (a: number, b: number) => Math.abs(((((a - b) % 360) + 540) % 360) - 180);

/**
 * `at` turned onto the nearest snapping direction from `from`, when it is within
 * `ANGLE_SNAP_DEGREES` of one: every 45° from the axes, and every 45° from `previous` (the
 * direction, in degrees, of the link that arrives at `from`), so a corridor drawn at an angle
 * keeps its right angles. The distance along the direction is kept.
 */
export function snapAngle(from: Point, at: Point, previous: number | null): Point {
  const length = distance(from, at);
  if (length === 0) return at;
  const angle = toDegrees(Math.atan2(at.y - from.y, at.x - from.x));
  const candidates: number[] = [];
  for (let step = 0; step < 8; step += 1) {
    candidates.push(step * 45);
    if (previous !== null) candidates.push(previous + step * 45);
  }
  let best: number | null = null;
  let bestOff = ANGLE_SNAP_DEGREES;
  for (const candidate of candidates) {
    const off = angleBetween(angle, candidate);
    if (off <= bestOff) {
      best = candidate;
      bestOff = off;
    }
  }
  if (best === null) return at;
  const radians = (best * Math.PI) / 180;
  // Projected on the direction: the pointer's distance along it, not its raw distance.
  const along = (at.x - from.x) * Math.cos(radians) + (at.y - from.y) * Math.sin(radians);
  return tidy({ x: from.x + along * Math.cos(radians), y: from.y + along * Math.sin(radians) });
}

/** The direction (degrees) of the last link that reached `node`, from its other end, or null. */
export function arrivingDirection(network: PathNetwork, node: PathNode, previous: string | null): number | null {
  if (!previous) return null;
  const other = network.nodes.find((candidate) => candidate.id === previous);
  if (!other || (other.x === node.x && other.y === node.y)) return null;
  return toDegrees(Math.atan2(node.y - other.y, node.x - other.x));
}

/** `at` with x and y moved onto those of a node among `neighbours` within `HIT_PX` screen px (a dragged node lines up). */
export function snapAxes(at: Point, neighbours: readonly Point[], scale: number): Point {
  const tolerance = HIT_PX * scale;
  let { x, y } = at;
  let bestX = tolerance;
  let bestY = tolerance;
  for (const other of neighbours) {
    if (Math.abs(other.x - at.x) <= bestX) {
      bestX = Math.abs(other.x - at.x);
      x = other.x;
    }
    if (Math.abs(other.y - at.y) <= bestY) {
      bestY = Math.abs(other.y - at.y);
      y = other.y;
    }
  }
  return { x, y };
}

/** Coordinates kept to 2 decimals: snapped points land where they look, not 1e-13 away. */
export function tidy(point: Point): Point {
  return { x: Math.round(point.x * 100) / 100, y: Math.round(point.y * 100) / 100 };
}

/** What a click at `at` lands on: an existing node, a point on a link, or a free point (snapped to an angle from `from`). */
export type Landing = { kind: 'node'; node: PathNode } | { kind: 'edge'; edge: PathEdge; point: Point } | { kind: 'point'; point: Point };

export interface LandingOptions {
  layer: string;
  scale: number;
  /** The node the path goes on from (angle snapping), and the one before it (the arriving direction). */
  from?: PathNode | null;
  previous?: string | null;
  /** Alt held: no snapping at all. */
  free?: boolean;
}

export function landingAt(network: PathNetwork, at: Point, options: LandingOptions): Landing {
  if (options.free) return { kind: 'point', point: tidy(at) };
  const node = nodeAt(network, options.layer, at, options.scale);
  if (node) return { kind: 'node', node };
  const snapped = options.from ? snapAngle(options.from, at, arrivingDirection(network, options.from, options.previous ?? null)) : at;
  // A link under the pointer: the path joins it (where the snapped direction crosses it, when near).
  const hit = edgeAt(network, options.layer, at, options.scale);
  if (hit && (!options.from || (hit.edge.from !== options.from.id && hit.edge.to !== options.from.id))) {
    const ends = edgeEnds(network, hit.edge);
    const crossing = options.from && snapped !== at && ends ? crossingOf(options.from, snapped, ends[0], ends[1]) : null;
    const point = crossing && distance(crossing, at) <= HIT_PX * options.scale ? crossing : hit.point;
    return { kind: 'edge', edge: hit.edge, point: tidy(point) };
  }
  return { kind: 'point', point: tidy(snapped) };
}

function edgeEnds(network: PathNetwork, edge: PathEdge): [PathNode, PathNode] | null {
  const from = network.nodes.find((node) => node.id === edge.from);
  const to = network.nodes.find((node) => node.id === edge.to);
  return from && to ? [from, to] : null;
}

/** Where the line through p and q crosses the segment a–b, or null (parallel, or beyond its ends). */
export function crossingOf(p: Point, q: Point, a: Point, b: Point): Point | null {
  const r = { x: q.x - p.x, y: q.y - p.y };
  const s = { x: b.x - a.x, y: b.y - a.y };
  const denominator = r.x * s.y - r.y * s.x;
  if (Math.abs(denominator) < 1e-9) return null;
  const u = ((a.x - p.x) * r.y - (a.y - p.y) * r.x) / denominator;
  if (u < 0 || u > 1) return null;
  return { x: a.x + u * s.x, y: a.y + u * s.y };
}
