/**
 * Draws one layer of a map document: the layer's file (an inlined SVG whose regions are
 * locations, or an image), the markers on a canvas, and a visually hidden button per location
 * so every location is reachable by Tab with its own name. Pan and zoom move one transform
 * and repaint the canvas once per frame; React renders only when the document, the layer, the
 * selection or the filters change.
 *
 * The public viewer uses it, and so does the editor, which adds `editing`: markers that can be dragged,
 * and regions that can be picked. It knows nothing of search, popups or history.
 */
import { memo, Suspense, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import type { Camera } from './camera';
import type { GestureHint } from './gestures';
import type { MarkerItem, MarkerLayer } from './marker-layer';
import type { ClusterFrame } from './clustering';
import type { ClusterControl } from './cluster-control';
import { CLUSTER_FROM, isClusterId } from './cluster-items';
import { lazyPart } from '../../lib/lazy-part';
import { useTranslator } from '../../i18n/i18n-context';
import type { StaticMapProps } from './static-map';
import type { Layer, Location, MapDocument, MapPoint } from './types';
import type { WrittenNames } from './region-names';
import './map-renderer.css';

/** What the editor adds to the map: dragging markers, picking regions, placing new locations. */
export interface MapEditing {
  /** A marker was dragged to `to` (layer coordinates). */
  onMove(id: string, to: MapPoint): void;
  /** An SVG element with an id that no location stands for was clicked. */
  onPickRegion(elementId: string, at: MapPoint): void;
  /** Placing a new location: a crosshair, and regions light up under the pointer. */
  placing: boolean;
}

const loadSvgLayer = () => import('./svg-layer');

/**
 * The server's static map (static-map.tsx) keeps its markup while the page hydrates, and
 * hydrates when its code arrives (lib/lazy-part.ts); most often the canvas is drawn first and
 * it simply goes. Behind memo, so the renderer's own updates do not reach its boundary.
 */
const staticMapPart = lazyPart(() => import('./static-map').then((module) => module.StaticMap));
const LazyStaticMap = memo(function LazyStaticMap(props: StaticMapProps) {
  return (
    <Suspense fallback={null}>
      <staticMapPart.Part {...props} />
    </Suspense>
  );
});

/** Loads the static map's code: the server renderer awaits it before rendering. */
export const preloadStaticMap = (): Promise<unknown> => staticMapPart.preload();

/**
 * The canvas's markers, pan and zoom, hover and click (interactive.ts) load after the page's
 * first paint, beside the floor's code (a server-rendered page shows its markers as HTML until
 * then, static-map.tsx, and the static map takes no pointer): the largest part of the renderer,
 * and nothing on screen needs it before the canvas takes over. Kept once loaded, so later
 * layers and renderers attach their canvas at once.
 */
let interactiveCode: typeof import('./interactive') | null = null;
let interactiveLoad: Promise<typeof import('./interactive')> | null = null;
const loadInteractive = () => (interactiveLoad ??= import('./interactive').then((code) => (interactiveCode = code)));
// Fetched as soon as the renderer's module runs, not after the first render: on a server-rendered
// page the map is on screen already, and the canvas waiting for this chunk was the last step of
// the first render (a 2,000-location map's page spent about 100 ms in that round trip).
if (typeof window !== 'undefined') void loadInteractive().catch(() => undefined);

/**
 * The clustering code (and supercluster), for layers with many points only: loaded with the
 * interactive chunk when the canvas attaches (a published map's page has the server's
 * modulepreload links for both, server/public-maps/ssr-viewer-page.ts), and kept once loaded.
 * A clustered layer's canvas waits for it: its first drawing is the clusters, the same picture
 * as the server's static map, never every marker unclustered first (25,000 compact dots cost
 * about 100 ms a drawing, and the clusters replaced them right after).
 */
let clusterCode: typeof import('./cluster-control') | null = null;
let clusterLoad: Promise<unknown> | null = null;
const loadClusterCode = () => (clusterLoad ??= import('./cluster-control').then((code) => (clusterCode = code)));

/** Layers with more locations than this draw first and add their buttons just after. */
const DEFER_BUTTONS_FROM = 300;
const NO_LOCATIONS: readonly Location[] = [];

export interface MapRendererHandle {
  /** Where a location sits on its layer: its position, or the middle of its region. */
  anchorOf(id: string): MapPoint | null;
  /** A region's size on its layer (layer units), or null for a location without a drawn region (or before it is drawn). */
  extentOf(id: string): { width: number; height: number } | null;
  /** The map's focusable surface. */
  focus(): void;
  /**
   * The zoom (1 fits the layer) from which a location stands alone, not in a cluster; null
   * when the layer is not clustered or the location is not among its clustered points.
   */
  revealZoom(id: string): number | null;
}

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

/** A location's marker colour: its own, else its first group's, else the accent. */
export function colorOf(location: Location, groupColors: ReadonlyMap<string, string>, accent: string): string {
  if (location.color) return location.color;
  for (const group of location.groups) {
    const color = groupColors.get(group);
    if (color) return color;
  }
  return accent;
}

export function MapRenderer(props: MapRendererProps) {
  const { document: doc, layer, camera, selectedId, visibleIds, cooperative = false, describe, label, children } = props;
  const { t, locale } = useTranslator();
  const containerRef = useRef<HTMLDivElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const worldRef = useRef<HTMLDivElement>(null);
  const baseRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const markersRef = useRef<MarkerLayer | null>(null);
  const regionsRef = useRef(new Map<string, Element>());
  const regionCentres = useRef(new Map<string, MapPoint | null>());
  const hoveredRef = useRef<string | null>(null);
  const focusedRef = useRef<string | null>(null);
  const [baseReady, setBaseReady] = useState(false);
  const [baseFailed, setBaseFailed] = useState(false);
  const [markersReady, setMarkersReady] = useState(false);
  const [staticShown, setStaticShown] = useState(props.staticFirst ?? false);
  const imageRef = useRef<HTMLImageElement>(null);
  // On a large layer the location buttons follow the first paint (idle time) instead of
  // delaying it; small layers get them at once.
  const [buttonsDeferred, setButtonsDeferred] = useState(true);
  // Callbacks and state the frame loop and the listeners read without re-subscribing.
  const live = useRef(props);
  live.current = props;
  const localeRef = useRef(locale);
  localeRef.current = locale;

  const { theme } = doc.settings;
  const dark = theme.mode === 'dark';
  const width = layer.file?.width ?? doc.settings.size.width;
  const height = layer.file?.height ?? doc.settings.size.height;

  const groupColors = useMemo(() => new Map(doc.groups.map((group) => [group.id, group.color])), [doc.groups]);
  const onLayer = useMemo(
    () => doc.locations.filter((location) => location.layer === layer.id && !location.hidden),
    [doc.locations, layer.id],
  );
  const byId = useMemo(() => new Map(onLayer.map((location) => [location.id, location])), [onLayer]);
  const byIdRef = useRef(byId);
  byIdRef.current = byId;
  const editable = props.editing !== undefined;
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
  const itemsRef = useRef(items);
  itemsRef.current = items;
  // The points to cluster (this layer's, through the filters, not the regions), or null: too few.
  const clustered = items.length >= CLUSTER_FROM;
  const clusteredRef = useRef(clustered);
  clusteredRef.current = clustered;
  const clustersRef = useRef<ClusterControl | null>(null);
  // What the clustered map shows at rest, for the keyboard's buttons (updated when the view settles).
  const [shownMarks, setShownMarks] = useState<ClusterFrame | null>(null);
  // Tab order follows the map: top to bottom, then left to right.
  const tabOrder = useMemo(() => {
    // Clustered: the buttons follow what is on screen instead (thousands of buttons cost).
    if (clustered) return NO_LOCATIONS;
    const visible = visibleIds ? onLayer.filter((location) => visibleIds.has(location.id)) : onLayer;
    return [...visible].sort((a, b) => (a.position?.y ?? Infinity) - (b.position?.y ?? Infinity) || (a.position?.x ?? 0) - (b.position?.x ?? 0));
  }, [onLayer, visibleIds, clustered]);

  const anchorOf = (id: string): MapPoint | null => {
    const location = byId.get(id);
    if (!location) return null;
    if (location.position) return location.position;
    if (regionCentres.current.has(id)) return regionCentres.current.get(id)!;
    const region = regionsRef.current.get(id);
    const base = baseRef.current;
    let centre: MapPoint | null = null;
    if (region && base) {
      const r = region.getBoundingClientRect();
      const b = base.getBoundingClientRect();
      const scale = b.width / width || 1;
      if (r.width > 0 || r.height > 0) centre = { x: (r.left + r.width / 2 - b.left) / scale, y: (r.top + r.height / 2 - b.top) / scale };
    }
    // Remembered once known (the drawing may still be loading: then ask again later).
    if (centre) regionCentres.current.set(id, centre);
    return centre;
  };
  const anchorRef = useRef(anchorOf);
  anchorRef.current = anchorOf;
  const extentOf = (id: string): { width: number; height: number } | null => {
    const region = regionsRef.current.get(id);
    const base = baseRef.current;
    if (!region || !base) return null;
    const r = region.getBoundingClientRect();
    const scale = base.getBoundingClientRect().width / width || 1;
    return r.width > 0 || r.height > 0 ? { width: r.width / scale, height: r.height / scale } : null;
  };
  const extentRef = useRef(extentOf);
  extentRef.current = extentOf;

  useImperativeHandle(
    props.ref,
    () => ({
      anchorOf: (id) => anchorRef.current(id),
      extentOf: (id) => extentRef.current(id),
      focus: () => viewportRef.current?.focus(),
      revealZoom: (id) => clustersRef.current?.revealZoom(id) ?? null,
    }),
    [],
  );

  // The camera: this layer's size and the document's zoom limits.
  // Keyed by value: an editor receives a new settings object with every collaborator's edit,
  // and the view must not jump home unless the zoom limits or the initial view changed.
  const { minZoom, maxZoom, initialView } = doc.settings;
  const viewX = initialView?.x ?? null;
  const viewY = initialView?.y ?? null;
  const viewZoom = initialView?.zoom ?? null;
  useLayoutEffect(() => {
    const view = viewX !== null && viewY !== null && viewZoom !== null ? { x: viewX, y: viewY, zoom: viewZoom } : null;
    camera.setMap(width, height, minZoom, maxZoom, view);
  }, [camera, width, height, minZoom, maxZoom, viewX, viewY, viewZoom]);
  // The same home view for the server's static map (camera.homeView), unless it is the whole layer fitted.
  const staticView = useMemo(() => {
    const zoom = Math.min(Math.max(viewZoom ?? minZoom, minZoom), Math.max(minZoom, maxZoom));
    const x = viewX ?? width / 2;
    const y = viewY ?? height / 2;
    return zoom === 1 && x === width / 2 && y === height / 2 ? null : { x, y, zoom };
  }, [viewX, viewY, viewZoom, minZoom, maxZoom, width, height]);

  // The frame loop: one transform for the layer, one canvas repaint for the markers.
  useLayoutEffect(() => {
    const canvas = canvasRef.current!;
    // The viewport's size, for the marker layer that may arrive after the first measure.
    const size = { width: 0, height: 0, ratio: 1 };
    let stopped = false;
    const attachMarkers = ({ MarkerLayer }: typeof import('./interactive')) => {
      if (stopped) return;
      const markers = new MarkerLayer(canvas, () => camera.requestFrame());
      markers.resize(size.width, size.height, size.ratio);
      markers.setItems(itemsRef.current);
      markersRef.current = markers;
      setMarkersReady(true);
      camera.requestFrame();
    };
    // A clustered layer's markers attach once the clustering code is there too (see loadClusterCode).
    const attachWhenLoaded = () => {
      if (interactiveCode && (!clusteredRef.current || clusterCode)) attachMarkers(interactiveCode);
      else Promise.all([loadInteractive(), clusteredRef.current && loadClusterCode()]).then(([code]) => attachMarkers(code), () => undefined);
    };
    const world = worldRef.current!;
    const paint = () => {
      // The benchmarks collect each frame's work here when they set the array.
      const profile = (window as { __mapfoldFrameTimes?: number[] }).__mapfoldFrameTimes;
      const began = profile ? performance.now() : 0;
      const { k, x, y } = camera.view;
      world.style.transform = `translate(${x}px, ${y}px) scale(${k})`;
      if (camera.moving) world.style.willChange = 'transform';
      const p = live.current;
      // A clustered layer draws nothing until its clusters are set on the markers (the static
      // map, or the previous drawing, stays until then): never its thousands of markers
      // unclustered. (Asked of the markers, not of clustersRef: the cluster control draws its
      // first frame from its constructor, before the renderer holds it.)
      const markers = markersRef.current;
      if (!clusteredRef.current || markers?.hasClusters) markers?.draw(camera.view, {
        selected: p.selectedId,
        hovered: hoveredRef.current,
        focused: focusedRef.current,
        visible: p.visibleIds,
        accent: p.document.settings.theme.accent,
        dark: p.document.settings.theme.mode === 'dark',
        locale: localeRef.current,
      });
      profile?.push(performance.now() - began);
    };
    const offFrame = camera.onFrame(paint);
    // At rest, the layer is drawn again at its final scale (crisp, not a stretched bitmap).
    // A layer without a file is a plain sheet: it stays on its own compositing layer, so a
    // gesture's first and last frames do not paint it again.
    const offSettle = camera.onSettle(() => {
      if (live.current.layer.file) world.style.willChange = '';
    });
    const viewport = viewportRef.current!;
    const measure = () => {
      const { width: w, height: h } = viewport.getBoundingClientRect();
      Object.assign(size, { width: w, height: h, ratio: window.devicePixelRatio || 1 });
      markersRef.current?.resize(w, h, size.ratio);
      camera.setViewport(w, h);
      camera.flush();
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(viewport);
    // A failed load (either chunk) keeps the static markers (if any) on screen: the map stays readable.
    attachWhenLoaded();
    return () => {
      stopped = true;
      offFrame();
      offSettle();
      observer?.disconnect();
      markersRef.current = null;
    };
  }, [camera]);

  useLayoutEffect(() => {
    markersRef.current?.setItems(items);
    camera.requestFrame();
  }, [items, camera]);

  // Clusters: built for the points and filters of the moment (a few ms for 25,000 points);
  // the buttons for the keyboard follow what is on screen each time the view settles.
  useEffect(() => {
    const markers = markersRef.current;
    if (!clustered || !markersReady || !markers) return;
    let control: ClusterControl | undefined;
    let stopped = false;
    const start = (code: typeof import('./cluster-control')) => {
      if (stopped) return;
      clustersRef.current = control = new code.ClusterControl({ markers, camera, items, visible: visibleIds, width, height, onShown: setShownMarks });
    };
    // Loaded before the markers attached (attachWhenLoaded); at once, then, so a change of
    // filters never leaves a frame without clusters.
    if (clusterCode) start(clusterCode);
    else loadClusterCode().then(() => start(clusterCode!), () => undefined);
    return () => {
      stopped = true;
      if (clustersRef.current === control) clustersRef.current = null;
      control?.stop();
    };
  }, [clustered, items, visibleIds, markersReady, camera, width, height]);

  useEffect(() => {
    camera.requestFrame();
  }, [camera, selectedId, visibleIds, theme.accent, dark, locale]);

  // The layer's file: an SVG inlined (with its regions), or an image.
  const file = layer.file;
  const regionSpecList = useMemo(
    () => onLayer.filter((l) => l.element).map((l) => ({ id: l.id, element: l.element!, color: l.color ?? (l.groups[0] ? groupColors.get(l.groups[0]) ?? null : null) })),
    [onLayer, groupColors],
  );
  // By value too: the drawing is mounted again only when its regions or colours really change
  // (not for every edit of a location's text in the editor).
  const regionKey = JSON.stringify(regionSpecList);
  const regionSpecs = useMemo(() => JSON.parse(regionKey) as typeof regionSpecList, [regionKey]);
  const { base: regionBase, hover: regionHover, active: regionActive } = doc.styles.regions;
  const regionColors = useMemo(() => ({ base: regionBase, hover: regionHover, active: regionActive }), [regionBase, regionHover, regionActive]);
  useEffect(() => {
    // A server-rendered image may have loaded before React was there to hear it.
    setBaseReady(!file || (file.kind === 'image' && (imageRef.current?.complete ?? false)));
    setBaseFailed(false);
    regionsRef.current = new Map();
    regionCentres.current = new Map();
    const host = baseRef.current;
    if (!file || file.kind !== 'svg' || !host) return;
    let cancelled = false;
    // The drawing's code (and DOMPurify, which it needs) loads with the first drawing to show.
    loadSvgLayer().then(({ fetchSvg, mountSvg }) => fetchSvg(file.url).then((drawing) => ({ drawing, mountSvg }))).then(
      ({ drawing, mountSvg }) => {
        if (cancelled) return;
        regionsRef.current = mountSvg(host, drawing, { width: file.width, height: file.height }, regionSpecs, { ...regionColors, accent: theme.accent }, editable);
        regionCentres.current = new Map();
        setBaseReady(true);
      },
      () => {
        if (cancelled) return;
        setBaseFailed(true);
        setBaseReady(true);
      },
    );
    return () => {
      cancelled = true;
      if (host.shadowRoot) host.shadowRoot.innerHTML = '';
    };
  }, [file, regionSpecs, regionColors, theme.accent, editable]);

  // The regions' names, written inside their shapes once the drawing is mounted, and again
  // when a name, the drawing or the theme changes; in the editor, the drawing offered to the
  // panels that point at its regions (the regions dialog). In the drawing's own chunk
  // (region-names.ts): the viewer's first load has an 80 KB budget.
  const drawnNames = useRef<WrittenNames | null>(null);
  useEffect(() => {
    const svg = baseReady && file?.kind === 'svg' ? baseRef.current?.shadowRoot?.querySelector('svg') : null;
    let cancelled = false;
    // No drawing (a floor without one): nothing to load, and what an earlier floor drew is gone.
    if (svg) {
      void loadSvgLayer().then(({ writeRegionNames }) => {
        const named = cancelled ? null : writeRegionNames(svg, doc, layer.id, regionsRef.current, dark, editable, drawnNames);
        if (named) setNamedRegions(named);
      });
    } else {
      drawnNames.current?.withdraw?.();
      drawnNames.current = null;
      setNamedRegions((current) => (current.size === 0 ? current : new Set()));
    }
    return () => {
      cancelled = true;
    };
  }, [baseReady, doc, file, dark, regionSpecs, editable, layer.id]);
  useEffect(() => () => drawnNames.current?.withdraw?.(), []);

  // Placing a location: the drawing's regions light up under the pointer.
  const placing = props.editing?.placing ?? false;
  useEffect(() => {
    const host = baseRef.current;
    if (!host) return;
    if (placing) host.setAttribute('data-placing', '');
    else host.removeAttribute('data-placing');
  }, [placing, baseReady]);

  // The regions' state: selected, filtered out.
  useEffect(() => {
    for (const [id, region] of regionsRef.current) {
      toggle(region, 'data-mf-active', id === selectedId);
      const hidden = visibleIds !== null && !visibleIds.has(id);
      toggle(region, 'data-mf-dim', hidden);
      toggle(region, 'data-mf-off', hidden);
    }
  }, [selectedId, visibleIds, baseReady]);

  useEffect(() => {
    if (!baseReady || !markersReady) return;
    camera.flush();
    setStaticShown(false);
    live.current.onReady?.();
  }, [baseReady, markersReady, camera, layer.id]);

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

  // Pointer and wheel gestures; hover and click on markers and regions (pointer-picking.ts).
  useEffect(() => {
    const viewport = viewportRef.current!;
    // Panning and zooming by pointer and wheel load after the first paint, like the canvas's
    // markers: until the canvas is drawn, the map on screen is the static one, which they do not move.
    let detach: (() => void) | null = null;
    let stopped = false;
    loadInteractive().then(({ attachGestures, attachPicking }) => {
      if (stopped) return;
      const stopGestures = attachGestures(viewport, {
        camera,
        cooperative: () => live.current.cooperative ?? false,
        // The page (an iframe's own document, when embedded) has the focus, and within it the map.
        hasFocus: () => window.document.hasFocus() && (containerRef.current?.contains(window.document.activeElement) ?? false),
        onHint: (hint) => live.current.onHint?.(hint),
      });
      const stopPicking = attachPicking(viewport, {
        camera,
        hit: (x, y) => markersRef.current?.hit(x, y) ?? null,
        drawing: () => baseRef.current?.shadowRoot,
        region: (id) => regionsRef.current.get(id),
        hovered: hoveredRef,
        focused: () => focusedRef.current,
        editing: () => live.current.editing,
        onHover: (id) => live.current.onHover?.(id),
        onSelect: (id, opener) => (isClusterId(id) ? clustersRef.current?.expand(id, false) : live.current.onSelect(id, opener)),
        onBackgroundClick: (at) => live.current.onBackgroundClick?.(at),
      });
      detach = () => {
        stopGestures();
        stopPicking();
      };
    }, () => undefined);
    return () => {
      stopped = true;
      detach?.();
    };
  }, [camera]);

  // The editor: a press on a placed marker drags it instead of the map (its code loads only here).
  useEffect(() => {
    if (!editable) return;
    let stop: (() => void) | null = null;
    let stopped = false;
    void import('./marker-drag').then(({ attachMarkerDrag }) => {
      if (stopped) return;
      stop = attachMarkerDrag(viewportRef.current!, {
        camera,
        keys: containerRef.current!,
        // A cluster is not a marker to drag.
        hit: (x, y) => {
          const id = markersRef.current?.hit(x, y) ?? null;
          return id && isClusterId(id) ? null : id;
        },
        positionOf: (id) => byIdRef.current.get(id)?.position ?? null,
        moveItem: (id, x, y) => markersRef.current?.moveItem(id, x, y),
        placing: () => live.current.editing?.placing ?? false,
        onMove: (id, to) => live.current.editing?.onMove(id, to),
      });
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [camera, editable]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // Handled already: the editor's Shift and an arrow on a location (marker-drag.ts).
    if (event.defaultPrevented) return;
    if (target.closest('input, textarea, select, [role="dialog"], [data-mf-ui]') || event.altKey || event.ctrlKey || event.metaKey) return;
    const step = 80;
    switch (event.key) {
      case 'ArrowLeft':
        camera.panBy(step, 0, true);
        break;
      case 'ArrowRight':
        camera.panBy(-step, 0, true);
        break;
      case 'ArrowUp':
        camera.panBy(0, step, true);
        break;
      case 'ArrowDown':
        camera.panBy(0, -step, true);
        break;
      case '+':
      case '=':
        camera.zoomBy(1.5, undefined, undefined, true);
        break;
      case '-':
      case '_':
        camera.zoomBy(1 / 1.5, undefined, undefined, true);
        break;
      case '0':
        camera.reset();
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  // Stable callbacks: the list of buttons (thousands on a large map) renders only when the
  // locations change, not on every hover.
  const pick = useCallback((id: string, opener: HTMLElement) => live.current.onSelect(id, opener), []);
  const focusLocation = useCallback((id: string | null) => {
    const previous = focusedRef.current ? regionsRef.current.get(focusedRef.current) : undefined;
    if (previous) previous.removeAttribute('data-mf-focus');
    focusedRef.current = id;
    if (id) {
      regionsRef.current.get(id)?.setAttribute('data-mf-focus', '');
      const anchor = anchorRef.current(id);
      if (anchor) camera.ensureVisible(anchor, 64);
    }
    camera.requestFrame();
    live.current.onHover?.(id ?? hoveredRef.current);
  }, [camera]);

  const background = dark ? '#1e293b' : '#ffffff';
  return (
    <div ref={containerRef} className="mf-map" role="region" aria-label={label} onKeyDown={onKeyDown} style={{ background: theme.background }}>
      <div
        ref={viewportRef}
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
        <div ref={worldRef} className="mf-world">
          {file?.kind === 'image' || (file?.kind === 'svg' && baseFailed) ? (
            <img ref={imageRef} className="mf-base" src={file.url} width={file.width} height={file.height} alt="" draggable={false} onLoad={() => setBaseReady(true)} onError={() => setBaseReady(true)} />
          ) : (
            <div ref={baseRef} className="mf-base" style={{ width, height, ...(file ? {} : { background, borderRadius: 12, boxShadow: '0 1px 3px rgb(15 23 42 / 0.12)' }) }} />
          )}
        </div>
        <canvas ref={canvasRef} className="mf-markers" aria-hidden="true" />
        {staticShown ? <LazyStaticMap width={width} height={height} fileUrl={file?.url ?? null} sheet={background} items={items} view={staticView} accent={theme.accent} maxZoom={Math.max(minZoom, maxZoom)} /> : null}
      </div>
      <p id="mf-map-help" hidden>
        {t(editable ? 'map.helpEdit' : 'map.helpView')}
      </p>
      <LocationButtons
        locations={buttons}
        label={t('map.locationsOn', { layer: layer.name })}
        describe={describe}
        onPick={pick}
        onFocusChange={focusLocation}
      >
        {clustered && shownMarks && clustersRef.current ? <clustersRef.current.Buttons control={clustersRef.current} shown={shownMarks} byId={byId} describe={describe} onPick={pick} onFocusChange={focusLocation} /> : null}
      </LocationButtons>
      {children}
    </div>
  );
}

function toggle(element: Element, attribute: string, on: boolean): void {
  if (on) element.setAttribute(attribute, '');
  else element.removeAttribute(attribute);
}

interface LocationButtonsProps {
  locations: readonly Location[];
  /** A clustered layer's clusters and lone locations on screen instead (cluster-control.tsx). */
  children?: ReactNode;
  /** The list's accessible name ("Locations on Ground floor"). */
  label: string;
  describe: (location: Location) => string;
  onPick: (id: string, opener: HTMLElement) => void;
  onFocusChange: (id: string | null) => void;
}

/** A visually hidden button per location, in the map's reading order, for the keyboard. */
const LocationButtons = memo(function LocationButtons({ locations, label, describe, onPick, onFocusChange, children }: LocationButtonsProps) {
  return (
    <ul className="mf-a11y" aria-label={label}>
      {children}
      {locations.map((location) => (
        <li key={location.id}>
          <button
            type="button"
            data-location={location.id}
            aria-label={describe(location)}
            aria-haspopup="dialog"
            onFocus={() => onFocusChange(location.id)}
            onBlur={() => onFocusChange(null)}
            onClick={(event) => onPick(location.id, event.currentTarget)}
          />
        </li>
      ))}
    </ul>
  );
});
