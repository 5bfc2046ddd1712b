/**
 * Fitting points into a map view, in plain TypeScript for either view (MapView.fitTo and
 * MapView.ensureVisible: the canvas's camera in interactive.ts, MapLibre's in
 * maplibre-map-view.ts) and their tests: the room kept free around them (the controls over
 * the map), shrunk on a small screen, the view that fits them on the canvas, and how far a
 * view pans for a point to come inside it.
 */
import type { View } from './camera';
import type { Insets } from './map-view';
import type { MapPoint } from './types';

/** The same room on every edge. */
export const insetsOf = (padding: number | Insets): Insets => (typeof padding === 'number' ? { top: padding, right: padding, bottom: padding, left: padding } : padding);

/**
 * The room kept free inside a view of `width` × `height`: on a small screen at least 40% of
 * each axis stays for the points, the two edges' room shrinking together (so the deeper one, a
 * phone's search box and floor buttons above, stays the deeper one).
 */
export function insetsWithin(padding: number | Insets, width: number, height: number): Insets {
  const insets = insetsOf(padding);
  const x = Math.min(1, (width * 0.6) / Math.max(insets.left + insets.right, 1));
  const y = Math.min(1, (height * 0.6) / Math.max(insets.top + insets.bottom, 1));
  return { top: insets.top * y, right: insets.right * x, bottom: insets.bottom * y, left: insets.left * x };
}

/** The points' bounding box in the floor's units (null for none). */
export function boxOf(points: readonly MapPoint[]): { minX: number; minY: number; maxX: number; maxY: number } | null {
  if (points.length === 0) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const { x, y } of points) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  return { minX, minY, maxX, maxY };
}

/** What the canvas's fit reads of its camera. */
export interface FitFrame {
  width: number;
  height: number;
  /** The scale at which the whole floor fits (zoom 1). */
  fit: number;
  minZoom: number;
  maxZoom: number;
}

/**
 * The canvas's view that shows the points inside `padding`, centred in the free area (not the
 * viewport), no deeper than `maxZoom` (relative: 1 fits the floor) nor the map's limit, no
 * further out than the map's. Null when the view has no size yet.
 */
export function viewFitting(frame: FitFrame, points: readonly MapPoint[], padding: number | Insets, maxZoom = Infinity): View | null {
  const box = boxOf(points);
  if (!box || frame.width <= 0 || frame.height <= 0) return null;
  const { top, right, bottom, left } = insetsWithin(padding, frame.width, frame.height);
  const freeWidth = frame.width - left - right;
  const freeHeight = frame.height - top - bottom;
  const kMax = Math.min(frame.maxZoom, maxZoom) * frame.fit;
  const k = Math.max(frame.minZoom * frame.fit, Math.min(kMax, freeWidth / Math.max(box.maxX - box.minX, 1e-9), freeHeight / Math.max(box.maxY - box.minY, 1e-9)));
  const cx = (box.minX + box.maxX) / 2;
  const cy = (box.minY + box.maxY) / 2;
  return { k, x: left + freeWidth / 2 - cx * k, y: top + freeHeight / 2 - cy * k };
}

/**
 * How far to pan a view of `width` × `height` (screen pixels, to add to the point's place) for
 * a point on screen to sit at least `margin` inside it: nothing when it does already.
 */
export function panInto(point: MapPoint, width: number, height: number, margin: number): { dx: number; dy: number } {
  const mx = Math.min(margin, width / 2);
  const my = Math.min(margin, height / 2);
  const dx = point.x < mx ? mx - point.x : point.x > width - mx ? width - mx - point.x : 0;
  const dy = point.y < my ? my - point.y : point.y > height - my ? height - my - point.y : 0;
  return { dx, dy };
}
