/**
 * Where a drawing's shapes and texts are, read alongside the region reader's streaming pass
 * (svg-regions.ts), so a shape with a made-up id (`rect3781`) can be named by the text written
 * inside it (`H865`): Inkscape floor plans put room numbers beside the rooms as `<text>`
 * elements of their own, not inside the rooms' elements.
 *
 * Boxes are measured from the geometry (server/files/svg-bounds.ts: paths exactly, rect,
 * circle, ellipse, line, polygon, polyline) with every `transform` on the way applied, in the
 * drawing's own units. A text's place is estimated without fonts (the server has none): its
 * anchor (`x`/`y` of the text or its first positioned `<tspan>`), moved by half an estimated
 * width along `text-anchor` and up by a third of its size, so the middle of a room number
 * written from the room's left edge still falls in the room. The editor's regions dialog reads
 * the same thing from the drawing on screen (client/src/components/map/drawing-bridge.ts);
 * both give a text to the smallest shape its middle lies in, and a shape with more than two
 * texts is a background (a floor's outline, a corridor), named by none.
 */
import { IDENTITY, multiply, number, parseTransform, shapeBox, union, type Box, type Matrix } from '../files/svg-bounds.js';

/** More texts than this inside one shape: not its name (as the editor's dialog reads it). */
const MAX_TEXTS = 2;
/** An average glyph's width for its font size: enough to find the middle of a short label. */
const GLYPH_WIDTH = 0.55;
/** Elements whose children are not drawn where they stand: their boxes stay out of their parents'. */
const NOT_DRAWN = new Set(['defs', 'clippath', 'mask', 'pattern', 'symbol', 'marker', 'lineargradient', 'radialgradient', 'filter', 'style', 'script', 'metadata', 'title', 'desc', 'foreignobject', 'font']);

interface Frame {
  tag: string;
  /** Its user space in the drawing's: every transform from the root to it, its own included. */
  matrix: Matrix;
  /** The parent's matrix: a `<use>` measures its target as drawn there. */
  parentMatrix: Matrix;
  id: string | null;
  /** The region reader's index of this element, or -1. */
  region: number;
  box: Box | null;
  fontSize: number | null;
  anchor: string | null;
  /** A `<use>`'s target and its x/y. */
  use: { target: string; x: number; y: number } | null;
  /** In a text: where words written in this element start (its own x/y or its parent's). */
  x: number | null;
  y: number | null;
}

interface TextBeingRead {
  matrix: Matrix;
  /** Where its first words start, and the span of its lines' baselines. */
  x: number | null;
  minY: number | null;
  maxY: number | null;
  lastY: number | null;
  fontSize: number | null;
  anchor: string | null;
  parts: string[];
  /** The longest line's length, in characters. */
  longest: number;
  line: number;
  /** Regions it is written inside of, by the region reader's index. */
  within: number[];
}

export interface TextLabel {
  words: string;
  /** Its estimated middle, in the drawing's units. */
  x: number;
  y: number;
  within: number[];
}

/** The box of a box's four corners moved by the matrix (written out: this runs for every shape of a large drawing). */
function transformed(box: Box, [a, b, c, d, e, f]: Matrix): Box {
  if (b === 0 && c === 0) {
    const x1 = a * box.minX + e;
    const x2 = a * box.maxX + e;
    const y1 = d * box.minY + f;
    const y2 = d * box.maxY + f;
    return { minX: Math.min(x1, x2), minY: Math.min(y1, y2), maxX: Math.max(x1, x2), maxY: Math.max(y1, y2) };
  }
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const x of [box.minX, box.maxX]) {
    for (const y of [box.minY, box.maxY]) {
      const tx = a * x + c * y + e;
      const ty = b * x + d * y + f;
      minX = Math.min(minX, tx);
      maxX = Math.max(maxX, tx);
      minY = Math.min(minY, ty);
      maxY = Math.max(maxY, ty);
    }
  }
  return { minX, minY, maxX, maxY };
}

/** A style property or presentation attribute (the style wins, as in CSS). */
function property(attributes: Record<string, string>, name: string): string | null {
  const style = attributes.style;
  if (style?.includes(name)) {
    const match = new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;]+)`, 'i').exec(style);
    if (match) return match[1]!.trim();
  }
  return attributes[name] ?? null;
}

/** The first number of a coordinate list (`x="10 20 30"` places each glyph; the first is the text's start). */
const firstNumber = (value: string | undefined): number | null => (value === undefined ? null : number(value.trim().split(/[\s,]+/)[0] ?? null));

function invert([a, b, c, d, e, f]: Matrix): Matrix | null {
  const determinant = a * d - b * c;
  if (!Number.isFinite(determinant) || Math.abs(determinant) < 1e-12) return null;
  return [d / determinant, -b / determinant, -c / determinant, a / determinant, (c * f - d * e) / determinant, (b * e - a * f) / determinant];
}

/**
 * Collects boxes and texts as the reader opens and closes elements. `open` and `close` are
 * called for every element after the root, in document order; `text` for character data.
 */
export class DrawingGeometry {
  private readonly frames: Frame[] = [];
  private readonly boxes = new Map<number, Box>();
  /** Boxes of elements with ids, as drawn where they stand, with the inverse of their parent's matrix, for `<use>`. */
  private readonly byId = new Map<string, { box: Box; parentInverse: Matrix | null }>();
  private readonly pendingUses: Array<{ region: number; matrix: Matrix; target: string }> = [];
  private current: TextBeingRead | null = null;
  /** Ids `<use>` elements point at (`href="#…"`), found in the text beforehand: only their boxes are kept by id. */
  private readonly useTargets: ReadonlySet<string>;
  private textDepth = 0;
  readonly texts: TextLabel[] = [];

  constructor(svgText: string) {
    this.useTargets = new Set([...svgText.matchAll(/\bhref\s*=\s*["']#([^"'\s]+)["']/g)].map((match) => match[1]!));
  }

  open(tag: string, attributes: Record<string, string>, hidden: boolean, region: number, regionsOpen: number[]): void {
    const parent = this.frames.at(-1);
    const parentMatrix = parent?.matrix ?? IDENTITY;
    const own = parseTransform(attributes.transform ?? null) ?? IDENTITY;
    const size = property(attributes, 'font-size');
    const frame: Frame = {
      tag,
      matrix: multiply(parentMatrix, own),
      parentMatrix,
      id: attributes.id?.trim() || null,
      region,
      box: null,
      fontSize: (size !== null ? number(size) : null) ?? parent?.fontSize ?? null,
      anchor: property(attributes, 'text-anchor') ?? parent?.anchor ?? null,
      use: null,
      x: null,
      y: null,
    };
    if (tag === 'use') {
      const href = (attributes.href ?? attributes['xlink:href'] ?? '').trim();
      if (href.startsWith('#')) frame.use = { target: href.slice(1), x: number(attributes.x ?? null) ?? 0, y: number(attributes.y ?? null) ?? 0 };
    } else {
      const box = shapeBox(tag, (name) => attributes[name]);
      if (box) frame.box = transformed(box, frame.matrix);
    }
    this.frames.push(frame);
    if (this.current) {
      this.textDepth++;
      this.position(attributes, frame);
    } else if (tag === 'text' && !hidden) {
      this.current = { matrix: frame.matrix, x: null, minY: null, maxY: null, lastY: null, fontSize: null, anchor: null, parts: [], longest: 0, line: 0, within: regionsOpen };
      this.textDepth = 0;
      this.position(attributes, frame);
    }
  }

  /** A text's or tspan's own x/y, else its parent's: where words written in it start. */
  private position(attributes: Record<string, string>, frame: Frame): void {
    const parent = this.frames.at(-2);
    frame.x = firstNumber(attributes.x) ?? parent?.x ?? null;
    frame.y = firstNumber(attributes.y) ?? parent?.y ?? null;
  }

  text(value: string): void {
    const text = this.current;
    const frame = this.frames.at(-1);
    if (!text || !frame) return;
    const words = value.trim();
    // Only lines with words count: Inkscape leaves an empty line (`<tspan y="…"> </tspan>`) after a room number.
    if (!words || frame.x === null || frame.y === null) {
      text.parts.push(value);
      return;
    }
    // Lines are words apart (`<tspan y="195">Meeting</tspan><tspan y="207">room</tspan>`).
    text.parts.push(text.lastY !== null && frame.y !== text.lastY ? ` ${value}` : value);
    if (text.x === null) {
      text.x = frame.x;
      text.fontSize = frame.fontSize;
      text.anchor = frame.anchor;
    }
    if (frame.y !== text.lastY) text.line = 0;
    text.lastY = frame.y;
    text.minY = Math.min(text.minY ?? frame.y, frame.y);
    text.maxY = Math.max(text.maxY ?? frame.y, frame.y);
    text.line += words.length;
    text.longest = Math.max(text.longest, text.line);
  }

  close(): void {
    const frame = this.frames.pop();
    if (!frame) return;
    if (this.current) {
      if (this.textDepth > 0) {
        this.textDepth--;
      } else {
        this.finishText(this.current);
        this.current = null;
      }
    }
    if (frame.use) {
      const box = this.useBox(frame.use, frame.matrix);
      if (box) frame.box = box;
      else if (frame.region >= 0) this.pendingUses.push({ region: frame.region, matrix: frame.matrix, target: frame.use.target });
    }
    if (frame.box) {
      if (frame.region >= 0) this.boxes.set(frame.region, frame.box);
      const parent = this.frames.at(-1);
      if (parent && !NOT_DRAWN.has(frame.tag)) parent.box = union(parent.box, frame.box);
    }
    if (frame.id && frame.box && this.useTargets.has(frame.id) && !this.byId.has(frame.id)) this.byId.set(frame.id, { box: frame.box, parentInverse: invert(frame.parentMatrix) });
  }

  /** What a `<use>` draws: its target's box, moved from where the target stands to the use's place. */
  private useBox(use: { target: string; x: number; y: number }, matrix: Matrix): Box | null {
    const target = this.byId.get(use.target);
    if (!target || !target.parentInverse) return null;
    return transformed(transformed(target.box, target.parentInverse), multiply(matrix, [1, 0, 0, 1, use.x, use.y]));
  }

  private finishText(text: TextBeingRead): void {
    const words = text.parts.join('').replace(/\s+/g, ' ').trim();
    if (!words || text.x === null || text.minY === null || text.maxY === null) return;
    const size = text.fontSize ?? 16;
    const width = GLYPH_WIDTH * size * (text.longest || words.length);
    const shift = text.anchor === 'middle' ? 0 : text.anchor === 'end' ? -width / 2 : width / 2;
    const [a, b, c, d, e, f] = text.matrix;
    const x = text.x + shift;
    const y = (text.minY + text.maxY) / 2 - size / 3;
    this.texts.push({ words, x: a * x + c * y + e, y: b * x + d * y + f, within: text.within });
  }

  /** The measured box of each region, by the reader's index (`<use>`s of later targets resolved now). */
  regionBoxes(): Map<number, Box> {
    for (const pending of this.pendingUses.splice(0)) {
      const target = this.byId.get(pending.target);
      if (!target?.parentInverse) continue;
      this.boxes.set(pending.region, transformed(transformed(target.box, target.parentInverse), pending.matrix));
    }
    return this.boxes;
  }
}

/**
 * The text inside each region, by the reader's index: each text goes to the smallest region its
 * middle lies in (or that holds it), among regions that hold no other measured region (a group
 * of rooms, a layer is named by none of their texts); a region with more than two texts is left
 * unnamed.
 */
export function labelsInside(boxes: ReadonlyMap<number, Box>, ancestors: ReadonlyArray<readonly number[]>, texts: readonly TextLabel[], excluded: ReadonlySet<number>): Map<number, string> {
  const holders = new Set<number>();
  for (const index of boxes.keys()) for (const ancestor of ancestors[index] ?? []) holders.add(ancestor);
  const candidates = [...boxes].filter(([index, box]) => !holders.has(index) && !excluded.has(index) && box.maxX > box.minX && box.maxY > box.minY).map(([index, box]) => ({ index, box, area: (box.maxX - box.minX) * (box.maxY - box.minY) }));
  // A shape with more than two texts in it is a background (the floor, a corridor, a wing), whichever smaller shapes they fall to.
  const inside = (box: Box, text: TextLabel) => text.x >= box.minX && text.x <= box.maxX && text.y >= box.minY && text.y <= box.maxY;
  const open = candidates.filter((candidate) => texts.filter((text) => inside(candidate.box, text)).length <= MAX_TEXTS);
  const found = new Map<number, string[]>();
  for (const text of texts) {
    let best: (typeof candidates)[number] | null = null;
    for (const candidate of open) {
      if ((text.within.includes(candidate.index) || inside(candidate.box, text)) && (!best || candidate.area < best.area)) best = candidate;
    }
    if (!best) continue;
    const list = found.get(best.index) ?? [];
    if (!list.includes(text.words)) list.push(text.words);
    found.set(best.index, list);
  }
  return new Map([...found].filter(([, words]) => words.length <= MAX_TEXTS).map(([index, words]) => [index, words.join(' ')]));
}
