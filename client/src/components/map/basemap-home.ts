/**
 * A basemap floor's home view when the document sets none (issue 29): its bounds fitted, as
 * MapLibre's fitBounds does, unless the view cannot show them whole. MapLibre keeps the world at
 * least as tall as the view (and, one world shown, as wide), and the view inside it: on a tall
 * phone a floor round the world (a chain's 25,000 stores) is shown deeper than its fit, at the
 * fit's middle across and, the world exactly as tall as the view, the equator down: the middle
 * of the Atlantic. Then the view is centred on the floor's points instead (the median of the
 * most of them a view of its size holds), zoomed in as little as MapLibre needs to let the view
 * be centred there. Plain TypeScript for the MapLibre view (maplibre-map-view.ts) and its tests.
 */
import { toLngLat, type BasemapBounds, type FloorGeo } from './basemap-floor';
import type { MapPoint } from './types';

/** MapLibre's tiles' size: the world is this many CSS pixels across at zoom 0. */
const TILE_SIZE = 512;
/** How far north and south Web Mercator's world goes. */
const MERCATOR_LAT = 85.051129;
/** How much deeper than the world filling the view the home view may go to be centred on its points. */
const MAX_CENTRING_ZOOM = 2;

/** Web Mercator's y of a latitude, as a share of the world's height from its north edge. */
const mercatorY = (lat: number) => 0.5 - Math.log(Math.tan(Math.PI / 4 + (Math.max(-MERCATOR_LAT, Math.min(MERCATOR_LAT, lat)) * Math.PI) / 360)) / (2 * Math.PI);

/** The shallowest zoom MapLibre shows a view of this size at: the world at least as tall (and as wide: one world shown). */
export function worldFillingZoom(screen: { width: number; height: number }): number {
  return Math.log2(Math.max(screen.width, screen.height, 1) / TILE_SIZE);
}

/**
 * The shallowest zoom at which MapLibre lets a view of this size be centred on a place: it
 * keeps the view inside the world (±180°, ±85°), so a centre near an edge needs a world large
 * enough for half the view on that side.
 */
export function centringZoom([lng, lat]: readonly [number, number], screen: { width: number; height: number }): number {
  const x = Math.max(0, Math.min(1, (lng + 180) / 360));
  const y = mercatorY(lat);
  const world = Math.max(screen.width / (2 * Math.max(Math.min(x, 1 - x), 1e-6)), screen.height / (2 * Math.max(Math.min(y, 1 - y), 1e-6)));
  return Math.log2(world / TILE_SIZE);
}

/** How much of a floor (its units across and down) a view of this size shows at a MapLibre zoom. */
export function visibleSpan(geo: BasemapBounds, size: { width: number; height: number }, screen: { width: number; height: number }, zoom: number): { width: number; height: number } {
  const world = TILE_SIZE * 2 ** zoom;
  const across = (Math.abs(geo.east - geo.west) / 360) * world;
  const down = Math.abs(mercatorY(geo.south) - mercatorY(geo.north)) * world;
  return { width: (screen.width / Math.max(across, 1e-9)) * size.width, height: (screen.height / Math.max(down, 1e-9)) * size.height };
}

/** Along one axis (values sorted): the values in the `span`-long window holding the most of them. */
function densest(sorted: readonly number[], span: number): readonly number[] {
  let best = { from: 0, to: 0 };
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end]! - sorted[start]! <= span) end++;
    if (end - start > best.to - best.from) best = { from: start, to: end };
  }
  return sorted.slice(best.from, best.to);
}

/** The middle one of values sorted. */
const median = (sorted: readonly number[]) => sorted[Math.floor(sorted.length / 2)]!;

/**
 * Where a view showing `visible` (floor units across and down) centres on a floor of `size`:
 * its middle on an axis where the view holds the floor whole; else on the points, at the median
 * of those in the window of the view's size holding the most of them (across first, then down
 * among those). A median, not the window's middle: a chain on both sides of an ocean is centred
 * on its busier side, not on the water between.
 */
export function centreOnPoints(points: readonly MapPoint[], size: { width: number; height: number }, visible: { width: number; height: number }): MapPoint {
  const centre = { x: size.width / 2, y: size.height / 2 };
  if (points.length === 0) return centre;
  let chosen = points;
  if (visible.width < size.width) {
    const across = densest(points.map((point) => point.x).sort((a, b) => a - b), visible.width);
    centre.x = median(across);
    chosen = points.filter((point) => point.x >= across[0]! && point.x <= across[across.length - 1]!);
  }
  if (visible.height < size.height) centre.y = median(densest(chosen.map((point) => point.y).sort((a, b) => a - b), visible.height));
  return centre;
}

/**
 * The home view of a floor whose bounds fit at MapLibre's `fitZoom` in a view of `screen`'s
 * size, when MapLibre would show them deeper (see the module's comment): centred on the points,
 * at the shallowest zoom MapLibre allows there. Null when the fit holds (fit the bounds, then).
 */
export function homeOnPoints(floor: FloorGeo, points: readonly MapPoint[], screen: { width: number; height: number }, fitZoom: number): { center: [number, number]; zoom: number } | null {
  const filling = worldFillingZoom(screen);
  if (filling <= fitZoom + 0.01) return null;
  const center = toLngLat(floor, centreOnPoints(points, floor.size, visibleSpan(floor.geo, floor.size, screen, filling)));
  return { center, zoom: Math.min(Math.max(filling, centringZoom(center, screen)), filling + MAX_CENTRING_ZOOM) };
}
