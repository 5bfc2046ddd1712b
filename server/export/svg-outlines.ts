/**
 * The outlines of a floor drawing's regions, as polygons in the floor's units: what an IMDF
 * unit needs of a shop (events/imdf-export.ts turns them into latitude and longitude).
 *
 * Read with saxes like the import's region reader (server/import/svg-regions.ts): nothing in
 * the file is loaded or run. Every shape with an id is a region; a group with an id is the
 * outline of all the shapes inside it (a shop drawn as its outline and its label). Shapes are
 * turned into paths and flattened with svgpath (transforms of the element and its ancestors
 * applied, arcs and curves sampled), so a rounded rectangle, a circle or a Bézier outline all
 * come out as rings of points.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import svgpath from 'svgpath';
import type { Point } from '../../events/map-document.js';
import { elementIdFor } from '../../events/svg-element-id.js';

/** A closed ring of points (the first point not repeated at the end). */
export type Ring = Point[];

const SHAPES = new Set(['path', 'polygon', 'polyline', 'rect', 'circle', 'ellipse']);
const NOT_DRAWN = new Set([
  'defs', 'clippath', 'mask', 'pattern', 'symbol', 'marker', 'lineargradient', 'radialgradient',
  'filter', 'style', 'script', 'metadata', 'title', 'desc', 'foreignobject', 'font', 'sodipodi:namedview',
]);
/** Points a curve segment is sampled with: enough for a rounded corner to look round on a map. */
const CURVE_STEPS = 8;

const num = (value: string | undefined, fallback = 0) => {
  const parsed = Number.parseFloat(value ?? '');
  return Number.isFinite(parsed) ? parsed : fallback;
};

/** A shape's outline as path data, or null for a shape that encloses nothing. */
function shapePath(tag: string, a: Record<string, string>): string | null {
  switch (tag) {
    case 'path':
      return a.d ?? null;
    case 'rect': {
      const [x, y, w, h] = [num(a.x), num(a.y), num(a.width), num(a.height)];
      return w > 0 && h > 0 ? `M${x} ${y}H${x + w}V${y + h}H${x}Z` : null;
    }
    case 'circle':
    case 'ellipse': {
      const [cx, cy] = [num(a.cx), num(a.cy)];
      const rx = tag === 'circle' ? num(a.r) : num(a.rx);
      const ry = tag === 'circle' ? num(a.r) : num(a.ry);
      return rx > 0 && ry > 0 ? `M${cx - rx} ${cy}A${rx} ${ry} 0 1 0 ${cx + rx} ${cy}A${rx} ${ry} 0 1 0 ${cx - rx} ${cy}Z` : null;
    }
    case 'polygon':
    case 'polyline': {
      const values = (a.points ?? '').trim().split(/[\s,]+/).map(Number).filter(Number.isFinite);
      if (values.length < 6) return null;
      let d = `M${values[0]} ${values[1]}`;
      for (let i = 2; i + 1 < values.length; i += 2) d += `L${values[i]} ${values[i + 1]}`;
      return `${d}Z`;
    }
    default:
      return null;
  }
}

/** The rings a path draws, its transforms (innermost first) applied, curves sampled. */
function pathRings(d: string, transforms: string[]): Ring[] {
  let path = svgpath(d);
  for (const transform of transforms) path = path.transform(transform);
  const rings: Ring[] = [];
  let ring: Ring = [];
  let at: Point = { x: 0, y: 0 };
  const close = () => {
    if (ring.length >= 3) rings.push(ring);
    ring = [];
  };
  path.abs().unshort().unarc().iterate((segment) => {
    const [command] = segment;
    const v = segment.slice(1) as number[];
    switch (command) {
      case 'M':
        close();
        at = { x: v[0]!, y: v[1]! };
        ring.push(at);
        break;
      case 'L':
        at = { x: v[0]!, y: v[1]! };
        ring.push(at);
        break;
      case 'H':
        at = { x: v[0]!, y: at.y };
        ring.push(at);
        break;
      case 'V':
        at = { x: at.x, y: v[0]! };
        ring.push(at);
        break;
      case 'C':
      case 'Q': {
        const from = at;
        const controls = command === 'C' ? [{ x: v[0]!, y: v[1]! }, { x: v[2]!, y: v[3]! }] : [{ x: v[0]!, y: v[1]! }];
        const to = command === 'C' ? { x: v[4]!, y: v[5]! } : { x: v[2]!, y: v[3]! };
        for (let step = 1; step <= CURVE_STEPS; step += 1) {
          const t = step / CURVE_STEPS;
          const u = 1 - t;
          ring.push(
            controls.length === 2
              ? {
                  x: u * u * u * from.x + 3 * u * u * t * controls[0]!.x + 3 * u * t * t * controls[1]!.x + t * t * t * to.x,
                  y: u * u * u * from.y + 3 * u * u * t * controls[0]!.y + 3 * u * t * t * controls[1]!.y + t * t * t * to.y,
                }
              : { x: u * u * from.x + 2 * u * t * controls[0]!.x + t * t * to.x, y: u * u * from.y + 2 * u * t * controls[0]!.y + t * t * to.y },
          );
        }
        at = to;
        break;
      }
      case 'Z':
      case 'z':
        close();
        break;
      default:
        break;
    }
  });
  close();
  // A ring's repeated closing point and zero-length steps say nothing.
  return rings
    .map((r) => r.filter((p, i) => i === 0 || p.x !== r[i - 1]!.x || p.y !== r[i - 1]!.y))
    .map((r) => (r.length > 1 && r[0]!.x === r[r.length - 1]!.x && r[0]!.y === r[r.length - 1]!.y ? r.slice(0, -1) : r))
    .filter((r) => r.length >= 3 && r.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)));
}

interface Open {
  tag: string;
  hidden: boolean;
  transform: string | null;
  /** The region ids this element and its ancestors stand for (a shape inside `<g id>` outlines the group too). */
  regions: string[];
}

/**
 * The outline rings of every region of a drawing, by the id a location names it with
 * (elementIdFor: a code id like `01` as `id-01`). A drawing that does not parse gives what
 * was read before the fault.
 */
export function svgOutlines(svg: string): Map<string, Ring[]> {
  const outlines = new Map<string, Ring[]>();
  const stack: Open[] = [];
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', (node: SaxesTagPlain) => {
    const tag = node.name.toLowerCase();
    const parent = stack[stack.length - 1];
    const attributes = node.attributes as Record<string, string>;
    const hidden = (parent?.hidden ?? false) || NOT_DRAWN.has(tag);
    const rawId = attributes.id?.trim();
    const id = rawId && !hidden && (tag === 'g' || SHAPES.has(tag)) ? elementIdFor(rawId) : null;
    const regions = id ? [...(parent?.regions ?? []), id] : (parent?.regions ?? []);
    const open: Open = { tag, hidden, transform: attributes.transform?.trim() || null, regions };
    stack.push(open);
    if (hidden || !SHAPES.has(tag) || regions.length === 0) return;
    const d = shapePath(tag, attributes);
    if (!d) return;
    // Innermost transform first: the shape's own, then each ancestor's outwards.
    const transforms = stack.map((o) => o.transform).filter((t): t is string => t !== null).reverse();
    let rings: Ring[];
    try {
      rings = pathRings(d, transforms);
    } catch {
      return;
    }
    for (const region of regions) outlines.set(region, [...(outlines.get(region) ?? []), ...rings]);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  try {
    parser.write(svg).close();
  } catch {
    // A broken drawing: the regions read before the fault are kept.
  }
  return outlines;
}
