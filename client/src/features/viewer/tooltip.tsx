/**
 * The name (and the short text) of the location under the pointer or the keyboard's focus,
 * beside its marker. Loaded on the first hover (viewer.tsx): nothing hovers in a page's first
 * paint, so the page does not wait for it.
 */
import { useRef } from 'react';
import type { Camera } from '../../components/map/camera';
import type { Location, MapPoint } from '../../components/map/types';
import { MARKER_HEIGHT } from './marker-height';
import { useAnchored } from './use-anchored';

export function Tooltip({ camera, location, anchor }: { camera: Camera; location: Location; anchor: MapPoint | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useAnchored(camera, anchor, ref, MARKER_HEIGHT[location.marker] + 2);
  return (
    <div ref={ref} className="mf-tooltip" role="tooltip">
      <strong>{location.title}</strong>
      {location.about ? <span>{location.about}</span> : null}
    </div>
  );
}
