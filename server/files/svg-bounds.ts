/**
 * The box an SVG's drawn content takes, for a drawing that says nothing of its size (no
 * viewBox, `width="100%"`: amCharts' maps and many exports): its viewBox is made from it.
 *
 * Measured from the geometry: paths (svg-path-bbox, curves and arcs exactly), rect, circle,
 * ellipse, line, polygon, polyline, image, nested svg (its box), and `<use>` (what it points to,
 * moved by its x/y). Every `transform` on the way is applied (matrix, translate, scale, rotate,
 * skewX, skewY), a box's four corners at a time, so a rotated shape's box is a little larger
 * than the shape. Not measured: text (its size depends on fonts the server does not have),
 * lengths in % or em (they depend on the viewport this is looking for) and CSS transforms;
 * strokes widen the box by half the widest stroke-width given as an attribute.
 */
import { svgPathBbox } from 'svg-path-bbox';

export type Box = { minX: number; minY: number; maxX: number; maxY: number };
/** An affine transform [a, b, c, d, e, f], as in SVG's matrix(). */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** Not drawn where they stand: measured only when a `<use>` points at what is inside. */
const NOT_DRAWN = new Set(['defs', 'clippath', 'mask', 'pattern', 'symbol', 'marker', 'filter', 'lineargradient', 'radialgradient', 'title', 'desc', 'metadata', 'style', 'script', 'text']);

export function multiply([a1, b1, c1, d1, e1, f1]: Matrix, [a2, b2, c2, d2, e2, f2]: Matrix): Matrix {
  return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1];
}

/** A `transform` attribute as one matrix; null when it cannot be read (the element is then measured without it). */
export function parseTransform(value: string | null): Matrix | null {
  if (!value || !value.trim()) return IDENTITY;
  let matrix = IDENTITY;
  const pattern = /\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?/gy;
  let consumed = 0;
  for (const match of value.matchAll(pattern)) {
    consumed = (match.index ?? 0) + match[0].length;
    const args = match[2]!.trim().split(/[\s,]+/).filter(Boolean).map(Number);
    if (args.some((n) => !Number.isFinite(n))) return null;
    const [p = 0, q, r] = args;
    let step: Matrix;
    switch (match[1]) {
      case 'matrix':
        if (args.length !== 6) return null;
        step = args as Matrix;
        break;
      case 'translate':
        step = [1, 0, 0, 1, p, q ?? 0];
        break;
      case 'scale':
        step = [p, 0, 0, q ?? p, 0, 0];
        break;
      case 'rotate': {
        const angle = (p * Math.PI) / 180;
        const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
        const cx = q ?? 0;
        const cy = r ?? 0;
        step = [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy];
        break;
      }
      case 'skewX':
        step = [1, 0, Math.tan((p * Math.PI) / 180), 1, 0, 0];
        break;
      default:
        step = [1, Math.tan((p * Math.PI) / 180), 0, 1, 0, 0];
    }
    matrix = multiply(matrix, step);
  }
  return consumed === value.length || value.slice(consumed).trim() === '' ? matrix : null;
}

/** A plain number or px length; null for %, em and anything else that needs a viewport. */
export function number(value: string | null, fallback: number | null = null): number | null {
  if (value === null || value.trim() === '') return fallback;
  const match = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(px)?\s*$/i.exec(value);
  return match ? Number(match[1]) : null;
}

function points(value: string | null): Array<[number, number]> {
  const numbers = (value ?? '').trim().split(/[\s,]+/).filter(Boolean).map(Number);
  const result: Array<[number, number]> = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    if (Number.isFinite(numbers[i]) && Number.isFinite(numbers[i + 1])) result.push([numbers[i]!, numbers[i + 1]!]);
  }
  return result;
}

/** The element's own box, before its transform; null when it draws nothing measurable. */
function ownBox(element: Element): Box | null {
  return shapeBox(element.localName, (name) => element.getAttribute(name));
}

/** A shape's own box from its name and attributes (as a streaming reader has them), before its transform; null when it draws nothing measurable. */
export function shapeBox(tag: string, attribute: (name: string) => string | null | undefined): Box | null {
  const get = (name: string, fallback: number | null = 0) => number(attribute(name) ?? null, fallback);
  switch (tag) {
    case 'path': {
      const d = attribute('d');
      if (!d?.trim()) return null;
      try {
        const [minX, minY, maxX, maxY] = svgPathBbox(d);
        return [minX, minY, maxX, maxY].every(Number.isFinite) ? { minX, minY, maxX, maxY } : null;
      } catch {
        return null;
      }
    }
    case 'rect':
    case 'image': {
      const [x, y, width, height] = [get('x'), get('y'), get('width', null), get('height', null)];
      if (x === null || y === null || width === null || height === null || width <= 0 || height <= 0) return null;
      return { minX: x, minY: y, maxX: x + width, maxY: y + height };
    }
    case 'circle': {
      const [cx, cy, r] = [get('cx'), get('cy'), get('r', null)];
      if (cx === null || cy === null || r === null || r <= 0) return null;
      return { minX: cx - r, minY: cy - r, maxX: cx + r, maxY: cy + r };
    }
    case 'ellipse': {
      const [cx, cy, rx, ry] = [get('cx'), get('cy'), get('rx', null), get('ry', null)];
      if (cx === null || cy === null || rx === null || ry === null || rx <= 0 || ry <= 0) return null;
      return { minX: cx - rx, minY: cy - ry, maxX: cx + rx, maxY: cy + ry };
    }
    case 'line': {
      const [x1, y1, x2, y2] = [get('x1'), get('y1'), get('x2'), get('y2')];
      if (x1 === null || y1 === null || x2 === null || y2 === null) return null;
      return { minX: Math.min(x1, x2), minY: Math.min(y1, y2), maxX: Math.max(x1, x2), maxY: Math.max(y1, y2) };
    }
    case 'polygon':
    case 'polyline': {
      const list = points(attribute('points') ?? null);
      if (list.length === 0) return null;
      return {
        minX: Math.min(...list.map(([x]) => x)),
        minY: Math.min(...list.map(([, y]) => y)),
        maxX: Math.max(...list.map(([x]) => x)),
        maxY: Math.max(...list.map(([, y]) => y)),
      };
    }
    default:
      return null;
  }
}

export function transformed(box: Box, [a, b, c, d, e, f]: Matrix): Box {
  const corners = [
    [box.minX, box.minY],
    [box.maxX, box.minY],
    [box.minX, box.maxY],
    [box.maxX, box.maxY],
  ].map(([x, y]) => [a * x! + c * y! + e, b * x! + d * y! + f] as const);
  return {
    minX: Math.min(...corners.map(([x]) => x)),
    minY: Math.min(...corners.map(([, y]) => y)),
    maxX: Math.max(...corners.map(([x]) => x)),
    maxY: Math.max(...corners.map(([, y]) => y)),
  };
}

export function union(a: Box | null, b: Box | null): Box | null {
  if (!a) return b;
  if (!b) return a;
  return { minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) };
}

/**
 * The box of everything drawn inside `root` (an `<svg>` element), in its own units, widened by
 * half the widest stroke; null when nothing in it can be measured.
 */
export function contentBounds(root: Element): Box | null {
  const byId = new Map<string, Element>();
  for (const element of root.querySelectorAll('[id]')) if (!byId.has(element.id)) byId.set(element.id, element);
  let widestStroke = 0;

  const measure = (element: Element, matrix: Matrix, depth: number, usePath: Set<Element>): Box | null => {
    if (depth > 64 || element.getAttribute('display') === 'none') return null;
    const local = parseTransform(element.getAttribute('transform')) ?? IDENTITY;
    let here = multiply(matrix, local);
    const stroke = number(element.getAttribute('stroke-width'), null);
    if (stroke !== null && element.getAttribute('stroke') !== 'none') widestStroke = Math.max(widestStroke, stroke * Math.hypot(here[0], here[1]));
    const name = element.localName;
    if (name === 'use') {
      const href = element.getAttribute('href') ?? element.getAttributeNS('http://www.w3.org/1999/xlink', 'href') ?? '';
      const target = href.startsWith('#') ? byId.get(href.slice(1)) : undefined;
      if (!target || usePath.has(target)) return null;
      here = multiply(here, [1, 0, 0, 1, number(element.getAttribute('x')) ?? 0, number(element.getAttribute('y')) ?? 0]);
      const next = new Set(usePath).add(target);
      // A <symbol> is drawn through <use>: its children are measured, not the symbol's absence.
      if (target.localName === 'symbol') return children(target, here, depth + 1, next);
      return measure(target, here, depth + 1, next);
    }
    if (name === 'svg') {
      // A nested drawing with a size is its box; without one, its content.
      const [x, y, width, height] = ['x', 'y', 'width', 'height'].map((a) => number(element.getAttribute(a), a === 'x' || a === 'y' ? 0 : null));
      if (x != null && y != null && width != null && height != null && width > 0 && height > 0) return transformed({ minX: x, minY: y, maxX: x + width, maxY: y + height }, here);
      return children(element, multiply(here, [1, 0, 0, 1, x ?? 0, y ?? 0]), depth + 1, usePath);
    }
    if (name === 'g' || name === 'a' || name === 'switch') return children(element, here, depth + 1, usePath);
    const box = ownBox(element);
    return box ? transformed(box, here) : null;
  };
  const children = (parent: Element, matrix: Matrix, depth: number, usePath: Set<Element>): Box | null => {
    let box: Box | null = null;
    for (const child of parent.children) {
      if (NOT_DRAWN.has(child.localName.toLowerCase())) continue;
      box = union(box, measure(child, matrix, depth, usePath));
    }
    return box;
  };

  const rootStroke = number(root.getAttribute('stroke-width'), null);
  if (rootStroke !== null) widestStroke = rootStroke;
  const box = children(root, IDENTITY, 0, new Set());
  if (!box || !(box.maxX > box.minX) || !(box.maxY > box.minY)) return null;
  const pad = widestStroke / 2;
  return { minX: box.minX - pad, minY: box.minY - pad, maxX: box.maxX + pad, maxY: box.maxY + pad };
}
