/**
 * A basemap floor's element on the page: the map's area, the element MapLibre draws in, and
 * the overlays over it. The browser's host (basemap-renderer.tsx) renders it; the server renders
 * it alone (MapLibre never runs there), so the page a browser hydrates already has it and the
 * map appears in it once MapLibre's code is in.
 */
import { useMemo, type ComponentType, type ReactNode, type Ref } from 'react';
import { useTranslator } from '../../i18n/i18n-context';
import { BasemapLocationButtons } from './basemap-location-buttons';
import { isBasemapFloor } from './is-basemap-floor';
import type { MapRendererProps } from './map-renderer';
import type { Location, MapDocument } from './types';

/** The floor's shown locations (not hidden) by id: what the map and its keyboard buttons show. */
export function useShownOnFloor(doc: MapDocument, layerId: string): ReadonlyMap<string, Location> {
  return useMemo(() => new Map(doc.locations.filter((location) => location.layer === layerId && !location.hidden).map((location) => [location.id, location])), [doc.locations, layerId]);
}

/**
 * The map's area: the element MapLibre draws in, the overlays (the locations' keyboard buttons
 * first, then the host's children), and last the place MapLibre's controls are moved to
 * (basemap-renderer.tsx): in the order Tab takes, the attribution's links come after the map's
 * locations and controls, not between the map and its locations.
 */
export function BasemapFrame({
  label,
  background,
  dark,
  surfaceRef,
  controlsRef,
  ready,
  regions,
  children,
}: {
  label: string;
  background: string;
  /** The theme's dark mode: MapLibre's attribution is styled for it (basemap-renderer.css). */
  dark: boolean;
  surfaceRef?: Ref<HTMLDivElement>;
  controlsRef?: Ref<HTMLDivElement>;
  ready: boolean;
  regions?: number;
  children?: ReactNode;
}) {
  return (
    <div className={dark ? 'mf-map mf-map--basemap mf-map--dark' : 'mf-map mf-map--basemap'} role="region" aria-label={label} style={{ background }}>
      {/* data-regions: how many of the floor's regions are drawn (for tests, as data-ready). */}
      <div ref={surfaceRef} className="mf-basemap" data-ready={ready ? '' : undefined} data-regions={regions || undefined} />
      {children}
      <div ref={controlsRef} className="mf-basemap__controls" />
    </div>
  );
}

/** The server's rendering of a floor flagged for the basemap (map-renderer.tsx picks it there). */
export default function ServerBasemap({ drawn: Drawn, ...props }: MapRendererProps & { drawn: ComponentType<MapRendererProps> }) {
  return isBasemapFloor(props.layer) ? <ServerFrame {...props} /> : <Drawn {...props} />;
}

/** The frame with the keyboard's buttons as the browser's first render has them (hydrated as they are). */
function ServerFrame(props: MapRendererProps) {
  const { t } = useTranslator();
  const byId = useShownOnFloor(props.document, props.layer.id);
  return (
    <BasemapFrame label={props.label} background={props.document.settings.theme.background} dark={props.document.settings.theme.mode === 'dark'} ready={false}>
      <BasemapLocationButtons view={null} byId={byId} visibleIds={props.visibleIds} label={t('map.locationsOn', { layer: props.layer.name })} describe={props.describe} />
      {props.children}
    </BasemapFrame>
  );
}
