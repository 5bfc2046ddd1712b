/**
 * The regions' tints for the page without JavaScript (issue 18): the viewer's floor is an
 * `<img>` of its SVG until the script inlines the drawing and fills each location's region with
 * its colour (client/src/components/map/svg-layer.ts). Without the script those fills never
 * come. Here the server draws them: an inline `<svg>` laid over the `<img>` (same viewBox, same
 * box), holding a copy of each region's shapes, inside its ancestors' transforms, filled as the
 * live floor fills them (`fill` attributes: no style, so the page's CSP has nothing to refuse).
 *
 * The copy takes only geometry, checked by pattern: shapes (path, rect, circle, ellipse, line,
 * polyline, polygon) and groups, with their coordinates and transforms; nothing else of the
 * drawing (no text, link, use, style, class or event) reaches the page. A drawing whose regions
 * would make a large copy gets none (the floor shows as before, untinted).
 */
import { REGION_TINT, tint } from '../../events/colour-tint.js';
import { loadXmlDom } from '../content/lazy-libraries.js';

/** Most markup the tints may add to a page (a world map's countries would be far more). */
export const REGION_TINTS_MAX_CHARS = 120_000;

export interface RegionFill {
  /** The id of the drawing's element that is the location's region. */
  element: string;
  /** `#rrggbb`: the location's or its first group's colour, or null for the map's region base. */
  color: string | null;
}

interface XmlNode {
  nodeType: number;
  nodeName: string;
  childNodes: ArrayLike<XmlNode>;
  parentNode: XmlNode | null;
  getAttribute?(name: string): string | null;
}

const SHAPES: Record<string, readonly string[]> = {
  path: ['d'],
  rect: ['x', 'y', 'width', 'height', 'rx', 'ry'],
  circle: ['cx', 'cy', 'r'],
  ellipse: ['cx', 'cy', 'rx', 'ry'],
  line: ['x1', 'y1', 'x2', 'y2'],
  polyline: ['points'],
  polygon: ['points'],
};
const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e-?\d+)?(px)?$/i;
const PATH_DATA = /^[MmLlHhVvCcSsQqTtAaZz0-9\s,.+eE-]*$/;
const POINTS = /^[0-9\s,.+eE-]*$/;
const TRANSFORM = /^(\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\([0-9\s,.+eE-]*\)\s*,?)*\s*$/;
const FILL_RULE = /^(nonzero|evenodd)$/;
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const VIEW_BOX = /^\s*-?[\d.]+(e-?\d+)?([\s,]+-?[\d.]+(e-?\d+)?){3}\s*$/i;
const ASPECT = /^(none|x(Min|Mid|Max)Y(Min|Mid|Max)(\s+(meet|slice))?)$/;

const attribute = (node: XmlNode, name: string) => node.getAttribute?.(name)?.trim() ?? null;
const name = (node: XmlNode) => node.nodeName.replace(/^svg:/, '');

function valid(attr: string, value: string): boolean {
  if (attr === 'd') return PATH_DATA.test(value) && value.length > 0;
  if (attr === 'points') return POINTS.test(value);
  return NUMBER.test(value);
}

/** A shape's or a group's copy, filled with `fill`; '' for anything that is neither. */
function copy(node: XmlNode, fill: string): string {
  if (node.nodeType !== 1) return '';
  const tag = name(node);
  const transform = attribute(node, 'transform');
  const moved = transform && TRANSFORM.test(transform) ? ` transform="${transform}"` : '';
  if (tag === 'g') {
    let inner = '';
    for (const child of Array.from(node.childNodes)) inner += copy(child, fill);
    return inner ? `<g${moved}>${inner}</g>` : '';
  }
  const attributes = SHAPES[tag];
  if (!attributes) return '';
  let out = `<${tag}${moved}`;
  for (const attr of attributes) {
    const value = attribute(node, attr);
    if (value === null || value === '') continue;
    if (!valid(attr, value)) return '';
    out += ` ${attr}="${value}"`;
  }
  const rule = attribute(node, 'fill-rule');
  if (rule && FILL_RULE.test(rule)) out += ` fill-rule="${rule}"`;
  return `${out} fill="${fill}"/>`;
}

/** The region's copy inside its ancestors' transforms (outermost first), as the drawing places it. */
function placed(region: XmlNode, fill: string): string {
  let markup = copy(region, fill);
  if (!markup) return '';
  for (let parent = region.parentNode; parent && parent.nodeType === 1 && name(parent) !== 'svg'; parent = parent.parentNode) {
    // A region inside definitions, a clip or a mask is not drawn where it stands.
    if (/^(defs|clipPath|mask|pattern|symbol|marker)$/.test(name(parent))) return '';
    const transform = attribute(parent, 'transform');
    if (transform && !TRANSFORM.test(transform)) return '';
    if (transform) markup = `<g transform="${transform}">${markup}</g>`;
  }
  return markup;
}

/**
 * The overlay's markup for this drawing and these regions, or null when there is nothing to
 * tint, the drawing cannot be read, or the copy would be larger than {@link REGION_TINTS_MAX_CHARS}.
 */
export function regionTintsMarkup(svgText: string, regions: readonly RegionFill[], base: string): string | null {
  if (regions.length === 0) return null;
  let root: XmlNode | null;
  try {
    const { DOMParser } = loadXmlDom();
    const parsed = new DOMParser({ onError: () => {} }).parseFromString(svgText, 'image/svg+xml') as unknown as { documentElement: XmlNode | null };
    root = parsed.documentElement;
  } catch {
    return null;
  }
  if (!root || name(root) !== 'svg') return null;
  const wanted = new Map(regions.map((region) => [region.element, region]));
  const found = new Map<string, XmlNode>();
  const walk = (node: XmlNode) => {
    if (node.nodeType !== 1) return;
    const id = attribute(node, 'id');
    if (id && wanted.has(id) && !found.has(id)) found.set(id, node);
    for (const child of Array.from(node.childNodes)) walk(child);
  };
  walk(root);
  const baseFill = HEX_COLOUR.test(base) ? base : null;
  let shapes = '';
  for (const [id, node] of found) {
    const { color } = wanted.get(id)!;
    const fill = color && HEX_COLOUR.test(color) ? tint(color, REGION_TINT.fill) : baseFill;
    if (!fill) continue;
    shapes += placed(node, fill);
    if (shapes.length > REGION_TINTS_MAX_CHARS) return null;
  }
  if (!shapes) return null;
  // The image's own mapping: its viewBox, else one of its width and height (as a browser
  // makes for an SVG image without one), and its preserveAspectRatio.
  const viewBox = attribute(root, 'viewBox');
  const width = attribute(root, 'width');
  const height = attribute(root, 'height');
  const box = viewBox && VIEW_BOX.test(viewBox) ? viewBox : width && height && NUMBER.test(width) && NUMBER.test(height) ? `0 0 ${parseFloat(width)} ${parseFloat(height)}` : null;
  if (!box) return null;
  const aspect = attribute(root, 'preserveAspectRatio');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box}"${aspect && ASPECT.test(aspect) ? ` preserveAspectRatio="${aspect}"` : ''} focusable="false">${shapes}</svg>`;
}
