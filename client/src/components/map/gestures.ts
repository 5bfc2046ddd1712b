/**
 * Pan and zoom by hand: mouse drag, wheel, double click, one-finger drag and two-finger pinch,
 * on pointer events. Written here rather than taken from a library: d3-zoom with its
 * dependencies (selection, transition, interpolate, drag, dispatch) adds about 12 KB gzipped,
 * which does not fit the viewer's 80 KB budget beside React; this is well under 2 KB.
 *
 * Cooperative mode (an embedded map): the page around it keeps its scrolling. The wheel zooms
 * only with Ctrl (or ⌘), or once the map has focus; one finger scrolls the page and two move
 * the map. Otherwise a hint says how.
 */
import type { Camera } from './camera';

export type GestureHint = 'wheel' | 'touch';

export interface GestureOptions {
  camera: Camera;
  cooperative: () => boolean;
  /** True while the map (or something in it) has the keyboard focus. */
  hasFocus: () => boolean;
  onHint: (hint: GestureHint) => void;
}

interface Summary {
  n: number;
  cx: number;
  cy: number;
  distance: number;
}

/** Elements marked `data-mf-ui` (controls over the map) keep their own pointer events. */
const isUi = (target: EventTarget | null) => target instanceof Element && target.closest('[data-mf-ui]') !== null;

export function attachGestures(element: HTMLElement, { camera, cooperative, hasFocus, onHint }: GestureOptions): () => void {
  const pointers = new Map<number, { x: number; y: number; touch: boolean }>();
  let rect = element.getBoundingClientRect();
  let last: Summary | null = null;
  let travelled = 0;
  let suppressClick = false;

  const local = (event: { clientX: number; clientY: number }) => ({ x: event.clientX - rect.left, y: event.clientY - rect.top });

  const summary = (): Summary | null => {
    if (pointers.size === 0) return null;
    let cx = 0;
    let cy = 0;
    for (const p of pointers.values()) {
      cx += p.x;
      cy += p.y;
    }
    cx /= pointers.size;
    cy /= pointers.size;
    const [a, b] = [...pointers.values()];
    const distance = a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
    return { n: pointers.size, cx, cy, distance };
  };

  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if (isUi(event.target)) return;
    if (pointers.size === 0) {
      rect = element.getBoundingClientRect();
      travelled = 0;
      suppressClick = false;
    }
    pointers.set(event.pointerId, { ...local(event), touch: event.pointerType === 'touch' });
    if (event.pointerType === 'mouse') element.setPointerCapture?.(event.pointerId);
    last = summary();
  };

  const onPointerMove = (event: PointerEvent) => {
    const pointer = pointers.get(event.pointerId);
    if (!pointer) return;
    const position = local(event);
    pointer.x = position.x;
    pointer.y = position.y;
    const now = summary();
    if (!now) return;
    // One finger on an embedded map scrolls the page (the browser does that): say how to move it.
    if (now.n === 1 && pointer.touch && cooperative()) {
      if (last && Math.hypot(now.cx - last.cx, now.cy - last.cy) > 8) onHint('touch');
      return;
    }
    if (last && last.n === now.n) {
      const dx = now.cx - last.cx;
      const dy = now.cy - last.cy;
      travelled += Math.abs(dx) + Math.abs(dy);
      if (now.n >= 2 && last.distance > 0 && now.distance > 0) camera.zoomBy(now.distance / last.distance, now.cx, now.cy);
      if (dx !== 0 || dy !== 0) camera.panBy(dx, dy);
      if (travelled > 5 && !suppressClick) {
        suppressClick = true;
        element.dataset.dragging = '';
      }
    }
    last = now;
  };

  const onPointerEnd = (event: PointerEvent) => {
    if (!pointers.delete(event.pointerId)) return;
    last = summary();
    if (pointers.size === 0) delete element.dataset.dragging;
  };

  // A drag ends with a click on whatever is under the pointer: that click is not a selection.
  const onClickCapture = (event: MouseEvent) => {
    if (!suppressClick) return;
    suppressClick = false;
    event.stopPropagation();
    event.preventDefault();
  };

  const onWheel = (event: WheelEvent) => {
    if (isUi(event.target)) return;
    const zoomKey = event.ctrlKey || event.metaKey;
    if (cooperative() && !zoomKey && !hasFocus()) {
      onHint('wheel');
      return; // the page scrolls
    }
    event.preventDefault();
    rect = element.getBoundingClientRect();
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? rect.height : 1;
    // Trackpad pinches arrive as wheel events with ctrlKey and small deltas.
    const factor = Math.exp(-event.deltaY * unit * (event.ctrlKey ? 0.01 : 0.002));
    const at = local(event);
    camera.zoomBy(factor, at.x, at.y);
  };

  const onDoubleClick = (event: MouseEvent) => {
    if (isUi(event.target)) return;
    rect = element.getBoundingClientRect();
    const at = local(event);
    camera.zoomBy(event.shiftKey ? 0.5 : 2, at.x, at.y, true);
  };

  // Two fingers on an embedded map move the map, not the page.
  const onTouchMove = (event: TouchEvent) => {
    if (event.touches.length >= 2 && event.cancelable) event.preventDefault();
  };

  element.addEventListener('pointerdown', onPointerDown);
  element.addEventListener('pointermove', onPointerMove);
  element.addEventListener('pointerup', onPointerEnd);
  element.addEventListener('pointercancel', onPointerEnd);
  element.addEventListener('click', onClickCapture, true);
  element.addEventListener('wheel', onWheel, { passive: false });
  element.addEventListener('dblclick', onDoubleClick);
  element.addEventListener('touchmove', onTouchMove, { passive: false });
  return () => {
    element.removeEventListener('pointerdown', onPointerDown);
    element.removeEventListener('pointermove', onPointerMove);
    element.removeEventListener('pointerup', onPointerEnd);
    element.removeEventListener('pointercancel', onPointerEnd);
    element.removeEventListener('click', onClickCapture, true);
    element.removeEventListener('wheel', onWheel);
    element.removeEventListener('dblclick', onDoubleClick);
    element.removeEventListener('touchmove', onTouchMove);
  };
}
