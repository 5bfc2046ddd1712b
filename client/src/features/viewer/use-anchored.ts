import { useLayoutEffect, type RefObject } from 'react';
import type { ScreenProjection } from '../../components/map/map-view';
import type { MapPoint } from '../../components/map/types';

const MARGIN = 12;

/**
 * Keeps an overlay (tooltip, popup) beside a point of the map as the view moves: above it,
 * or below when there is no room above, and always inside the map's area. Runs in the
 * map view's frame, outside React, on either view (its {@link ScreenProjection}: the canvas's
 * camera, or a basemap's MapLibre map); with no view yet, it waits unplaced. `--mf-arrow` is where the point is along the overlay's width.
 * Physical pixels from the map's top left in either direction (the map is never mirrored, and
 * the overlays' CSS keeps `left`/`top` for that: viewer.css).
 */
export function useAnchored(screen: ScreenProjection | null | undefined, anchor: MapPoint | null, ref: RefObject<HTMLElement | null>, offset: number, enabled = true): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || !enabled) return;
    const place = () => {
      if (!anchor || !screen) {
        element.dataset.placement = 'none';
        element.style.transform = '';
        return;
      }
      const point = screen.toScreen(anchor);
      const width = element.offsetWidth;
      const height = element.offsetHeight;
      const left = Math.max(MARGIN, Math.min(point.x - width / 2, screen.width - width - MARGIN));
      let top = point.y - offset - height;
      let placement = 'above';
      if (top < MARGIN) {
        top = Math.min(point.y + 14, Math.max(MARGIN, screen.height - height - MARGIN));
        placement = 'below';
      }
      element.dataset.placement = placement;
      element.dataset.offscreen = String(point.x < 0 || point.y < 0 || point.x > screen.width || point.y > screen.height);
      element.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
      element.style.setProperty('--mf-arrow', `${Math.round(Math.max(16, Math.min(width - 16, point.x - left)))}px`);
    };
    place();
    // Placed again when the overlay changes size too (a description or a font arriving, a
    // language's longer words), not only when the view moves: else it keeps the room it
    // was given when smaller, and its arrow leaves its point.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    resized?.observe(element);
    const stop = screen?.onFrame(place);
    return () => {
      stop?.();
      resized?.disconnect();
    };
  }, [screen, anchor, ref, offset, enabled]);
}
