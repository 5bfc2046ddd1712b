/**
 * What a screen's controller asks of a map on screen, whatever draws it (issue 29 item 6):
 * today's renderer of a floor (its drawing inlined, the markers on a canvas, map-renderer.tsx
 * and canvas-map-view.ts) implements it, and a basemap floor's MapLibre map will. The viewer's
 * controller (features/viewer/controller/viewer-controller.ts) drives it imperatively: it says
 * which location is selected and which the filters let through, and brings a location into
 * view; the view tells it what the visitor clicks and hovers, and when a floor is drawn.
 *
 * Positions are in the floor's own units (a drawing's pixels) on either view: a basemap floor's
 * units map linearly onto Web Mercator (its calibration's bounds), and its view converts them.
 *
 * Two implementations: CanvasMapView (canvas-map-view.ts, hosted by map-renderer.tsx) for a
 * drawn floor, MapLibreMapView (maplibre-map-view.ts, hosted by basemap-renderer.tsx, loaded
 * only for a floor on a street basemap) for a basemap floor; map-renderer.tsx picks one per
 * floor. What follows a point of the map on screen (the popup, the tooltip) reads the view's
 * {@link ScreenProjection}, and so does the route's overlay, which fits the route with
 * `fitTo` and follows the visitor's step with `ensureVisible`; the zoom buttons read the
 * projection's limits. The editor's overlays read it too (others' pointers and selections, the
 * path network, a published ghost), and its pointer goes back through `toMap`. Not yet behind
 * this interface: the floor and the document are handed to each view by its React host's
 * props, and the minimap reads the canvas's Camera (it draws nothing on a basemap floor).
 */
import type { GestureHint } from './gestures';
import type { MapPoint } from './types';

/** What the editor adds to the map: dragging markers, picking regions, placing new locations. */
export interface MapEditing {
  /** A marker was dragged to `to` (layer coordinates). */
  onMove(id: string, to: MapPoint): void;
  /** An SVG element with an id that no location stands for was clicked. */
  onPickRegion(elementId: string, at: MapPoint): void;
  /** Placing a new location: a crosshair, and regions light up under the pointer. */
  placing: boolean;
}

/** What a map view tells its controller. */
export interface MapViewEvents {
  /** A location was chosen; `opener` is the element that had the focus (to return it to). */
  select: (id: string, opener: HTMLElement | null) => void;
  /** The pointer or the keyboard focus is on a location (null: on none). */
  hover: (id: string | null) => void;
  /** A click on no location, with where it was on the floor. */
  background: (at: MapPoint) => void;
  /** A gesture the map did not take (an embedded map's wheel without Ctrl): how to zoom. */
  hint: (hint: GestureHint) => void;
  /** The floor's drawing and markers are on screen (each time the floor changes). */
  ready: () => void;
}

/**
 * Where the floor's points are on screen now, and when that changes: what an overlay that
 * follows a point reads (the popup, the tooltip; features/viewer/use-anchored.ts). The
 * canvas's Camera is one.
 */
export interface ScreenProjection {
  /** The map's size on screen (CSS pixels). */
  readonly width: number;
  readonly height: number;
  /** Where a point of the floor is, in CSS pixels from the map's top left. */
  toScreen(point: MapPoint): MapPoint;
  /** The point of the floor under a point of the map on screen (CSS pixels from its top left): toScreen's inverse. */
  toMap(x: number, y: number): MapPoint;
  /** The zoom now, relative to the whole floor (1 fits it): the document's zoom, as its initial view has it. */
  readonly zoom: number;
  /** Called each frame the view moved or was redrawn; answers how to stop. */
  onFrame(listener: () => void): () => void;
  /** Whether the view can zoom further in and out now (the zoom buttons' limits). Optional: without them, both can. */
  readonly canZoomIn?: boolean;
  readonly canZoomOut?: boolean;
}

/** Room kept free inside the view's edges, in CSS pixels (the controls over the map). */
export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** How to bring points into view together (MapView.fitTo). */
export interface FitOptions {
  /** No deeper than this zoom, relative to the whole floor (1 fits it); the map's own limit anyway. */
  maxZoom?: number;
  /** Moving there (true, the default) or jumping. */
  animate?: boolean;
}

/** How to bring a location into view. */
export interface FlyOptions {
  /** Moving there (true) or jumping (false: the first view of a deep link). */
  animate: boolean;
  /** Move the location up by this share of the view's height (a phone's details sheet covers the lower part). */
  raise?: number;
}

/** A map on screen, driven by a controller. */
export interface MapView {
  /** Floor points to screen points, as the view shows them now. */
  readonly screen: ScreenProjection;
  /** Where a location sits on its floor: its position, or the middle of its region (null until its drawing is in). */
  anchorOf(id: string): MapPoint | null;
  /** A region's size on its floor, or null for a location without a drawn region (or before it is drawn). */
  extentOf(id: string): { width: number; height: number } | null;
  /** The zoom (1 fits the floor) from which a location stands alone, out of its cluster; null when not clustered. */
  revealZoom(id: string): number | null;
  /** Gives the keyboard focus to the map's surface. */
  focus(): void;
  /**
   * Brings a location of the floor shown into view, close enough to be seen (out of its
   * cluster, a small region legible). False when the view cannot tell yet where it is (its
   * floor's drawing still loading): ask again once the view is `ready`.
   */
  flyTo(id: string, options: FlyOptions): boolean;
  /**
   * Brings these points of the floor into view together (the store locator's results and where
   * distances are from, a route's leg), `padding` CSS pixels inside the edges (the same all
   * round, or per edge: less on a small view), zoomed in no further than the map allows (and
   * `options.maxZoom`). False when the view cannot move yet. Optional: a view without it
   * leaves the view where it is.
   */
  fitTo?(points: readonly MapPoint[], padding: number | Insets, options?: FitOptions): boolean;
  /** Moves the view as little as needed (animated) for a point of the floor to sit `margin` CSS pixels inside it. Optional, as fitTo. */
  ensureVisible?(point: MapPoint, margin: number): void;
  /** Zooms by a factor about the middle of the view (animated). */
  zoomBy(factor: number): void;
  /** Back to the floor's home view. */
  resetView(animate?: boolean): void;
  /** The location selected (lit, its region active), or none. */
  setSelected(id: string | null): void;
  /** The locations the filters let through (the others dimmed); null lets all through. */
  showLocations(ids: ReadonlySet<string> | null): void;
  /** Listens to one of the view's events; answers the function that stops listening. */
  on<E extends keyof MapViewEvents>(event: E, listener: MapViewEvents[E]): () => void;
}
