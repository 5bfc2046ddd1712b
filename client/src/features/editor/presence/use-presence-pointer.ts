/**
 * Reports this tab's pointer over the map, in the floor's own coordinates (the map's view turns
 * the screen point into a point of the plan: the canvas's camera, or MapLibre's on a street
 * basemap), so others see it on the same spot whatever their zoom.
 * A pointer that leaves the map, and a finger (which pans rather than points), show none. When
 * the map moves under a still pointer (wheel zoom, keys), the point of the plan under it is sent.
 */
import { useEffect, useMemo, useRef, type PointerEvent } from 'react';
import type { ScreenProjection } from '../../../components/map/map-view';
import { usePresenceSession } from './presence-context';

export interface PresencePointerHandlers {
  onPointerMove?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: () => void;
}

const round = (value: number) => Math.round(value * 10) / 10;

export function usePresencePointer(screen: ScreenProjection, layerId: string): PresencePointerHandlers {
  const session = usePresenceSession();
  /** The pointer within the map's viewport (CSS pixels), while it is over it. */
  const at = useRef<{ x: number; y: number } | null>(null);
  const layer = useRef(layerId);
  layer.current = layerId;

  useEffect(() => {
    if (!session) return;
    const report = () => {
      const point = at.current;
      if (!point) return;
      const onMap = screen.toMap(point.x, point.y);
      session.set({ cursor: { layer: layer.current, x: round(onMap.x), y: round(onMap.y) } });
    };
    report();
    return screen.onFrame(report);
  }, [session, screen, layerId]);

  return useMemo(() => {
    if (!session) return {};
    return {
      onPointerMove: (event: PointerEvent<HTMLElement>) => {
        if (event.pointerType === 'touch') return;
        // The drawn floor's viewport, or the element MapLibre draws a street basemap floor in.
        const viewport = event.currentTarget.querySelector('.mf-viewport, .mf-basemap') ?? event.currentTarget;
        const rect = viewport.getBoundingClientRect();
        const x = event.clientX - rect.left;
        const y = event.clientY - rect.top;
        if (x < 0 || y < 0 || x > rect.width || y > rect.height) {
          at.current = null;
          session.set({ cursor: null });
          return;
        }
        at.current = { x, y };
        const onMap = screen.toMap(x, y);
        session.set({ cursor: { layer: layer.current, x: round(onMap.x), y: round(onMap.y) } });
      },
      onPointerLeave: () => {
        at.current = null;
        session.set({ cursor: null });
      },
    };
  }, [session, screen]);
}
