import { useLayoutEffect, type RefObject } from 'react';
import type { Camera } from '../../components/map/camera';
import type { MapPoint } from '../../components/map/types';

const MARGIN = 12;

/**
 * Keeps an overlay (tooltip, popup) beside a point of the map as the view moves: above it,
 * or below when there is no room above, and always inside the map's area. Runs in the
 * camera's frame, outside React. `--mf-arrow` is where the point is along the overlay's width.
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
    return camera.onFrame(place);
  }, [camera, anchor, ref, offset, enabled]);
}
