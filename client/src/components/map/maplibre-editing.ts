/**
 * The editor's side of a basemap floor's MapLibre view ({@link MapEditing}, for the editor to
 * wire): a press on a pin drags it (MapLibre's own pan held off meanwhile), the pin following
 * the pointer, and the drop reports where it went in the floor's units (`onMove`, to a tenth
 * of a unit as the canvas's dragging does). While placing a new location the map shows a
 * crosshair; its click is the view's `background` event with the floor point, as every click
 * on no marker is.
 */
import type { LngLat, MapMouseEvent, MapTouchEvent, Point } from 'maplibre-gl';
import type { MapEditing } from './map-view';
import type { MapLibreMapView } from './maplibre-map-view';

/** A press that moves less than this many pixels is a click, not a drag. */
const DRAG_THRESHOLD = 4;

/** Starts the editing gestures on the view; answers how to stop. */
export function attachMapLibreEditing(view: MapLibreMapView, editing: () => MapEditing | undefined): () => void {
  const { map } = view;
  let drag: { id: string; start: Point; moved: boolean; to: LngLat | null } | null = null;

  const press = (event: MapMouseEvent | MapTouchEvent) => {
    const edit = editing();
    if (!edit || edit.placing || drag) return;
    if (event.type === 'mousedown' && (event.originalEvent as MouseEvent).button !== 0) return;
    if (event.type === 'touchstart' && (event as MapTouchEvent).points.length !== 1) return;
    const id = view.markerAt(event.point);
    if (!id) return;
    // The map does not pan under a marker being dragged.
    event.preventDefault();
    drag = { id, start: event.point, moved: false, to: null };
  };
  const move = (event: MapMouseEvent | MapTouchEvent) => {
    if (!drag) return;
    if (!drag.moved && event.point.dist(drag.start) < DRAG_THRESHOLD) return;
    drag.moved = true;
    drag.to = event.lngLat;
    view.showDragged(drag.id, event.lngLat);
  };
  const release = () => {
    const done = drag;
    drag = null;
    if (!done?.moved || !done.to) return;
    const at = view.floorPointOf(done.to);
    view.showDragged(null, null);
    if (at) editing()?.onMove(done.id, { x: Math.round(at.x * 10) / 10, y: Math.round(at.y * 10) / 10 });
  };

  map.on('mousedown', press);
  map.on('touchstart', press);
  map.on('mousemove', move);
  map.on('touchmove', move);
  map.on('mouseup', release);
  map.on('touchend', release);
  map.on('touchcancel', release);
  return () => {
    map.off('mousedown', press);
    map.off('touchstart', press);
    map.off('mousemove', move);
    map.off('touchmove', move);
    map.off('mouseup', release);
    map.off('touchend', release);
    map.off('touchcancel', release);
  };
}

/** Placing a new location: a crosshair over the map (MapLibre's grab hand otherwise). */
export function showPlacing(view: MapLibreMapView, placing: boolean): void {
  view.map.getCanvasContainer().classList.toggle('mf-basemap--placing', placing);
}
