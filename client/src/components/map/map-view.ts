/**
 * What a screen's controller asks of a map on screen, whatever draws it (issue 29 item 6):
 * today's renderer of a floor (its drawing inlined, the markers on a canvas, map-renderer.tsx
 * and canvas-map-view.ts) implements it, and a basemap floor's MapLibre map will. The viewer's
 * controller (features/viewer/controller/viewer-controller.ts) drives it imperatively: it says
 * which location is selected and which the filters let through, and brings a location into
 * view; the view tells it what the visitor clicks and hovers, and when a floor is drawn.
 *
 * Positions are in the floor's own units (a drawing's pixels); a basemap's view takes them as
 * longitude and latitude (x, y), so the controller never needs to know which it is.
 *
 * Not yet behind this interface (for the MapLibre view to come, issue 29 item 1): the floor
 * shown and the document are still handed to the canvas view by its React host's props
 * (map-renderer.tsx, CanvasMapView.setFloor), and what follows a point of the map on screen
 * (the popup, the tooltip, the minimap, the route's overlay) reads the canvas's Camera.
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

/** How to bring a location into view. */
export interface FlyOptions {
  /** Moving there (true) or jumping (false: the first view of a deep link). */
  animate: boolean;
  /** Move the location up by this share of the view's height (a phone's details sheet covers the lower part). */
  raise?: number;
}

/** A map on screen, driven by a controller. */
export interface MapView {
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
