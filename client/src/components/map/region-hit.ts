/**
 * Which location or pickable element of an SVG layer (mounted by svg-layer.ts, which is loaded
 * only for a layer that has a drawing) is under a point or an event: the renderer's pointer
 * handlers ask these on every move, so they stay with it.
 */

/**
 * The SVG element id under a point that the editor may link to a new location, if any: of the
 * regions under the pointer (shapes and groups svg-layer.ts marked as meaningful, and those
 * linked already), the smallest. When that one is linked already, none: the click is a place
 * inside it (a pin), never its enclosing group nor the same region a second time.
 */
export function pickableAt(root: ShadowRoot | null | undefined, clientX: number, clientY: number): string | null {
  if (!root) return null;
  const hits = typeof root.elementsFromPoint === 'function' ? root.elementsFromPoint(clientX, clientY) : typeof root.elementFromPoint === 'function' ? [root.elementFromPoint(clientX, clientY)] : [];
  const candidates = new Set<Element>();
  for (const hit of hits) {
    for (let element: Element | null = hit?.closest(REGION) ?? null; element; element = element.parentElement?.closest(REGION) ?? null) candidates.add(element);
  }
  let smallest: Element | null = null;
  let smallestArea = Infinity;
  for (const element of candidates) {
    const box = element.getBoundingClientRect();
    const area = box.width * box.height;
    if (area < smallestArea) {
      smallest = element;
      smallestArea = area;
    }
  }
  return smallest?.getAttribute('data-mf-pick') ?? null;
}

/** A region a location stands for, or one the editor may link. */
const REGION = '[data-mf-pick], [data-mf-loc]';

/** The location of the region an event happened in (through the shadow root), if any. */
export function regionOf(event: Event): string | null {
  for (const target of event.composedPath()) {
    if (target instanceof Element) {
      const id = target.getAttribute('data-mf-loc');
      if (id) return id;
    }
  }
  return null;
}
