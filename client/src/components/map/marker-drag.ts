/**
 * The editor's marker dragging (a renderer with `editing`, attached by interactive.ts): a press on a placed marker
 * drags it instead of panning the map, and the drop reports where it went; Shift and an arrow
 * key move the location whose button has the focus (the keyboard's way). Its own module,
 * loaded only by a renderer that edits, so the public viewer never downloads it.
 */
import type { Camera } from './camera';
import type { CanvasMapView } from './canvas-map-view';
import { isClusterId } from './cluster-items';
import type { MapEditing } from './map-view';
import type { MapPoint } from './types';

/** A press that moves less than this many pixels is a click, not a drag. */
const DRAG_THRESHOLD = 4;
/** Shift and an arrow move a location this many screen pixels. */
const NUDGE = 8;
const NUDGES: Partial<Record<string, readonly [number, number]>> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export interface MarkerDragOptions {
  camera: Camera;
  /** The map's element holding the locations' buttons (for Shift and an arrow). */
  keys: HTMLElement;
  /** The marker under a point of the viewport, if any. */
  hit(x: number, y: number): string | null;
  /** A location's position on its layer (null: it has none, a region). */
  positionOf(id: string): MapPoint | null;
  /** Draws the dragged marker at its new place until the document has it. */
  moveItem(id: string, x: number, y: number): void;
  /** Placing a new location: presses are not drags then. */
  placing(): boolean;
  /** The drop: the marker's new position, rounded to a tenth of a unit. */
  onMove(id: string, to: MapPoint): void;
}

/** Listens on the viewport (capture, ahead of the gestures); returns the function that stops. */
export function attachMarkerDrag(viewport: HTMLElement, options: MarkerDragOptions): () => void {
  const { camera } = options;
  let drag: { id: string; pointerId: number; startX: number; startY: number; dx: number; dy: number; moved: boolean; to: MapPoint | null } | null = null;
  let suppressClick = false;
  const local = (event: PointerEvent) => {
    const rect = viewport.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const onDown = (event: PointerEvent) => {
    if ((event.pointerType === 'mouse' && event.button !== 0) || drag || options.placing()) return;
    if (event.target instanceof Element && event.target.closest('[data-mf-ui]')) return;
    const point = local(event);
    const id = options.hit(point.x, point.y);
    const position = id ? options.positionOf(id) : null;
    if (!id || !position) return;
    // Ours alone: the map does not pan under a marker being dragged.
    event.stopImmediatePropagation();
    const anchor = camera.toScreen(position);
    drag = { id, pointerId: event.pointerId, startX: point.x, startY: point.y, dx: anchor.x - point.x, dy: anchor.y - point.y, moved: false, to: null };
    viewport.setPointerCapture?.(event.pointerId);
  };
  const onMove = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    event.stopImmediatePropagation();
    const point = local(event);
    if (!drag.moved && Math.hypot(point.x - drag.startX, point.y - drag.startY) < DRAG_THRESHOLD) return;
    drag.moved = true;
    viewport.dataset.draggingMarker = '';
    drag.to = camera.toMap(point.x + drag.dx, point.y + drag.dy);
    options.moveItem(drag.id, drag.to.x, drag.to.y);
    camera.requestFrame();
  };
  const onUp = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    event.stopImmediatePropagation();
    const { id, moved, to } = drag;
    drag = null;
    delete viewport.dataset.draggingMarker;
    if (moved && to) {
      suppressClick = true;
      options.onMove(id, { x: Math.round(to.x * 10) / 10, y: Math.round(to.y * 10) / 10 });
    }
  };
  const onClickCapture = (event: MouseEvent) => {
    if (!suppressClick) return;
    suppressClick = false;
    event.stopImmediatePropagation();
  };
  // Ahead of the renderer's own keys (React's, at the root): a nudge is not a pan.
  const onKeyDown = (event: KeyboardEvent) => {
    const nudge = NUDGES[event.key];
    const id = event.target instanceof Element ? event.target.getAttribute('data-location') : null;
    if (!nudge || !id || !event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const position = options.positionOf(id);
    if (!position) return;
    const by = NUDGE / camera.view.k;
    options.onMove(id, { x: Math.round((position.x + nudge[0] * by) * 10) / 10, y: Math.round((position.y + nudge[1] * by) * 10) / 10 });
  };
  options.keys.addEventListener('keydown', onKeyDown);
  viewport.addEventListener('pointerdown', onDown, true);
  viewport.addEventListener('pointermove', onMove, true);
  viewport.addEventListener('pointerup', onUp, true);
  viewport.addEventListener('pointercancel', onUp, true);
  viewport.addEventListener('click', onClickCapture, true);
  return () => {
    options.keys.removeEventListener('keydown', onKeyDown);
    viewport.removeEventListener('pointerdown', onDown, true);
    viewport.removeEventListener('pointermove', onMove, true);
    viewport.removeEventListener('pointerup', onUp, true);
    viewport.removeEventListener('pointercancel', onUp, true);
    viewport.removeEventListener('click', onClickCapture, true);
  };
}

/** Marker dragging on a floor's view (canvas-map-view.ts), as the editor's renderer has it. */
export function attachViewDrag(view: CanvasMapView, viewport: HTMLElement, keys: HTMLElement, editing: () => MapEditing | undefined): () => void {
  return attachMarkerDrag(viewport, {
    camera: view.camera,
    keys,
    // A cluster is not a marker to drag.
    hit: (x, y) => {
      const id = view.markers?.hit(x, y) ?? null;
      return id && isClusterId(id) ? null : id;
    },
    // Only while the renderer edits (a map made read-only keeps its markers where they are).
    positionOf: (id) => (editing() ? view.floor.byId.get(id)?.position ?? null : null),
    moveItem: (id, x, y) => view.markers?.moveItem(id, x, y),
    placing: () => editing()?.placing ?? false,
    onMove: (id, to) => editing()?.onMove(id, to),
  });
}
