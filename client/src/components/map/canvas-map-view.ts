/**
 * The {@link MapView} of a floor (issue 29 item 6): its drawing (an inlined SVG whose regions
 * are locations, or an image) moved by one transform, the markers on a canvas repainted once per
 * frame, hover and click picked from both. Imperative, as a controller drives it: the selection,
 * the filters and the flights are method calls; what the visitor does comes back as events.
 * map-renderer.tsx is its React host: it renders the elements this draws into and hands over
 * the document, the floor and its markers as they change.
 */
import type { Camera } from './camera';
import type { ClusterControl } from './cluster-control';
import type { ClusterFrame } from './clustering';
import type { MarkerItem, MarkerLayer } from './marker-layer';
import type { FitOptions, FlyOptions, Insets, MapEditing, MapView, MapViewEvents, ScreenProjection } from './map-view';
import type { Layer, Location, MapDocument, MapPoint } from './types';

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
// the first render (a 2,000-location map's page spent about 100 ms in that round trip). Not on a
// page that opens on a street basemap (its server-rendered frame, basemap-frame.tsx): MapLibre
// draws and picks its markers, and a drawn floor shown later loads this as its canvas starts.
if (typeof window !== 'undefined' && !document.querySelector('.mf-map--basemap')) void loadInteractive().catch(() => undefined);

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



/** What the host hands over: the document, its floor, the floor's locations by id. */
export interface FloorState {
  doc: MapDocument;
  layer: Layer;
  byId: ReadonlyMap<string, Location>;
  locale: string;
  cooperative: boolean;
}

export class CanvasMapView implements MapView {
  readonly camera: Camera;
  floor!: FloorState;
  markers: MarkerLayer | null = null;
  clusters: ClusterControl | null = null;
  /** The drawing's regions by location id, and their middles once measured. */
  regions = new Map<string, Element>();
  #centres = new Map<string, MapPoint | null>();
  /** The focusable surface the host renders. */
  viewport: HTMLElement | null = null;
  selected: string | null = null;
  visible: ReadonlySet<string> | null = null;
  hovered = { current: null as string | null };
  focused: string | null = null;
  /**
   * The canvas's markers, the flights and the keys (interactive.ts): loaded after the first
   * paint, the largest part of the renderer; the host hands it over once it is in.
   */
  code: typeof import('./interactive') | null = null;
  /** The clustered floor draws nothing until its clusters are set (never its thousands of markers unclustered). */
  clustered = false;
  #listeners: { [E in keyof MapViewEvents]?: Set<MapViewEvents[E]> } = {};

  /** The element the floor's drawing is mounted in (the host's). */
  #baseRef: { readonly current: HTMLElement | null };

  constructor(camera: Camera, baseRef: { readonly current: HTMLElement | null }) {
    this.camera = camera;
    this.#baseRef = baseRef;
  }
  /** The camera says where the floor's points are on screen, and how far it can zoom. */
  get screen(): ScreenProjection {
    return this.camera;
  }
  get base(): HTMLElement | null {
    return this.#baseRef.current;
  }

  on<E extends keyof MapViewEvents>(event: E, listener: MapViewEvents[E]): () => void {
    const set = ((this.#listeners[event] as Set<MapViewEvents[E]> | undefined) ??= new Set());
    set.add(listener);
    return () => set.delete(listener);
  }
  /** Tells the listeners of an event (the host and the view's input, interactive.ts). */
  emit<E extends keyof MapViewEvents>(event: E, ...args: Parameters<MapViewEvents[E]>): void {
    this.#listeners[event]?.forEach((listener) => (listener as (...a: typeof args) => void)(...args));
  }

  /** The floor as its host's render has it, and whether its points cluster (cluster-items.ts, CLUSTER_FROM). */
  setFloor(floor: FloorState, clustered: boolean): void {
    this.floor = floor;
    this.clustered = clustered;
  }

  /** A floor (or a drawing) is new: what was measured on the old one is forgotten. */
  setRegions(regions: Map<string, Element>): void {
    this.regions = regions;
    this.#centres = new Map();
  }
  /** The floor's markers, as the host builds them from its locations. */
  setItems(items: MarkerItem[]): void {
    this.markers?.setItems(items);
    this.camera.requestFrame();
  }

  setSelected(id: string | null): void {
    this.selected = id;
    this.markRegions();
  }
  showLocations(ids: ReadonlySet<string> | null): void {
    this.visible = ids;
    this.markRegions();
  }
  /** The regions' state: selected, filtered out. */
  markRegions(): void {
    for (const [id, region] of this.regions) {
      toggle(region, 'data-mf-active', id === this.selected);
      const hidden = this.visible !== null && !this.visible.has(id);
      toggle(region, 'data-mf-dim', hidden);
      toggle(region, 'data-mf-off', hidden);
    }
    this.camera.requestFrame();
  }

  anchorOf(id: string): MapPoint | null {
    const location = this.floor.byId.get(id);
    if (!location) return null;
    if (location.position) return location.position;
    if (this.#centres.has(id)) return this.#centres.get(id)!;
    const region = this.regions.get(id);
    let centre: MapPoint | null = null;
    if (region && this.base) {
      const r = region.getBoundingClientRect();
      const b = this.base.getBoundingClientRect();
      const scale = b.width / this.camera.mapWidth || 1;
      if (r.width > 0 || r.height > 0) centre = { x: (r.left + r.width / 2 - b.left) / scale, y: (r.top + r.height / 2 - b.top) / scale };
    }
    // Remembered once known (the drawing may still be loading: then ask again later).
    if (centre) this.#centres.set(id, centre);
    return centre;
  }
  extentOf(id: string): { width: number; height: number } | null {
    const region = this.regions.get(id);
    if (!region || !this.base) return null;
    const r = region.getBoundingClientRect();
    const scale = this.base.getBoundingClientRect().width / this.camera.mapWidth || 1;
    return r.width > 0 || r.height > 0 ? { width: r.width / scale, height: r.height / scale } : null;
  }
  revealZoom(id: string): number | null {
    return this.clusters?.revealZoom(id) ?? null;
  }
  focus(): void {
    this.viewport?.focus();
  }

  /** (Once the interactive code is in: until then the view cannot move, and says so.) */
  flyTo(id: string, options: FlyOptions): boolean {
    return this.code?.flyTo(this, id, options) ?? false;
  }
  /** (Once the interactive code is in, as flyTo.) */
  fitTo(points: readonly MapPoint[], padding: number | Insets, options?: FitOptions): boolean {
    return this.code?.fitTo(this.camera, points, padding, options) ?? false;
  }
  ensureVisible(point: MapPoint, margin: number): void {
    this.camera.ensureVisible(point, margin);
  }
  zoomBy(factor: number): void {
    this.camera.zoomBy(factor, undefined, undefined, true);
  }
  resetView(animate = true): void {
    this.camera.reset(animate);
  }

  /** One frame: the floor's transform, the markers repainted. */
  paint(world: HTMLElement): void {
    const { camera } = this;
    // The benchmarks collect each frame's work here when they set the array.
    const profile = (window as { __mapfoldFrameTimes?: number[] }).__mapfoldFrameTimes;
    const began = profile ? performance.now() : 0;
    const { k, x, y } = camera.view;
    world.style.transform = `translate(${x}px, ${y}px) scale(${k})`;
    if (camera.moving) world.style.willChange = 'transform';
    this.code?.drawMarkers(this);
    profile?.push(performance.now() - began);
  }

  /**
   * Starts drawing into the host's map element (map-renderer.tsx: its focusable viewport, the
   * world the floor's drawing moves in, the markers' canvas): the frame loop (the floor's transform, the markers
   * repainted once per frame), the viewport's size, and once their code is in the markers
   * (`onMarkers`), the gestures, hover and click. Answers how to stop.
   */
  start(container: HTMLElement, items: () => MarkerItem[], editing: () => MapEditing | undefined, onMarkers: () => void): () => void {
    const { camera } = this;
    const viewport = container.querySelector<HTMLElement>('.mf-viewport')!;
    const world = viewport.querySelector<HTMLElement>('.mf-world')!;
    const canvas = viewport.querySelector('canvas')!;
    this.viewport = viewport;
    this.code = interactiveCode;
    // The viewport's size, for the marker layer that may arrive after the first measure.
    const size = { width: 0, height: 0, ratio: 1 };
    let stopped = false;
    const attachMarkers = (code: typeof import('./interactive')) => {
      if (stopped) return;
      const markers = new code.MarkerLayer(canvas, () => camera.requestFrame());
      this.code = code;
      this.markers = markers;
      markers.resize(size.width, size.height, size.ratio);
      markers.setItems(items());
      onMarkers();
      camera.requestFrame();
    };
    const offFrame = camera.onFrame(() => this.paint(world));
    // At rest, the layer is drawn again at its final scale (crisp, not a stretched bitmap).
    // A layer without a file is a plain sheet: it stays on its own compositing layer, so a
    // gesture's first and last frames do not paint it again.
    const offSettle = camera.onSettle(() => {
      if (this.floor.layer.file) world.style.willChange = '';
    });
    const measure = () => {
      const { width: w, height: h } = viewport.getBoundingClientRect();
      Object.assign(size, { width: w, height: h, ratio: window.devicePixelRatio || 1 });
      this.markers?.resize(w, h, size.ratio);
      camera.setViewport(w, h);
      camera.flush();
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(viewport);
    // A clustered layer's markers attach once the clustering code is there too (see loadClusterCode).
    // A failed load (either chunk) keeps the static markers (if any) on screen: the map stays readable.
    if (interactiveCode && (!this.clustered || clusterCode)) attachMarkers(interactiveCode);
    else Promise.all([loadInteractive(), this.clustered && loadClusterCode()]).then(([code]) => attachMarkers(code), () => undefined);
    // Pointer and wheel gestures, hover and click: loaded after the first paint, like the canvas's
    // markers (until the canvas is drawn, the map on screen is the static one, which they do not move).
    let detach: (() => void) | null = null;
    loadInteractive().then((code) => {
      this.code = code;
      if (!stopped) detach = code.attachInput(this, viewport, container, editing);
    }, () => undefined);
    return () => {
      stopped = true;
      offFrame();
      offSettle();
      observer?.disconnect();
      detach?.();
      this.markers = null;
    };
  }

  /**
   * Clusters the floor's points through the filters (a few ms for 25,000 points); the buttons
   * for the keyboard follow what is on screen each time the view settles (`onShown`). Answers how to stop.
   */
  cluster(items: MarkerItem[], visible: ReadonlySet<string> | null, width: number, height: number, onShown: (frame: ClusterFrame) => void): (() => void) | undefined {
    const { markers, camera } = this;
    if (!markers) return;
    let control: ClusterControl | null = null;
    let stopped = false;
    const start = (code: typeof import('./cluster-control')) => {
      if (!stopped) this.clusters = control = new code.ClusterControl({ markers, camera, items, visible, width, height, onShown });
    };
    // Loaded before the markers attached; at once, then, so a change of filters never leaves a frame without clusters.
    if (clusterCode) start(clusterCode);
    else loadClusterCode().then(() => start(clusterCode!), () => undefined);
    return () => {
      stopped = true;
      if (this.clusters === control) this.clusters = null;
      control?.stop();
    };
  }

  /** The keyboard focus on a location's button (null: off them): it is lit and kept in view. */
  focusLocation(id: string | null): void {
    const previous = this.focused ? this.regions.get(this.focused) : undefined;
    if (previous) previous.removeAttribute('data-mf-focus');
    this.focused = id;
    if (id) {
      this.regions.get(id)?.setAttribute('data-mf-focus', '');
      const anchor = this.anchorOf(id);
      if (anchor) this.camera.ensureVisible(anchor, 64);
    }
    this.camera.requestFrame();
    this.emit('hover', id ?? this.hovered.current);
  }

  /** A key on the map: arrows pan, plus and minus zoom, 0 goes home (interactive.ts). True when taken. */
  key(key: string): boolean {
    return this.code?.keyOnMap(this.camera, key) ?? false;
  }
}

function toggle(element: Element, attribute: string, on: boolean): void {
  if (on) element.setAttribute(attribute, '');
  else element.removeAttribute(attribute);
}
