/**
 * The React host of a floor on a street basemap (issue 29 item 1): the element MapLibre draws
 * in, the overlays over it (popups, tooltips, controls: the same children as the canvas's
 * host, map-renderer.tsx, which picks this one for a basemap floor and loads it on demand), and
 * the floor, its locations, the selection and the filters handed to its {@link MapLibreMapView}
 * as they change. The style follows the map's theme and the viewer's language.
 *
 * The canvas's Camera is kept in step with MapLibre's view (the floor's scale and offset on
 * screen, and how far it can zoom): what still reads the camera (the zoom buttons and their
 * limits, the share menu's picture of this view, the editor's first view of the map) stays right
 * on this floor. The popup, the tooltip and the route's overlay read MapView.screen instead.
 *
 * MapLibre's controls (its attribution) are moved out of the element it draws in to the frame's
 * last place (basemap-frame.tsx), after the locations' keyboard buttons: Tab from the map reaches
 * the locations first.
 */
import { useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Camera } from './camera';
import type { BasemapBounds } from './basemap-floor';
import { BasemapFrame, useShownOnFloor } from './basemap-frame';
import { BasemapLocationButtons } from './basemap-location-buttons';
import { useBasemapRegions } from './use-basemap-regions';
import { isBasemapFloor } from './is-basemap-floor';
import type { MapLibreMapView } from './maplibre-map-view';
import type { MapRendererProps } from './map-renderer';
import type { ComponentType } from 'react';
import type { MapView } from './map-view';
import { useTranslator } from '../../i18n/i18n-context';

/** A floor flagged for the basemap: on it when its calibration allows (Web Mercator bounds), else drawn on its own. */
export default function BasemapOrDrawn({ drawn: Drawn, ...props }: MapRendererProps & { drawn: ComponentType<MapRendererProps> }) {
  return isBasemapFloor(props.layer) ? <BasemapRenderer {...props} /> : <Drawn {...props} />;
}

function BasemapRenderer(props: MapRendererProps) {
  const { document: doc, layer, camera, selectedId, visibleIds, cooperative = false, label, describe, children } = props;
  const { t, locale } = useTranslator();
  const surfaceRef = useRef<HTMLDivElement>(null);
  const controlsRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<MapLibreMapView | null>(null);
  const [ready, setReady] = useState(false);
  const { theme, initialView, size } = doc.settings;
  const dark = theme.mode === 'dark';
  const styleUrl = `${window.location.origin}/basemap/style.json?theme=${dark ? 'dark' : 'light'}&lang=${encodeURIComponent(locale)}`;
  const labelRef = useRef(label);
  labelRef.current = label;
  // The accent, mode and language the map starts in; a change of them later repaints the map
  // rather than making another (setAccent and setStyle below): it keeps its view and tiles.
  const accentRef = useRef(theme.accent);
  accentRef.current = theme.accent;
  const styleRef = useRef({ styleUrl, dark });
  styleRef.current = { styleUrl, dark };

  // MapLibre and the view's code: a chunk of their own, fetched as this host mounts.
  useEffect(() => {
    let created: MapLibreMapView | null = null;
    let stopped = false;
    void import('./maplibre-map-view').then(({ MapLibreMapView }) => {
      if (stopped) return;
      created = new MapLibreMapView({ container: surfaceRef.current!, ...styleRef.current, accent: accentRef.current, cooperative, label: labelRef.current });
      // (MapLibre removes them from there itself when the view is destroyed.)
      const controls = surfaceRef.current!.querySelector(':scope > .maplibregl-control-container');
      if (controls) controlsRef.current?.append(controls);
      setView(created);
    });
    return () => {
      stopped = true;
      created?.destroy();
      setView(null);
    };
  }, [cooperative]);
  useEffect(() => view?.setStyle(styleUrl, dark), [view, styleUrl, dark]);
  useEffect(() => view?.setAccent(theme.accent), [view, theme.accent]);
  useEffect(() => view?.map.getCanvas().setAttribute('aria-label', label), [view, label]);
  useImperativeHandle(props.ref, () => view as MapView, [view]);

  // What the view tells, to the callbacks of this render.
  const { onSelect, onHover, onBackgroundClick, onReady } = props;
  useEffect(() => {
    if (!view) return;
    const off = [view.on('select', onSelect), onHover && view.on('hover', onHover), onBackgroundClick && view.on('background', onBackgroundClick), view.on('ready', () => setReady(true)), onReady && view.on('ready', onReady)];
    return () => off.forEach((stop) => stop?.());
  }, [view, onSelect, onHover, onBackgroundClick, onReady]);

  // The floor, its locations and their colours; the filters first, so the first markers drawn are the filtered ones.
  // The floor by value: another person's edit of anything else (a setting, a floor's name) brings
  // the document back with new objects for the same floor, and a new floor sends the view home.
  const { file } = layer;
  const width = file ? file.width : size.width;
  const height = file ? file.height : size.height;
  const geoKey = JSON.stringify(layer.geo);
  const floor = useMemo(() => ({ geo: JSON.parse(geoKey) as BasemapBounds, size: { width, height } }), [geoKey, width, height]);
  const colours = useMemo(() => ({ groupColors: new Map(doc.groups.map((group) => [group.id, group.color])), accent: theme.accent }), [doc.groups, theme.accent]);
  const byId = useShownOnFloor(doc, layer.id);
  const homeX = initialView?.x ?? null;
  const homeY = initialView?.y ?? null;
  const homeZoom = initialView?.zoom ?? null;
  const home = useMemo(() => (homeX !== null && homeY !== null && homeZoom !== null ? { x: homeX, y: homeY, zoom: homeZoom } : null), [homeX, homeY, homeZoom]);
  useLayoutEffect(() => view?.showLocations(visibleIds), [view, visibleIds]);
  useLayoutEffect(() => {
    setReady(false);
    view?.setFloor({ layerId: layer.id, floor, locations: doc.locations, byId, colours, home });
  }, [view, layer.id, floor, doc.locations, byId, colours, home]);
  useLayoutEffect(() => view?.setSelected(selectedId), [view, selectedId]);
  // The floor's regions, from its drawing (a file of polygons imported into a street map).
  const regions = useBasemapRegions(view, doc, layer);
  useEffect(() => (view ? followView(view, camera) : undefined), [view, camera]);
  // The editor's dragging and placing (MapEditing), while it passes `editing`.
  const editingRef = useRef(props.editing);
  editingRef.current = props.editing;
  const editable = props.editing !== undefined;
  const placing = props.editing?.placing ?? false;
  useEffect(() => (view && editable ? view.edit(() => editingRef.current) : undefined), [view, editable]);
  useEffect(() => view?.setPlacing(placing), [view, placing]);

  return (
    <BasemapFrame label={label} background={theme.background} dark={dark} surfaceRef={surfaceRef} controlsRef={controlsRef} ready={ready} regions={regions}>
      <BasemapLocationButtons view={view} byId={byId} visibleIds={visibleIds} label={t('map.locationsOn', { layer: layer.name })} describe={describe} />
      {children}
    </BasemapFrame>
  );
}

/**
 * Keeps the camera where MapLibre's view is (see the module's comment); answers how to stop.
 * The camera scales both axes alike, and a basemap floor's units need not be square on screen
 * (its bounds' longitude and Web Mercator spans against its width and height): it follows the
 * x axis, which is all the zoom buttons read. The popup, the tooltip and the route's overlay read
 * MapView.screen.
 */
function followView(view: MapLibreMapView, camera: Camera): () => void {
  const follow = () => {
    const state = view.floorState;
    if (!state) return;
    const { width, height } = state.floor.size;
    const origin = view.screen.toScreen({ x: 0, y: 0 });
    const corner = view.screen.toScreen({ x: width, y: height });
    const k = (corner.x - origin.x) / width || 1;
    camera.width = view.screen.width;
    camera.height = view.screen.height;
    camera.mapWidth = width;
    camera.mapHeight = height;
    camera.view = { k, x: origin.x, y: origin.y };
    // MapLibre's zoom limits, as the camera's (relative to the floor fitted).
    const { map } = view;
    const scaleAt = (zoom: number) => (k * 2 ** (zoom - map.getZoom())) / camera.fit;
    camera.minZoom = scaleAt(map.getMinZoom());
    camera.maxZoom = scaleAt(map.getMaxZoom());
    camera.requestFrame();
  };
  follow();
  return view.screen.onFrame(follow);
}
