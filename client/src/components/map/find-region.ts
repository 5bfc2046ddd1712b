/**
 * Finds a location's region in a drawing by its `element`. Ids a drawing cannot keep as an
 * element reference ("11", "-99": a GeoJSON's regions drawn before issue 26) are read by
 * `elementIdFor` (events/element-id.ts), as the upcasters read the locations naming them, so a
 * drawing stored then and a location recorded then still meet.
 */
import { elementIdFor } from '../../../../events/svg-element-id';

/** A lookup over `root`'s elements by element reference; the few odd ids indexed once, on the first miss. */
export function regionFinder(root: ParentNode): (element: string) => Element | null {
  let escaped: Map<string, Element> | null = null;
  return (element) => {
    // Element references are checked (letters, digits, _ . : -), so they fit in the selector as they are.
    const exact = root.querySelector(`[id="${element}"]`);
    if (exact) return exact;
    if (!escaped) {
      escaped = new Map();
      for (const candidate of root.querySelectorAll('[id]')) {
        const reference = elementIdFor(candidate.id);
        if (reference !== candidate.id && !escaped.has(reference)) escaped.set(reference, candidate);
      }
    }
    return escaped.get(element) ?? null;
  };
}
