/**
 * CSS colours as other tools write them (`#4d5e6d`, `#DD3C38`, `#666`, `rgb(77, 94, 109)`,
 * `rgba(…)`, `steelblue`) read as the `#rrggbb` a map stores. Transparency has no home in a
 * stored colour, so an alpha is dropped; a colour this cannot read is left to the caller to
 * report, never guessed.
 */

/** The names map builders actually write; anything rarer is reported rather than guessed. */
const NAMED: Record<string, string> = {
  black: '#000000', white: '#ffffff', red: '#ff0000', green: '#008000', blue: '#0000ff', yellow: '#ffff00',
  orange: '#ffa500', purple: '#800080', pink: '#ffc0cb', brown: '#a52a2a', gray: '#808080', grey: '#808080',
  silver: '#c0c0c0', maroon: '#800000', olive: '#808000', lime: '#00ff00', aqua: '#00ffff', cyan: '#00ffff',
  teal: '#008080', navy: '#000080', fuchsia: '#ff00ff', magenta: '#ff00ff', gold: '#ffd700', indigo: '#4b0082',
  violet: '#ee82ee', coral: '#ff7f50', crimson: '#dc143c', tomato: '#ff6347', salmon: '#fa8072', khaki: '#f0e68c',
  beige: '#f5f5dc', tan: '#d2b48c', turquoise: '#40e0d0', orchid: '#da70d6', plum: '#dda0dd', skyblue: '#87ceeb',
  steelblue: '#4682b4', royalblue: '#4169e1', darkblue: '#00008b', darkgreen: '#006400', darkred: '#8b0000',
  darkorange: '#ff8c00', lightblue: '#add8e6', lightgreen: '#90ee90', lightgray: '#d3d3d3', lightgrey: '#d3d3d3',
  darkgray: '#a9a9a9', darkgrey: '#a9a9a9', dimgray: '#696969', dimgrey: '#696969', slategray: '#708090',
  slategrey: '#708090', forestgreen: '#228b22', seagreen: '#2e8b57', firebrick: '#b22222', chocolate: '#d2691e',
  goldenrod: '#daa520', hotpink: '#ff69b4', deeppink: '#ff1493', dodgerblue: '#1e90ff', midnightblue: '#191970',
};

const hex2 = (value: number) => Math.round(Math.max(0, Math.min(255, value))).toString(16).padStart(2, '0');

/** A channel of `rgb()`: 0–255 or a percentage. */
function channel(text: string): number | null {
  const value = parseFloat(text);
  if (!Number.isFinite(value)) return null;
  return text.trim().endsWith('%') ? (value / 100) * 255 : value;
}

/** `#rrggbb` (lower case) for a CSS colour, or null when it is not one this reads. */
export function normaliseColour(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim().toLowerCase();
  if (text === '') return null;
  const long = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/.exec(text);
  if (long) return `#${long[1]}`;
  const short = /^#?([0-9a-f])([0-9a-f])([0-9a-f])([0-9a-f])?$/.exec(text);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  const rgb = /^rgba?\(\s*([^,\s)]+)[\s,]+([^,\s)]+)[\s,]+([^,\s)/]+)(?:\s*[,/]\s*[^)]+)?\s*\)$/.exec(text);
  if (rgb) {
    const channels = [rgb[1]!, rgb[2]!, rgb[3]!].map(channel);
    return channels.every((value): value is number => value !== null) ? `#${channels.map(hex2).join('')}` : null;
  }
  return NAMED[text] ?? null;
}
