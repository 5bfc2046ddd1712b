/**
 * A basemap floor's element on the page: the map's area, the element MapLibre draws in, and
 * the overlays over it. The browser's host (basemap-renderer.tsx) renders it; the server renders
 * it alone (MapLibre never runs there), so the page a browser hydrates already has it and the
 * map appears in it once MapLibre's code is in.
 */
import type { ComponentType, ReactNode, Ref } from 'react';
import { isBasemapFloor } from './is-basemap-floor';
import type { MapRendererProps } from './map-renderer';

export function BasemapFrame({ label, background, surfaceRef, ready, children }: { label: string; background: string; surfaceRef?: Ref<HTMLDivElement>; ready: boolean; children?: ReactNode }) {
  return (
    <div className="mf-map mf-map--basemap" role="region" aria-label={label} style={{ background }}>
      <div ref={surfaceRef} className="mf-basemap" data-ready={ready ? '' : undefined} />
      {children}
    </div>
  );
}

/** The server's rendering of a floor flagged for the basemap (map-renderer.tsx picks it there). */
export default function ServerBasemap({ drawn: Drawn, ...props }: MapRendererProps & { drawn: ComponentType<MapRendererProps> }) {
  return isBasemapFloor(props.layer) ? (
    <BasemapFrame label={props.label} background={props.document.settings.theme.background} ready={false}>
      {props.children}
    </BasemapFrame>
  ) : (
    <Drawn {...props} />
  );
}
