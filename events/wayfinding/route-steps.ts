/**
 * Turn-by-turn steps of a route, read from its geometry: where the line bends enough to matter
 * (the kind by the angle), a landmark near each turn (the nearest location within a few metres),
 * each floor change (what to take, to which floor) and on which side the destination is. Steps
 * are data: client/src/i18n/route-words.ts words them, in the visitor's language in the viewer
 * and in English in the editor.
 */
import type { Location, MapDocument, Point } from '../map-document.js';
import type { Connector } from '../path-network.js';
import type { RouteLeg, RouteStep, RouteStepKind } from './route-types.js';

/** Bends under this many degrees are walked straight on (the segments merge). */
const STRAIGHT_DEGREES = 20;
/** Up to these, a bend is slight; then a turn; then sharp; beyond, a U-turn. */
const SLIGHT_DEGREES = 50;
const TURN_DEGREES = 120;
const SHARP_DEGREES = 165;
/** A location names a turn when it (its marker or one of its entrances) is this close, in metres. */
export const LANDMARK_RADIUS_METRES = 12;
/** A landmark lies behind the visitor at a turn: within this angle of the way back, or at the turn itself (metres). */
const PASSED_DEGREES = 75;
const AT_TURN_METRES = 2;
/** The destination is "ahead" when it lies within this angle of the last walking direction. */
const AHEAD_DEGREES = 25;

const DEGREES = 180 / Math.PI;

/** The turn's kind by its signed angle in degrees (positive: clockwise on the map, a right turn, y pointing down). */
export function turnKind(degrees: number): RouteStepKind {
  const size = Math.abs(degrees);
  if (size < STRAIGHT_DEGREES) return 'straight';
  if (size >= SHARP_DEGREES) return 'u-turn';
  const side = degrees > 0 ? 'right' : 'left';
  if (size < SLIGHT_DEGREES) return side === 'right' ? 'slight-right' : 'slight-left';
  if (size < TURN_DEGREES) return side;
  return side === 'right' ? 'sharp-right' : 'sharp-left';
}

/** The signed angle from direction `a` to direction `b` in degrees, in (-180, 180]. */
function bend(a: Point, b: Point): number {
  return Math.atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y) * DEGREES;
}

const minus = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y });
const length = (a: Point) => Math.hypot(a.x, a.y);

export interface StepEnds {
  from?: Location | undefined;
  to?: Location | undefined;
}

/**
 * The steps of a route whose floors are `legs` (in order), joined by `hops` (hops[i] takes the
 * visitor from legs[i] to legs[i + 1]); `scales` are metres per unit by floor.
 */
export function routeSteps(
  document: Pick<MapDocument, 'layers' | 'locations'>,
  legs: readonly RouteLeg[],
  hops: readonly Connector[],
  ends: StepEnds,
  scales: ReadonlyMap<string, number>,
  pointOf: (nodeId: string) => Point | undefined,
): RouteStep[] {
  const landmarks = landmarkFinder(document.locations, ends, scales, pointOf);
  const steps: RouteStep[] = [];
  const first = legs[0]!;
  steps.push({ kind: 'depart', layer: first.layer, at: first.points[0]!, distance: 0, metres: 0, ...(ends.from ? { landmark: landmarkOf(ends.from) } : {}) });
  let walked = 0;
  let lastDirection: Point | undefined;
  legs.forEach((leg, index) => {
    const scale = scales.get(leg.layer) ?? 1;
    // The line's corners, repeated points dropped (their direction is undefined).
    const points = leg.points.filter((p, i) => i === 0 || p.x !== leg.points[i - 1]!.x || p.y !== leg.points[i - 1]!.y);
    let heading: Point | undefined;
    for (let i = 1; i < points.length; i += 1) {
      const direction = minus(points[i]!, points[i - 1]!);
      if (heading) {
        const kind = turnKind(bend(heading, direction));
        if (kind !== 'straight') {
          const at = points[i - 1]!;
          const landmark = landmarks(leg.layer, at, heading);
          steps.push({ kind, layer: leg.layer, at, distance: walked, metres: walked * scale, ...(landmark ? { landmark } : {}) });
          walked = 0;
        }
      }
      walked += length(direction);
      heading = direction;
    }
    lastDirection = heading;
    const hop = hops[index];
    const next = legs[index + 1];
    if (hop && next) {
      const toLayer = document.layers.find((l) => l.id === next.layer);
      steps.push({
        kind: 'connector',
        layer: leg.layer,
        at: points[points.length - 1]!,
        distance: walked,
        metres: walked * scale,
        connector: { id: hop.id, kind: hop.kind, name: hop.name, toLayer: next.layer, toLayerName: toLayer?.name ?? next.layer },
      });
      walked = 0;
      lastDirection = undefined;
    }
  });
  const last = legs[legs.length - 1]!;
  const end = last.points[last.points.length - 1]!;
  steps.push({
    kind: 'arrive',
    layer: last.layer,
    at: end,
    distance: walked,
    metres: walked * (scales.get(last.layer) ?? 1),
    side: sideOf(lastDirection, end, ends.to),
    ...(ends.to ? { landmark: landmarkOf(ends.to) } : {}),
  });
  return steps;
}

function landmarkOf(location: Location): { id: string; title: string } {
  return { id: location.id, title: location.title };
}

/** Which side the destination is on, for a visitor at `end` walking along `direction`. */
function sideOf(direction: Point | undefined, end: Point, destination: Location | undefined): 'left' | 'right' | 'ahead' {
  if (!direction || !destination?.position || destination.layer === undefined) return 'ahead';
  const towards = minus(destination.position, end);
  if (length(towards) === 0) return 'ahead';
  const angle = bend(direction, towards);
  if (Math.abs(angle) < AHEAD_DEGREES) return 'ahead';
  return angle > 0 ? 'right' : 'left';
}

/**
 * A lookup of the location nearest a turn (by its marker or any of its entrances, within
 * {@link LANDMARK_RADIUS_METRES}) among those the visitor has just passed: at the turn, or
 * behind it within {@link PASSED_DEGREES} of the way back ("turn left after Café Nero" names a
 * place walked past, not one across the junction or further on), leaving out the route's own
 * ends and hidden locations.
 */
function landmarkFinder(locations: readonly Location[], ends: StepEnds, scales: ReadonlyMap<string, number>, pointOf: (nodeId: string) => Point | undefined) {
  let byLayer: Map<string, Array<{ location: Location; points: Point[] }>> | undefined;
  return (layer: string, at: Point, incoming: Point): { id: string; title: string } | undefined => {
    byLayer ??= indexLandmarks(locations, ends, pointOf);
    const radius = LANDMARK_RADIUS_METRES / (scales.get(layer) ?? 1);
    const back = { x: -incoming.x / length(incoming), y: -incoming.y / length(incoming) };
    const cone = Math.cos(PASSED_DEGREES / DEGREES);
    const atTurn = AT_TURN_METRES / (scales.get(layer) ?? 1);
    let best: Location | undefined;
    let bestDistance = radius;
    for (const { location, points } of byLayer.get(layer) ?? []) {
      for (const point of points) {
        const distance = Math.hypot(point.x - at.x, point.y - at.y);
        const behind = (point.x - at.x) * back.x + (point.y - at.y) * back.y;
        if (distance > atTurn && behind < distance * cone) continue;
        if (distance <= bestDistance) {
          best = location;
          bestDistance = distance;
        }
      }
    }
    return best ? landmarkOf(best) : undefined;
  };
}

function indexLandmarks(locations: readonly Location[], ends: StepEnds, pointOf: (nodeId: string) => Point | undefined) {
  const byLayer = new Map<string, Array<{ location: Location; points: Point[] }>>();
  for (const location of locations) {
    if (location.hidden || location.id === ends.from?.id || location.id === ends.to?.id) continue;
    const points = location.entrances.map(pointOf).filter((point) => point !== undefined);
    if (location.position) points.push(location.position);
    if (points.length === 0) continue;
    const list = byLayer.get(location.layer) ?? [];
    list.push({ location, points });
    byLayer.set(location.layer, list);
  }
  return byLayer;
}
