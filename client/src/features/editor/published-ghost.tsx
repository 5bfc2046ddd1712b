/**
 * Where a moved location stood in the published revision (issue 27, "Publish changes": the
 * before/after on the map): a faint dashed ring at its published position, while the location
 * itself, selected, shows where it stands now. Placed through the map's view on every frame
 * (outside React, like the markers), shown only on the floor it stood on. Decoration: the
 * review's own text says "moved"; screen readers are not told twice.
 */
import { useCallback, useLayoutEffect, useRef } from 'react';
import type { ScreenProjection } from '../../components/map/map-view';
import type { MapPoint } from '../../components/map/types';
import './published-ghost.css';

export interface PublishedGhostProps {
  /** Where the floor's points are on screen (the canvas's camera, or MapLibre's view on a street basemap). */
  screen: ScreenProjection;
  at: MapPoint;
  /** The side its "Published" label goes: away from where the location stands now, so the two never cover each other on a short move. */
  labelSide?: 'left' | 'right';
}

export function PublishedGhost({ screen: projection, at, labelSide = 'right' }: PublishedGhostProps) {
  const ref = useRef<HTMLDivElement>(null);
  const place = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const screen = projection.toScreen(at);
    // Its label on the side asked for, else (the map's edge would cut it) under the ring: the
    // other side is where the location stands now.
    const room = (element.lastElementChild as HTMLElement | null)?.offsetWidth ?? 0;
    const fits = labelSide === 'left' ? screen.x - 18 - room >= 0 : screen.x + 18 + room <= projection.width;
    element.dataset.side = fits ? labelSide : 'below';
    element.style.transform = `translate3d(${Math.round(screen.x * 10) / 10}px, ${Math.round(screen.y * 10) / 10}px, 0)`;
  }, [projection, at, labelSide]);
  useLayoutEffect(() => projection.onFrame(place), [projection, place]);
  useLayoutEffect(place);
  return (
    <div className="ed-published-ghosts" aria-hidden="true" data-mf-ui="">
      <div ref={ref} className="ed-published-ghost" data-testid="published-ghost">
        <span className="ed-published-ghost__ring" />
        <span className="ed-published-ghost__label">Published</span>
      </div>
    </div>
  );
}
