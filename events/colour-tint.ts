/**
 * A colour mixed towards white: how a region's fill is made from its location's colour (or its
 * first group's), lighter so the drawing's lines and labels stay readable. Shared by the
 * browser's live floor (client/src/components/map/svg-layer.ts) and the server's tints of the
 * page without JavaScript (server/public-maps/region-tints.ts).
 */

/** Mixes `#rrggbb` towards white (amount 0: the colour, 1: white). */
export function tint(hex: string, amount: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const mix = (channel: number) => Math.round(channel + (255 - channel) * amount);
  const r = mix((value >> 16) & 255);
  const g = mix((value >> 8) & 255);
  const b = mix(value & 255);
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** How light a region's fill is, its hover and its selected state (svg-layer.ts). */
export const REGION_TINT = { fill: 0.72, hover: 0.5, active: 0.3 } as const;
