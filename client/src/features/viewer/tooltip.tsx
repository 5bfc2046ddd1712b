/**
 * The name (and the short text) of the location under the pointer or the keyboard's focus,
 * beside its marker. Loaded on the first hover (viewer.tsx): nothing hovers in a page's first
 * paint, so the page does not wait for it.
 */
import { useRef } from 'react';
import type { MapView } from '../../components/map/map-view';
import type { Location } from '../../components/map/types';
import { MARKER_HEIGHT } from './marker-height';
import { useAnchored } from './use-anchored';

export function Tooltip({ view, location }: { view: MapView | null; location: Location }) {
  const ref = useRef<HTMLDivElement>(null);
  useAnchored(view?.screen, view?.anchorOf(location.id) ?? null, ref, MARKER_HEIGHT[location.marker] + 2);
  return (
    <div ref={ref} className="mf-tooltip" role="tooltip">
      <strong>{location.title}</strong>
      {location.about ? <span>{location.about}</span> : null}
    </div>
  );
}
