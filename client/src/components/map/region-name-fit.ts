/**
 * How a region's name fits inside its shape: on one line, or two split at the space nearest the
 * middle, as large as the shape allows up to a maximum, and not at all below a minimum (a name
 * that does not fit is not shown rather than spilling over its neighbours). Pure: the drawing
 * code (region-names.ts) measures and places, tests check the fitting.
 */

export interface NameFit {
  lines: string[];
  /** The font size, in the shape's own units. */
  size: number;
}

export interface FitLimits {
  /** Smallest and largest font size on the floor, in the floor's pixels. */
  min: number;
  max: number;
}

export const NAME_LIMITS: FitLimits = { min: 7, max: 18 };
/** Of the shape's box, the part a name may take (a margin all round). */
const WIDTH_SHARE = 0.86;
const HEIGHT_SHARE = 0.8;
export const LINE_HEIGHT = 1.15;

/** One line, and where there is a space, two split at the space nearest the middle. */
function layouts(name: string): string[][] {
  const clean = name.replace(/\s+/g, ' ').trim();
  if (!clean) return [];
  const options = [[clean]];
  const middle = clean.length / 2;
  let best = -1;
  for (let i = 0; i < clean.length; i++) if (clean[i] === ' ' && (best < 0 || Math.abs(i - middle) < Math.abs(best - middle))) best = i;
  if (best > 0) options.push([clean.slice(0, best), clean.slice(best + 1)]);
  return options;
}

/**
 * The largest layout of `name` inside a box of `width` × `height` shape units, where `scale` is
 * floor pixels per shape unit and `measure(text)` the text's width at a font size of 1; null when
 * even the smallest allowed size does not fit.
 */
export function fitName(name: string, width: number, height: number, scale: number, measure: (text: string) => number, limits: FitLimits = NAME_LIMITS): NameFit | null {
  if (!(width > 0 && height > 0 && scale > 0)) return null;
  let best: NameFit | null = null;
  for (const lines of layouts(name)) {
    const widest = Math.max(...lines.map(measure));
    if (!(widest > 0)) continue;
    const size = Math.min(limits.max / scale, (width * WIDTH_SHARE) / widest, (height * HEIGHT_SHARE) / (lines.length * LINE_HEIGHT));
    if (!best || size > best.size * 1.05) best = { lines, size };
  }
  return best && best.size * scale >= limits.min ? best : null;
}

/** An estimate of a text's width at a font size of 1 (semibold sans-serif), where nothing measures it. */
export const estimateWidth = (text: string): number => text.length * 0.58;
