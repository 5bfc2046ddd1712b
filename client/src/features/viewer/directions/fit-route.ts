/**
 * The view that shows a route's leg on one floor: the leg's bounding box with room around it
 * for the controls over the map, zoomed no closer than the map allows.
 */
import type { Camera, View } from '../../../components/map/camera';
import type { MapPoint } from '../../../components/map/types';

export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Room kept free: the floor buttons above, the zoom buttons right, the legend below. */
export const ROUTE_INSETS: Insets = { top: 96, right: 88, bottom: 120, left: 72 };

export function viewFitting(camera: Camera, points: readonly MapPoint[], insets: Insets = ROUTE_INSETS): View | null {
  if (points.length === 0 || camera.width <= 0 || camera.height <= 0) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const point of points) {
    minX = Math.min(minX, point.x);
    minY = Math.min(minY, point.y);
    maxX = Math.max(maxX, point.x);
    maxY = Math.max(maxY, point.y);
  }
  // A small screen keeps at least 40% of itself for the route: the insets shrink together, so
  // the deeper one (a phone's search box and floor buttons above) stays the deeper one.
  const shrinkX = Math.min(1, (camera.width * 0.6) / Math.max(insets.left + insets.right, 1));
  const shrinkY = Math.min(1, (camera.height * 0.6) / Math.max(insets.top + insets.bottom, 1));
  const left = insets.left * shrinkX;
  const right = insets.right * shrinkX;
  const top = insets.top * shrinkY;
  const bottom = insets.bottom * shrinkY;
  const spanX = Math.max(maxX - minX, 1);
  const spanY = Math.max(maxY - minY, 1);
  const fit = camera.fit;
  // No closer than 1.8× the whole floor: a short route keeps the shops around it in view.
  const kMax = Math.min(camera.maxZoom, 1.8) * fit;
  const k = Math.max(camera.minZoom * fit, Math.min(kMax, (camera.width - left - right) / spanX, (camera.height - top - bottom) / spanY));
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  // The middle of the free area, not of the viewport.
  const sx = left + (camera.width - left - right) / 2;
  const sy = top + (camera.height - top - bottom) / 2;
  return { k, x: sx - cx * k, y: sy - cy * k };
}
