/**
 * Hover and click on the map's markers and regions (map-renderer.tsx): which location is under
 * the pointer, the hover state of its region, a click's selection, and the editor's picking of
 * an SVG element while placing. Loaded with the gestures after the first paint: until the
 * canvas is drawn the map on screen is the static one, which takes no pointer.
 */
import type { Camera } from './camera';
import { pickableAt, regionOf } from './region-hit';
import type { MapEditing } from './map-view';
import type { MapPoint } from './types';

export interface PickingOptions {
  camera: Camera;
  /** The canvas's marker under a point of the viewport, if any. */
  hit(x: number, y: number): string | null;
  /** The drawing's shadow root (an SVG layer's), if mounted. */
  drawing(): ShadowRoot | null | undefined;
  /** A location's region in the drawing. */
  region(id: string): Element | undefined;
  hovered: { current: string | null };
  focused(): string | null;
  editing(): MapEditing | undefined;
  onHover(id: string | null): void;
  onSelect(id: string, opener: HTMLElement): void;
  onBackgroundClick(at: MapPoint): void;
}

/** Listens on the viewport; returns the function that stops. */
export function attachPicking(viewport: HTMLElement, options: PickingOptions): () => void {
  const { camera } = options;
  const at = (event: MouseEvent) => {
    const rect = viewport.getBoundingClientRect();
    const marker = options.hit(event.clientX - rect.left, event.clientY - rect.top);
    if (marker) return marker;
    // By position, not by the event's target: a mouse drag captures the pointer, and the
    // click that ends it then targets the viewport.
    const root = options.drawing();
    if (root && typeof root.elementFromPoint === 'function') {
      return root.elementFromPoint(event.clientX, event.clientY)?.closest('[data-mf-loc]')?.getAttribute('data-mf-loc') ?? null;
    }
    return regionOf(event);
  };
  const setHovered = (id: string | null) => {
    if (id === options.hovered.current) return;
    const before = options.hovered.current ? options.region(options.hovered.current) : undefined;
    if (before) before.removeAttribute('data-mf-hover');
    options.hovered.current = id;
    const region = id ? options.region(id) : undefined;
    if (region) region.setAttribute('data-mf-hover', '');
    viewport.dataset.hovering = id ? 'true' : 'false';
    camera.requestFrame();
    options.onHover(id ?? options.focused());
  };
  const onMove = (event: PointerEvent) => {
    if (event.buttons !== 0 || event.pointerType === 'touch') return;
    setHovered(at(event));
  };
  const onLeave = () => setHovered(null);
  const mapPointOf = (event: MouseEvent) => {
    const rect = viewport.getBoundingClientRect();
    return camera.toMap(event.clientX - rect.left, event.clientY - rect.top);
  };
  const onClick = (event: MouseEvent) => {
    const editing = options.editing();
    // Placing: a click on the drawing's unlinked region links it; anywhere else places a marker.
    if (editing?.placing) {
      const element = pickableAt(options.drawing(), event.clientX, event.clientY);
      if (element) editing.onPickRegion(element, mapPointOf(event));
      else options.onBackgroundClick(mapPointOf(event));
      return;
    }
    const id = at(event);
    if (id) {
      options.onSelect(id, viewport);
      return;
    }
    const element = editing ? pickableAt(options.drawing(), event.clientX, event.clientY) : null;
    if (element && editing) editing.onPickRegion(element, mapPointOf(event));
    else options.onBackgroundClick(mapPointOf(event));
  };
  viewport.addEventListener('pointermove', onMove);
  viewport.addEventListener('pointerleave', onLeave);
  viewport.addEventListener('click', onClick);
  return () => {
    viewport.removeEventListener('pointermove', onMove);
    viewport.removeEventListener('pointerleave', onLeave);
    viewport.removeEventListener('click', onClick);
  };
}
