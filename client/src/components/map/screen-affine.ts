/**
 * A {@link ScreenProjection} as the affine map it is: neither view rotates (the canvas's camera
 * scales both axes alike; MapLibre's view of a street basemap floor is north up, and the floor's
 * units are linear in Web Mercator, so each axis scales on its own, alike when the floor's units
 * are square on the basemap). What an SVG drawn in the floor's units (the editor's path network)
 * puts on its transform, and how many floor units a screen pixel spans (the path tool's reach).
 */
import type { ScreenProjection } from './map-view';

export interface ScreenAffine {
  /** Screen pixels per floor unit, across and down. */
  kx: number;
  ky: number;
  /** Where the floor's origin is on screen. */
  x: number;
  y: number;
}

/** Read from three points of the floor `span` units apart (any span: the map is linear). */
export function affineOf(screen: ScreenProjection, span = 1000): ScreenAffine {
  const origin = screen.toScreen({ x: 0, y: 0 });
  const across = screen.toScreen({ x: span, y: 0 });
  const down = screen.toScreen({ x: 0, y: span });
  return { kx: (across.x - origin.x) / span, ky: (down.y - origin.y) / span, x: origin.x, y: origin.y };
}

/** Floor units per screen pixel (across), for distances measured on screen. */
export function unitsPerPixel(screen: ScreenProjection): number {
  const { kx } = affineOf(screen);
  return kx > 0 && Number.isFinite(kx) ? 1 / kx : 1;
}
