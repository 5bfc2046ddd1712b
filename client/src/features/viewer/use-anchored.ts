import { useLayoutEffect, type RefObject } from 'react';
import type { Camera } from '../../components/map/camera';
import type { MapPoint } from '../../components/map/types';

const MARGIN = 12;

/**
 * Keeps an overlay (tooltip, popup) beside a point of the map as the view moves: above it,
 * or below when there is no room above, and always inside the map's area. Runs in the
 * camera's frame, outside React. `--mf-arrow` is where the point is along the overlay's width.
 * Physical pixels from the map's top left in either direction (the map is never mirrored, and
 * the overlays' CSS keeps `left`/`top` for that: viewer.css).
 */
export function useAnchored(camera: Camera, anchor: MapPoint | null, ref: RefObject<HTMLElement | null>, offset: number, enabled = true): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || !enabled) return;
    const place = () => {
      if (!anchor) {
        element.dataset.placement = 'none';
        element.style.transform = '';
        return;
      }
      const point = camera.toScreen(anchor);
      const width = element.offsetWidth;
      const height = element.offsetHeight;
      const left = Math.max(MARGIN, Math.min(point.x - width / 2, camera.width - width - MARGIN));
      let top = point.y - offset - height;
      let placement = 'above';
      if (top < MARGIN) {
        top = Math.min(point.y + 14, Math.max(MARGIN, camera.height - height - MARGIN));
        placement = 'below';
      }
      element.dataset.placement = placement;
      element.dataset.offscreen = String(point.x < 0 || point.y < 0 || point.x > camera.width || point.y > camera.height);
      element.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
      element.style.setProperty('--mf-arrow', `${Math.round(Math.max(16, Math.min(width - 16, point.x - left)))}px`);
    };
    place();
    // Placed again when the overlay changes size too (a description or a font arriving, a
    // language's longer words), not only when the view moves: else it keeps the room it
    // was given when smaller, and its arrow leaves its point.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    resized?.observe(element);
    const stop = camera.onFrame(place);
    return () => {
      stop();
      resized?.disconnect();
    };
  }, [camera, anchor, ref, offset, enabled]);
}
