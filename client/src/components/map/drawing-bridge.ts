/**
 * The editor's mounted drawing, for a panel that points at its regions (the regions dialog,
 * features/editor/panels/regions-dialog.tsx): a row's shape lit on the map while the row is
 * hovered or focused, and the text written inside each shape read as a title. The editor's map
 * renderer provides it while it shows a drawing; a viewer provides nothing.
 */
import { regionFinder } from './find-region';

interface Drawing {
  layerId: string;
  root(): ShadowRoot | null | undefined;
}

let current: Drawing | null = null;
/** More texts than this inside one shape: not its name. */
const MAX_TEXTS = 2;
const listeners = new Set<() => void>();

/** Called by the editor's renderer when a floor's drawing is on screen; answers the function that withdraws it. */
export function provideDrawing(drawing: Drawing): () => void {
  current = drawing;
  for (const listener of listeners) listener();
  return () => {
    if (current !== drawing) return;
    current = null;
    for (const listener of listeners) listener();
  };
}

/** Calls `listener` each time a drawing comes or goes; answers the function that stops. */
export function onDrawingChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function svgOf(layerId: string): SVGSVGElement | null {
  if (!current || current.layerId !== layerId) return null;
  return current.root()?.querySelector('svg') ?? null;
}

/** Lights the region `element` of the floor's drawing (none: puts the light out). */
export function spotlightRegion(layerId: string, element: string | null): void {
  const svg = svgOf(layerId);
  if (!svg) return;
  for (const lit of svg.querySelectorAll('[data-mf-spot]')) lit.removeAttribute('data-mf-spot');
  if (element) regionFinder(svg)(element)?.setAttribute('data-mf-spot', '');
}

/**
 * The text written inside each region, by region id: every `<text>` of the drawing goes to the
 * smallest of the regions its middle lies in (a room's number to the room, not to the wing
 * around it), its lines joined. Measured on screen, so every transform of the drawing counts;
 * null when the floor's drawing is not on screen.
 */
export function textInsideRegions(layerId: string, ids: readonly string[]): Map<string, string> | null {
  const svg = svgOf(layerId);
  if (!svg) return null;
  const find = regionFinder(svg);
  const all = ids.flatMap((id) => {
    const element = find(id);
    const box = element?.getBoundingClientRect();
    return element && box && box.width > 0 && box.height > 0 ? [{ id, element, box, area: box.width * box.height }] : [];
  });
  // A group of other regions (a layer, a wing) is named by none of their texts.
  const boxes = all.filter((candidate) => !all.some((other) => other !== candidate && candidate.element.contains(other.element)));
  const found = new Map<string, string[]>();
  for (const text of svg.querySelectorAll('text')) {
    if (text.hasAttribute('data-mf-name') || text.closest('defs, clipPath, mask, pattern, symbol, marker')) continue;
    const words = (text.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!words) continue;
    const box = text.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    let best: (typeof boxes)[number] | null = null;
    for (const candidate of boxes) {
      const inside = candidate.element.contains(text) || (x >= candidate.box.left && x <= candidate.box.right && y >= candidate.box.top && y <= candidate.box.bottom);
      if (inside && (!best || candidate.area < best.area)) best = candidate;
    }
    if (!best) continue;
    const list = found.get(best.id) ?? [];
    if (!list.includes(words)) list.push(words);
    found.set(best.id, list);
  }
  // A shape with many texts in it is a background (the floor's outline, a corridor), not a named place.
  return new Map([...found].filter(([, texts]) => texts.length <= MAX_TEXTS).map(([id, texts]) => [id, texts.join(' ').slice(0, 200).trim()]));
}
