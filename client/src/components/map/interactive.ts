/**
 * What makes the drawn map interactive, as one chunk that loads after the first paint
 * (map-renderer.tsx): the canvas's markers, pan and zoom, hover and click.
 */
export { MarkerLayer } from './marker-layer';
export { attachGestures } from './gestures';
export { attachPicking } from './pointer-picking';

import type { Camera } from './camera';
import type { CanvasMapView } from './canvas-map-view';
import type { FitOptions, FlyOptions, Insets, MapEditing } from './map-view';
import { viewFitting } from './view-fit';
import type { MapPoint } from './types';
import { isClusterId } from './cluster-items';
import { attachGestures } from './gestures';
import { attachPicking } from './pointer-picking';

/**
 * A floor's view (canvas-map-view.ts) takes pointer and wheel gestures, and hover and click on
 * its markers and regions, which it tells as its events; answers the function that stops.
 */
export function attachInput(view: CanvasMapView, viewport: HTMLElement, container: HTMLElement, editing: () => MapEditing | undefined): () => void {
  const { camera } = view;
  const stopGestures = attachGestures(viewport, {
    camera,
    cooperative: () => view.floor.cooperative,
    // The page (an iframe's own document, when embedded) has the focus, and within it the map.
    hasFocus: () => window.document.hasFocus() && container.contains(window.document.activeElement),
    onHint: (hint) => view.emit('hint', hint),
  });
  const stopPicking = attachPicking(viewport, {
    camera,
    hit: (x, y) => view.markers?.hit(x, y) ?? null,
    drawing: () => view.base?.shadowRoot,
    region: (id) => view.regions.get(id),
    hovered: view.hovered,
    focused: () => view.focused,
    editing,
    onHover: (id) => view.emit('hover', id),
    onSelect: (id, opener) => (isClusterId(id) ? view.clusters?.expand(id, false) : view.emit('select', id, opener)),
    onBackgroundClick: (at) => view.emit('background', at),
  });
  // The editor's marker dragging (marker-drag.ts): its code loads once the renderer edits, so
  // the public viewer never downloads it; a renderer that starts read-only and becomes editable
  // loads it at its first press or focus then.
  let stopDrag: (() => void) | null = null;
  let dragging = false;
  let stopped = false;
  const dragWhenEditing = () => {
    if (dragging || !editing()) return;
    dragging = true;
    void import('./marker-drag').then(({ attachViewDrag }) => {
      if (!stopped) stopDrag = attachViewDrag(view, viewport, container, editing);
    });
  };
  dragWhenEditing();
  container.addEventListener('pointerdown', dragWhenEditing, true);
  container.addEventListener('focusin', dragWhenEditing);
  return () => {
    stopped = true;
    stopGestures();
    stopPicking();
    stopDrag?.();
    container.removeEventListener('pointerdown', dragWhenEditing, true);
    container.removeEventListener('focusin', dragWhenEditing);
  };
}

/**
 * Brings a location of the view's floor into view (MapView.flyTo): out of its cluster, a
 * small region deep enough to be seen. False while its floor cannot tell where it is.
 */
export function flyTo(view: CanvasMapView, id: string, { animate, raise = 0 }: FlyOptions): boolean {
  const { camera } = view;
  const anchor = view.anchorOf(id);
  if (!anchor) return false; // the floor's drawing is still loading: ask again when ready
  const location = view.floor.byId.get(id)!;
  const { maxZoom } = view.floor.doc.settings;
  // In a clustered floor, deep enough for the location to stand alone, out of its cluster.
  const reveal = view.revealZoom(id) ?? 0;
  // A small region (a district on a country's map, a kiosk in a mall) deep enough to be seen:
  // its longer side a sixth of the view's shorter one, within the map's zoom limit.
  const extent = view.extentOf(id);
  const longest = extent ? Math.max(extent.width, extent.height) : 0;
  const legible = longest > 0 ? Math.min(maxZoom, Math.min(camera.width, camera.height) / 6 / (longest * camera.fit)) : 0;
  const zoom = location.zoom ?? Math.max(camera.zoom, Math.min(maxZoom, 2), reveal, legible);
  camera.centerOn(anchor, zoom, animate, -camera.height * raise);
  return true;
}

/**
 * Fits points of the floor in the view (MapView.fitTo), `padding` px inside its edges (less on
 * a small view, view-fit.ts), no deeper than the map's zoom limit nor `maxZoom` (a single
 * point, or points close together, at that limit), centred in the room left free.
 */
export function fitTo(camera: Camera, points: readonly MapPoint[], padding: number | Insets, { maxZoom, animate = true }: FitOptions = {}): boolean {
  const view = viewFitting(camera, points, padding, maxZoom);
  if (view) camera.set(view, animate);
  return view !== null;
}

/**
 * Repaints the view's markers. A clustered floor draws nothing until its clusters are set on
 * the markers (the static map, or the previous drawing, stays until then): never its thousands
 * of markers unclustered. (Asked of the markers, not of the view's clusters: the cluster
 * control draws its first frame from its constructor, before the view holds it.)
 */
export function drawMarkers(view: CanvasMapView): void {
  const { markers, floor } = view;
  const { theme } = floor.doc.settings;
  if (!view.clustered || markers?.hasClusters)
    markers?.draw(view.camera.view, { selected: view.selected, hovered: view.hovered.current, focused: view.focused, visible: view.visible, accent: theme.accent, dark: theme.mode === 'dark', locale: floor.locale });
}

const PAN: Partial<Record<string, readonly [number, number]>> = { ArrowLeft: [80, 0], ArrowRight: [-80, 0], ArrowUp: [0, 80], ArrowDown: [0, -80] };
/** A key on the map: arrows pan, plus and minus zoom, 0 goes home. True when taken. */
export function keyOnMap(camera: Camera, key: string): boolean {
  const pan = PAN[key];
  if (pan) camera.panBy(pan[0], pan[1], true);
  else if (key === '+' || key === '=') camera.zoomBy(1.5, undefined, undefined, true);
  else if (key === '-' || key === '_') camera.zoomBy(1 / 1.5, undefined, undefined, true);
  else if (key === '0') camera.reset();
  else return false;
  return true;
}
