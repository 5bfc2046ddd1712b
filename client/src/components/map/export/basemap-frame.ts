/**
 * A picture of a floor on a street basemap (issue 29 item 1), the pure part: the frame MapLibre
 * draws the basemap in for the picture (the view on screen, scaled down for paper, or the whole
 * floor with the margin a drawn floor's picture has, scene.ts), the floor's place in it as the
 * scene's {@link ScreenView}, and the attribution the tiles' sources ask for as plain text.
 * basemap-picture.ts draws it; tests check this without a browser.
 */
import { FLOOR_LONG_SIDE, FLOOR_MARGIN, type ScreenView } from './scene';
import type { Layer, MapDocument, MapPoint } from '../types';

/** What MapLibre is asked to draw for the picture: its size and where its camera is. */
export type BasemapFrame =
  /** The view on screen at this size: its centre, its zoom moved by `zoomBy` (scaled down for paper). */
  | { kind: 'view'; width: number; height: number; zoomBy: number }
  /** The whole floor fitted with `padding` around it. */
  | { kind: 'floor'; width: number; height: number; padding: number };

/**
 * The frame for a picture: `screen` is the map's size on screen, `floor` the floor's size in its
 * units, `maxSide` the longest side a printed page wants (as buildScene's `maxSide`).
 */
export function basemapFrame(extent: 'view' | 'floor', screen: { width: number; height: number }, floor: { width: number; height: number }, maxSide?: number): BasemapFrame {
  if (extent === 'view' && screen.width > 0 && screen.height > 0) {
    const scale = Math.min(1, (maxSide ?? Infinity) / Math.max(screen.width, screen.height));
    return { kind: 'view', width: Math.max(1, Math.round(screen.width * scale)), height: Math.max(1, Math.round(screen.height * scale)), zoomBy: Math.log2(scale) };
  }
  const k = Math.min(FLOOR_LONG_SIDE, maxSide ?? Infinity) / Math.max(floor.width, floor.height);
  return { kind: 'floor', width: Math.round(floor.width * k) + FLOOR_MARGIN * 2, height: Math.round(floor.height * k) + FLOOR_MARGIN * 2, padding: FLOOR_MARGIN };
}

/**
 * The floor's place in a frame, from where MapLibre shows its top left corner and its bottom
 * right one: the scene's view, and how much taller a floor unit is than wide there. The basemap
 * never rotates, so each axis maps linearly; but a floor's units need not be square on the
 * basemap (a 1000 × 800 floor over bounds of another shape), so the picture's floor is
 * stretched by `stretch` down the page (stretchFloor) to be drawn with one scale.
 */
export function frameView(frame: { width: number; height: number }, floor: { width: number; height: number }, origin: MapPoint, corner: MapPoint): { view: ScreenView; stretch: number } {
  const k = (corner.x - origin.x) / floor.width || 1;
  const ky = (corner.y - origin.y) / floor.height || k;
  return { view: { x: origin.x, y: origin.y, k, width: frame.width, height: frame.height }, stretch: ky / k };
}

/** The document with one floor's positions and height stretched down by `stretch` (see frameView). */
export function stretchFloor(doc: MapDocument, layer: Layer, stretch: number): { document: MapDocument; layer: Layer } {
  if (Math.abs(stretch - 1) < 1e-9) return { document: doc, layer };
  const size = { width: doc.settings.size.width, height: doc.settings.size.height * stretch };
  const stretched: Layer = layer.file ? { ...layer, file: { ...layer.file, height: layer.file.height * stretch } } : layer;
  const locations = doc.locations.map((location) => (location.layer === layer.id && location.position ? { ...location, position: { x: location.position.x, y: location.position.y * stretch } } : location));
  return { document: { ...doc, settings: { ...doc.settings, size }, locations, layers: doc.layers.map((candidate) => (candidate.id === layer.id ? stretched : candidate)) }, layer: stretched };
}

/** The sources' attributions (HTML with links) as one line of text, each said once. */
export function attributionText(attributions: ReadonlyArray<string | undefined>): string {
  const parts: string[] = [];
  for (const html of attributions) {
    if (!html) continue;
    const text = html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .replace(/&copy;/g, '©')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, ' ')
      .trim();
    for (const part of text.split(/\s+[·|]\s+/)) if (part && !parts.includes(part)) parts.push(part);
  }
  return parts.join(' · ');
}

/**
 * A MapLibre map on screen as a picture reads it (MapLibreMapView's `map` and `floorState`),
 * duck-typed so that asking needs none of MapLibre's code.
 */
export interface LiveMap {
  map: { getContainer(): HTMLElement; getCanvas(): HTMLCanvasElement };
  floorState: unknown;
}

/** The view's MapLibre map, when the view on screen is a basemap's; else null. */
export function liveBasemapOf(view: unknown): LiveMap | null {
  const candidate = view as Partial<LiveMap> | null;
  return candidate && typeof candidate === 'object' && candidate.map && typeof candidate.map.getCanvas === 'function' && 'floorState' in candidate && candidate.floorState ? (candidate as LiveMap) : null;
}
