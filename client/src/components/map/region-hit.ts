/**
 * Which location or pickable element of an SVG layer (mounted by svg-layer.ts, which is loaded
 * only for a layer that has a drawing) is under a point or an event: the renderer's pointer
 * handlers ask these on every move, so they stay with it.
 */

/** The SVG element id under a point that the editor may link to a new location, if any. */
export function pickableAt(root: ShadowRoot | null | undefined, clientX: number, clientY: number): string | null {
  if (!root || typeof root.elementFromPoint !== 'function') return null;
  return root.elementFromPoint(clientX, clientY)?.closest('[data-mf-pick]')?.getAttribute('data-mf-pick') ?? null;
}

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
