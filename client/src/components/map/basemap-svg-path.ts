/**
 * An SVG shape's outline as rings of points (issue 29 item 1: a basemap floor's regions drawn by
 * MapLibre): a path's `d` with its curves and arcs flattened, a polygon's points, a rect, a
 * circle or an ellipse, and the `transform` attribute's matrix. Pure, for
 * basemap-regions.ts, which reads a floor's drawing into GeoJSON.
 */

/** A point of a ring: [x, y]. */
export type Vec = [number, number];
/** A closed outline (the first point is not repeated at the end). */
export type Ring = Vec[];
/** An affine transform [a, b, c, d, e, f] as SVG writes it: x' = a x + c y + e, y' = b x + d y + f. */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** Segments a curve or an arc is drawn with (a region's outline, not a font's: a few suffice). */
const CURVE_STEPS = 8;
/** Sides of a circle or an ellipse. */
const ROUND_SIDES = 32;

/** `m` then `n` (n applied first). */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3], m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5]];
}

export function apply(m: Matrix, [x, y]: Vec): Vec {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

const NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g;
const numbersIn = (text: string) => (text.match(NUMBER) ?? []).map(Number);

/** A `transform` attribute's matrix (matrix, translate, scale, rotate, skewX, skewY, in order). */
export function parseTransform(text: string | null): Matrix {
  let m = IDENTITY;
  if (!text) return m;
  for (const [, name, args] of text.matchAll(/(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)/g)) {
    const n = numbersIn(args!);
    let t: Matrix = IDENTITY;
    const rad = ((n[0] ?? 0) * Math.PI) / 180;
    if (name === 'matrix' && n.length === 6) t = n as Matrix;
    else if (name === 'translate') t = [1, 0, 0, 1, n[0] ?? 0, n[1] ?? 0];
    else if (name === 'scale') t = [n[0] ?? 1, 0, 0, n[1] ?? n[0] ?? 1, 0, 0];
    else if (name === 'rotate') {
      const [cx = 0, cy = 0] = n.slice(1);
      const r: Matrix = [Math.cos(rad), Math.sin(rad), -Math.sin(rad), Math.cos(rad), 0, 0];
      t = multiply(multiply([1, 0, 0, 1, cx, cy], r), [1, 0, 0, 1, -cx, -cy]);
    } else if (name === 'skewX') t = [1, 0, Math.tan(rad), 1, 0, 0];
    else if (name === 'skewY') t = [1, Math.tan(rad), 0, 1, 0, 0];
    m = multiply(m, t);
  }
  return m;
}

/** Reads a path's data: commands, numbers, and arcs' one-character flags ("a1 1 0 011 1"). */
class PathReader {
  #at = 0;
  constructor(private readonly d: string) {}
  #skip() {
    while (this.#at < this.d.length && /[\s,]/.test(this.d[this.#at]!)) this.#at++;
  }
  command(): string | null {
    this.#skip();
    const c = this.d[this.#at];
    if (c && /[MmLlHhVvCcSsQqTtAaZz]/.test(c)) {
      this.#at++;
      return c;
    }
    return null;
  }
  hasNumber(): boolean {
    this.#skip();
    return this.#at < this.d.length && /[\d+.-]/.test(this.d[this.#at]!);
  }
  number(): number {
    this.#skip();
    NUMBER.lastIndex = this.#at;
    const match = NUMBER.exec(this.d);
    if (!match || match.index !== this.#at) throw new Error('bad path data');
    this.#at += match[0].length;
    return Number(match[0]);
  }
  flag(): boolean {
    this.#skip();
    const c = this.d[this.#at++];
    if (c !== '0' && c !== '1') throw new Error('bad arc flag');
    return c === '1';
  }
  get done(): boolean {
    this.#skip();
    return this.#at >= this.d.length;
  }
}

/**
 * A path's subpaths as closed rings (an open subpath is closed, as a fill closes it); bad data ends it where it went wrong.
 * Subpaths of fewer than `minPoints` points are left out (2: a line's, which draws with two).
 */
export function pathRings(d: string, minPoints = 3): Ring[] {
  const rings: Ring[] = [];
  const reader = new PathReader(d);
  let ring: Ring = [];
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  // The last control point, for S and T's reflection.
  let control: Vec | null = null;
  let last = '';
  const end = () => {
    if (ring.length >= minPoints) rings.push(ring);
    ring = [];
  };
  const lineTo = (nx: number, ny: number) => {
    if (ring.length === 0) ring.push([x, y]);
    ring.push([nx, ny]);
    x = nx;
    y = ny;
  };
  const cubic = (c1: Vec, c2: Vec, to: Vec) => {
    const from: Vec = [x, y];
    for (let i = 1; i <= CURVE_STEPS; i++) {
      const t = i / CURVE_STEPS;
      const u = 1 - t;
      lineTo(u * u * u * from[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * to[0], u * u * u * from[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * to[1]);
    }
    control = c2;
  };
  const quadratic = (c: Vec, to: Vec) => {
    const from: Vec = [x, y];
    for (let i = 1; i <= CURVE_STEPS; i++) {
      const t = i / CURVE_STEPS;
      const u = 1 - t;
      lineTo(u * u * from[0] + 2 * u * t * c[0] + t * t * to[0], u * u * from[1] + 2 * u * t * c[1] + t * t * to[1]);
    }
    control = c;
  };
  try {
    while (!reader.done) {
      const given = reader.command();
      // Numbers after a command's own repeat it (a moveto's then draw lines).
      const command = given ?? (last === 'M' ? 'L' : last === 'm' ? 'l' : last);
      if (!command || (given === null && /[Zz]/.test(command))) break;
      const relative = command === command.toLowerCase();
      const ox = relative ? x : 0;
      const oy = relative ? y : 0;
      const upper = command.toUpperCase();
      if (upper !== 'C' && upper !== 'S' && upper !== 'Q' && upper !== 'T') control = null;
      switch (upper) {
        case 'M': {
          end();
          x = startX = ox + reader.number();
          y = startY = oy + reader.number();
          break;
        }
        case 'L':
          lineTo(ox + reader.number(), oy + reader.number());
          break;
        case 'H':
          lineTo(ox + reader.number(), y);
          break;
        case 'V':
          lineTo(x, oy + reader.number());
          break;
        case 'C': {
          const c1: Vec = [ox + reader.number(), oy + reader.number()];
          const c2: Vec = [ox + reader.number(), oy + reader.number()];
          cubic(c1, c2, [ox + reader.number(), oy + reader.number()]);
          break;
        }
        case 'S': {
          const c1: Vec = control && /[CcSs]/.test(last) ? [2 * x - control[0], 2 * y - control[1]] : [x, y];
          const c2: Vec = [ox + reader.number(), oy + reader.number()];
          cubic(c1, c2, [ox + reader.number(), oy + reader.number()]);
          break;
        }
        case 'Q': {
          const c: Vec = [ox + reader.number(), oy + reader.number()];
          quadratic(c, [ox + reader.number(), oy + reader.number()]);
          break;
        }
        case 'T': {
          const c: Vec = control && /[QqTt]/.test(last) ? [2 * x - control[0], 2 * y - control[1]] : [x, y];
          quadratic(c, [ox + reader.number(), oy + reader.number()]);
          break;
        }
        case 'A': {
          const rx = reader.number();
          const ry = reader.number();
          const rotation = reader.number();
          const large = reader.flag();
          const sweep = reader.flag();
          const to: Vec = [ox + reader.number(), oy + reader.number()];
          for (const point of arcPoints([x, y], to, rx, ry, rotation, large, sweep)) lineTo(point[0], point[1]);
          break;
        }
        case 'Z':
          end();
          x = startX;
          y = startY;
          break;
      }
      last = command;
      // A command without numbers after it (Z) is not repeated by the numbers that follow.
      if (upper === 'Z' && reader.hasNumber()) break;
    }
  } catch {
    // The data up to the error draws, as a browser draws a path with an error in it.
  }
  end();
  return rings;
}

/** An elliptical arc's points after `from` (SVG's endpoint parameterisation, its appendix F.6). */
export function arcPoints(from: Vec, to: Vec, rx: number, ry: number, rotation: number, large: boolean, sweep: boolean): Vec[] {
  if (rx === 0 || ry === 0 || (from[0] === to[0] && from[1] === to[1])) return [to];
  rx = Math.abs(rx);
  ry = Math.abs(ry);
  const phi = (rotation * Math.PI) / 180;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const dx = (from[0] - to[0]) / 2;
  const dy = (from[1] - to[1]) / 2;
  const x1 = cos * dx + sin * dy;
  const y1 = -sin * dx + cos * dy;
  // Radii too small for the chord are scaled up until they reach.
  const lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
  if (lambda > 1) {
    rx *= Math.sqrt(lambda);
    ry *= Math.sqrt(lambda);
  }
  const num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
  const factor = (large === sweep ? -1 : 1) * Math.sqrt(Math.max(0, num / (rx * rx * y1 * y1 + ry * ry * x1 * x1)));
  const cx1 = (factor * rx * y1) / ry;
  const cy1 = (-factor * ry * x1) / rx;
  const cx = cos * cx1 - sin * cy1 + (from[0] + to[0]) / 2;
  const cy = sin * cx1 + cos * cy1 + (from[1] + to[1]) / 2;
  const angle = (ux: number, uy: number, vx: number, vy: number) => Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const start = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry);
  let delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry);
  if (!sweep && delta > 0) delta -= 2 * Math.PI;
  if (sweep && delta < 0) delta += 2 * Math.PI;
  const steps = Math.max(2, Math.ceil((Math.abs(delta) / (Math.PI / 2)) * CURVE_STEPS));
  const points: Vec[] = [];
  for (let i = 1; i < steps; i++) {
    const t = start + (delta * i) / steps;
    points.push([cx + rx * Math.cos(t) * cos - ry * Math.sin(t) * sin, cy + rx * Math.cos(t) * sin + ry * Math.sin(t) * cos]);
  }
  points.push(to);
  return points;
}

/** An ellipse as a ring of {@link ROUND_SIDES} sides. */
export function ellipseRing(cx: number, cy: number, rx: number, ry: number): Ring {
  return Array.from({ length: ROUND_SIDES }, (_, i): Vec => [cx + rx * Math.cos((2 * Math.PI * i) / ROUND_SIDES), cy + ry * Math.sin((2 * Math.PI * i) / ROUND_SIDES)]);
}

/** A polygon's `points` as a ring. */
export function pointsRing(points: string): Ring {
  const n = numbersIn(points);
  const ring: Ring = [];
  for (let i = 0; i + 1 < n.length; i += 2) ring.push([n[i]!, n[i + 1]!]);
  return ring;
}

/** A ring's signed area (positive: clockwise on screen, y down). */
export function ringArea(ring: Ring): number {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) area += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  return area / 2;
}

/** Whether a point lies inside a ring (even-odd). */
export function insideRing([x, y]: Vec, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Rings as polygons, each an outer ring and its holes, as a fill draws them (even-odd nesting):
 * largest first, a ring inside an odd number of larger ones is a hole of the innermost outer
 * ring around it, otherwise an outer ring of its own (an island in a lake in a country).
 */
export function polygonsOf(rings: readonly Ring[]): Ring[][] {
  const sorted = rings.filter((ring) => ring.length >= 3 && ringArea(ring) !== 0).sort((a, b) => Math.abs(ringArea(b)) - Math.abs(ringArea(a)));
  const placed: Array<{ ring: Ring; depth: number; polygon: Ring[] }> = [];
  const polygons: Ring[][] = [];
  for (const ring of sorted) {
    // The innermost larger ring around it (its first point: rings of one fill do not cross).
    let parent: (typeof placed)[number] | null = null;
    for (const candidate of placed) if (insideRing(ring[0]!, candidate.ring) && (!parent || candidate.depth > parent.depth)) parent = candidate;
    const depth = parent ? parent.depth + 1 : 0;
    if (depth % 2 === 1) {
      parent!.polygon.push(ring);
      placed.push({ ring, depth, polygon: parent!.polygon });
    } else {
      const polygon = [ring];
      polygons.push(polygon);
      placed.push({ ring, depth, polygon });
    }
  }
  return polygons;
}
