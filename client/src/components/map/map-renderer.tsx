/**
 * Draws one layer of a map document: the layer's file (an inlined SVG whose regions are
 * locations, or an image), the markers on a canvas, and a visually hidden button per location
 * so every location is reachable by Tab with its own name. The drawing, the canvas, hover,
 * click and flights are the floor's {@link CanvasMapView} (canvas-map-view.ts), the
 * {@link MapView} a controller drives; this is its React host: it renders the elements it draws
 * into and hands it the document, the floor and its markers as they change.
 *
 * The public viewer uses it, and so does the editor, which adds `editing`: markers that can be dragged,
 * and regions that can be picked. It knows nothing of search, popups or history.
 */
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import type { Camera } from './camera';
import type { GestureHint } from './gestures';
import type { MarkerItem } from './marker-layer';
import type { ClusterFrame } from './clustering';
import { CLUSTER_FROM } from './cluster-items';
import { CanvasMapView } from './canvas-map-view';
import { colorOf } from './marker-colour';
import { LocationButtons } from './location-buttons';
import { useFloorDrawing } from './use-floor-drawing';
import type { MapEditing, MapView } from './map-view';
import { lazyPart } from '../../lib/lazy-part';
import { useTranslator } from '../../i18n/i18n-context';
import type { Layer, Location, MapDocument, MapPoint } from './types';
import './map-renderer.css';

export type { MapEditing };

/**
 * The server's static map (static-map.tsx) keeps its markup while the page hydrates, and
 * hydrates when its code arrives (lib/lazy-part.ts); most often the canvas is drawn first and
 * it simply goes. Behind memo, so the renderer's own updates do not reach its boundary.
 */
const staticMapPart = lazyPart(() => import('./static-map').then((module) => module.StaticMap));
const LazyStaticMap = staticMapPart.Part;

/** Loads the static map's code: the server renderer awaits it before rendering. */
export const preloadStaticMap = (): Promise<unknown> => staticMapPart.preload();

/** Layers with more locations than this draw first and add their buttons just after. */
const DEFER_BUTTONS_FROM = 300;
const NO_LOCATIONS: readonly Location[] = [];

/** The renderer's handle: the floor's {@link MapView} (the editor asks it where locations sit). */
export type MapRendererHandle = MapView;

export interface MapRendererProps {
  document: MapDocument;
  layer: Layer;
  camera: Camera;
  selectedId: string | null;
  /** The locations the filters let through; null lets all through. */
  visibleIds: ReadonlySet<string> | null;
  /** Embedded in another page: the page keeps its scrolling (see gestures.ts). */
  cooperative?: boolean;
  /** The accessible name of a location's button. */
  describe: (location: Location) => string;
  /** A location was chosen; `opener` is the element that had the focus (to return it to). */
  onSelect: (id: string, opener: HTMLElement | null) => void;
  /** The pointer or the keyboard focus is on a location (null: on none). */
  onHover?: (id: string | null) => void;
  /** A click on no location, with where it was on the layer. */
  onBackgroundClick?: (at: MapPoint) => void;
  /** The editor's interactions (see {@link MapEditing}); the viewer has none. */
  editing?: MapEditing;
  onHint?: (hint: GestureHint) => void;
  /** Called when a layer's drawing and markers are on screen (each time the layer changes). */
  onReady?: () => void;
  /** Accessible name of the map. */
  label: string;
  /**
   * Start with the layer as plain HTML (static-map.tsx), as the server rendered it, until the
   * floor and the canvas are drawn: the viewer hydrating its server-rendered page.
   */
  staticFirst?: boolean;
  /** Overlays inside the map's area (popups, tooltips, controls). */
  children?: ReactNode;
  ref?: Ref<MapRendererHandle>;
}

/**
 * A floor on a street basemap: MapLibre's view (basemap-renderer.tsx), whose code (MapLibre
 * with it) loads only when such a floor is shown, so a floor plan's page carries none of it.
 * The server renders its frame alone (basemap-frame.tsx), which the browser hydrates. It checks the floor's
 * calibration itself (is-basemap-floor.ts) and hands a floor it cannot lay on the basemap to
 * `drawn`: the flag alone is all this first-load code reads.
 */
const basemapPart = lazyPart<MapRendererProps & { drawn: typeof CanvasRenderer }>(() =>
  (import.meta.env.SSR ? import('./basemap-frame') : import('./basemap-host')).then((module) => module.default),
);
const BasemapRenderer = basemapPart.Part;
/** Loads what the server renders of a basemap floor (its frame, basemap-frame.tsx): the server renderer awaits it. */
export const preloadBasemapFrame = (): Promise<unknown> => basemapPart.preload();

/** A floor: drawn on its own (the canvas's view), or on a street basemap (MapLibre's). */
export function MapRenderer(props: MapRendererProps) {
  return props.layer.basemap ? <BasemapRenderer {...props} drawn={CanvasRenderer} /> : <CanvasRenderer {...props} />;
}

function CanvasRenderer(props: MapRendererProps) {
  const { document: doc, layer, camera, selectedId, visibleIds, cooperative = false, describe, label, editing, children } = props;
  const { t, locale } = useTranslator();
  const containerRef = useRef<HTMLDivElement>(null);
  const baseRef = useRef<HTMLDivElement>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  const view = useMemo(() => new CanvasMapView(camera, baseRef), [camera]);
  const [baseReady, setBaseReady] = useState(false);
  const [baseFailed, setBaseFailed] = useState(false);
  const [markersReady, setMarkersReady] = useState(false);
  const [staticShown, setStaticShown] = useState(props.staticFirst ?? false);
  // On a large layer the location buttons follow the first paint (idle time) instead of
  // delaying it; small layers get them at once.
  const [buttonsDeferred, setButtonsDeferred] = useState(true);

  const { theme } = doc.settings;
  const dark = theme.mode === 'dark';
  const width = layer.file?.width ?? doc.settings.size.width;
  const height = layer.file?.height ?? doc.settings.size.height;
  const groupColors = useMemo(() => new Map(doc.groups.map((group) => [group.id, group.color])), [doc.groups]);
  const onLayer = useMemo(() => doc.locations.filter((location) => location.layer === layer.id && !location.hidden), [doc.locations, layer.id]);
  const byId = useMemo(() => new Map(onLayer.map((location) => [location.id, location])), [onLayer]);
  const editable = editing !== undefined;
  // The region locations whose name is written inside their shape (region-names.ts): their label
  // marker would only repeat it, spilling past the shape on a small screen.
  const [namedRegions, setNamedRegions] = useState<ReadonlySet<string>>(() => new Set());
  const items = useMemo<MarkerItem[]>(
    () =>
      onLayer
        .filter((location) => location.position && location.marker !== 'hidden' && !(location.marker === 'label' && namedRegions.has(location.id)))
        .map((location) => ({
          id: location.id,
          x: location.position!.x,
          y: location.position!.y,
          type: location.marker,
          color: colorOf(location, groupColors, theme.accent),
          text: location.marker === 'label' ? location.label || location.title : location.label,
          image: location.thumbnail ?? location.image,
          region: !!location.element,
        })),
    [onLayer, groupColors, theme.accent, namedRegions],
  );
  // The points to cluster (this layer's, through the filters, not the regions), or null: too few.
  const clustered = items.length >= CLUSTER_FROM;
  // What the view draws and answers from: the floor as this render has it.
  view.setFloor({ doc, layer, byId, locale, cooperative }, clustered);
  // What the clustered map shows at rest, for the keyboard's buttons (updated when the view settles).
  const [shownMarks, setShownMarks] = useState<ClusterFrame | null>(null);
  // Tab order follows the map: top to bottom, then left to right.
  const tabOrder = useMemo(() => {
    // Clustered: the buttons follow what is on screen instead (thousands of buttons cost).
    if (clustered) return NO_LOCATIONS;
    const visible = visibleIds ? onLayer.filter((location) => visibleIds.has(location.id)) : onLayer;
    return [...visible].sort((a, b) => (a.position?.y ?? Infinity) - (b.position?.y ?? Infinity) || (a.position?.x ?? 0) - (b.position?.x ?? 0));
  }, [onLayer, visibleIds, clustered]);

  useImperativeHandle(props.ref, () => view, [view]);
  // What the view tells, to the callbacks of this render.
  const { onSelect, onHover, onBackgroundClick, onHint, onReady } = props;
  useEffect(() => {
    const off = [view.on('select', onSelect), onHover && view.on('hover', onHover), onBackgroundClick && view.on('background', onBackgroundClick), onHint && view.on('hint', onHint), onReady && view.on('ready', onReady)];
    return () => off.forEach((stop) => stop?.());
  }, [view, onSelect, onHover, onBackgroundClick, onHint, onReady]);

  // The camera: this layer's size and the document's zoom limits.
  // Keyed by value: an editor receives a new settings object with every collaborator's edit,
  // and the view must not jump home unless the zoom limits or the initial view changed.
  const { minZoom, maxZoom, initialView } = doc.settings;
  const viewX = initialView?.x ?? null;
  const viewY = initialView?.y ?? null;
  const viewZoom = initialView?.zoom ?? null;
  useLayoutEffect(() => {
    const home = viewX !== null && viewY !== null && viewZoom !== null ? { x: viewX, y: viewY, zoom: viewZoom } : null;
    camera.setMap(width, height, minZoom, maxZoom, home);
  }, [camera, width, height, minZoom, maxZoom, viewX, viewY, viewZoom]);
  // The same home view for the server's static map (camera.homeView), unless it is the whole layer fitted.
  const staticView = useMemo(() => {
    const zoom = Math.min(Math.max(viewZoom ?? minZoom, minZoom), Math.max(minZoom, maxZoom));
    const x = viewX ?? width / 2;
    const y = viewY ?? height / 2;
    return zoom === 1 && x === width / 2 && y === height / 2 ? null : { x, y, zoom };
  }, [viewX, viewY, viewZoom, minZoom, maxZoom, width, height]);

  // The view draws into the elements below; the markers and the clusters follow (and the editor's
  // dragging, once the interactive code sees `editing`: interactive.ts).
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const editingRef = useRef(editing);
  editingRef.current = editing;
  useLayoutEffect(
    () => view.start(containerRef.current!, () => itemsRef.current, () => editingRef.current, () => setMarkersReady(true)),
    [view],
  );
  useLayoutEffect(() => view.setItems(items), [items, view]);
  useEffect(() => (clustered && markersReady ? view.cluster(items, visibleIds, width, height, setShownMarks) : undefined), [clustered, items, visibleIds, markersReady, width, height, view]);

  useEffect(() => camera.requestFrame(), [camera, theme.accent, dark, locale]);
  // The selection and the filters: the view lights and dims the markers and the drawing's regions.
  useLayoutEffect(() => view.setSelected(selectedId), [view, selectedId, baseReady]);
  useLayoutEffect(() => view.showLocations(visibleIds), [view, visibleIds, baseReady]);

  const file = layer.file;
  useFloorDrawing({ view, doc, layer, onLayer, groupColors, editable, baseRef, imageRef, baseReady, setBaseReady, setBaseFailed, setNamedRegions });

  // Placing a location: the drawing's regions light up under the pointer (its shadow root's :host([data-placing])).
  const placing = editing?.placing ?? false;

  useEffect(() => {
    if (!baseReady || !markersReady) return;
    camera.flush();
    setStaticShown(false);
    view.emit('ready');
  }, [baseReady, markersReady, camera, layer.id, view]);

  useEffect(() => {
    if (!baseReady || !markersReady || !buttonsDeferred) return;
    const idle = (window as { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number }).requestIdleCallback;
    // Cancelled when the renderer goes first (a test's page torn down before its timer ran).
    const show = () => setButtonsDeferred(false);
    if (idle) {
      const handle = idle(show, { timeout: 500 });
      return () => (window as { cancelIdleCallback?: (handle: number) => void }).cancelIdleCallback?.(handle);
    }
    const timer = setTimeout(show, 50);
    return () => clearTimeout(timer);
  }, [baseReady, markersReady, buttonsDeferred]);
  const buttons = buttonsDeferred && tabOrder.length > DEFER_BUTTONS_FROM ? NO_LOCATIONS : tabOrder;

  // Stable callbacks: the list of buttons (thousands on a large map) renders only when the
  // locations change, not on every hover.
  const pick = useCallback((id: string, opener: HTMLElement) => view.emit('select', id, opener), [view]);
  const focusLocation = useCallback((id: string | null) => view.focusLocation(id), [view]);

  const background = dark ? '#1e293b' : '#ffffff';
  return (
    <div
      ref={containerRef}
      className="mf-map"
      role="region"
      aria-label={label}
      onKeyDown={(event) => {
        const target = event.target as HTMLElement;
        // Handled already: the editor's Shift and an arrow on a location (marker-drag.ts).
        if (event.defaultPrevented || target.closest('input, textarea, select, [role="dialog"], [data-mf-ui]') || event.altKey || event.ctrlKey || event.metaKey) return;
        if (view.key(event.key)) event.preventDefault();
      }}
      style={{ background: theme.background }}
    >
      <div
        className="mf-viewport"
        /* An interactive surface with its own keys (arrows pan, plus and minus zoom). */
        role="application"
        data-cooperative={cooperative ? 'true' : 'false'}
        data-placing={placing ? 'true' : undefined}
        data-static={staticShown ? '' : undefined}
        tabIndex={0}
        aria-label={t('map.keys', { label })}
        aria-describedby="mf-map-help"
      >
        <div className="mf-world">
          {file?.kind === 'image' || (file?.kind === 'svg' && baseFailed) ? (
            <img ref={imageRef} className="mf-base" src={file.url} width={file.width} height={file.height} alt="" draggable={false} onLoad={() => setBaseReady(true)} onError={() => setBaseReady(true)} />
          ) : (
            <div ref={baseRef} className="mf-base" data-placing={placing ? '' : undefined} style={{ width, height, ...(file ? {} : { background, borderRadius: 12, boxShadow: '0 1px 3px rgb(15 23 42 / 0.12)' }) }} />
          )}
        </div>
        <canvas className="mf-markers" aria-hidden="true" />
        {staticShown ? <LazyStaticMap width={width} height={height} fileUrl={file?.url ?? null} sheet={background} items={items} view={staticView} accent={theme.accent} maxZoom={Math.max(minZoom, maxZoom)} /> : null}
      </div>
      <p id="mf-map-help" hidden>
        {t(editable ? 'map.helpEdit' : 'map.helpView')}
      </p>
      <LocationButtons locations={buttons} label={t('map.locationsOn', { layer: layer.name })} describe={describe} onPick={pick} onFocusChange={focusLocation}>
        {clustered && shownMarks && view.clusters ? <view.clusters.Buttons control={view.clusters} shown={shownMarks} byId={byId} describe={describe} onPick={pick} onFocusChange={focusLocation} /> : null}
      </LocationButtons>
      {children}
    </div>
  );
}
