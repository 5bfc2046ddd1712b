/**
 * Region names on the floor's drawing: each region location's name written inside its shape
 * (region-name-fit.ts), as SVG text beside the shape, with the shape's own transform, so it
 * moves and scales with the drawing at every zoom. The viewer and the editor draw them in the
 * mounted drawing (svg-layer.ts); a picture export draws them in its copy of the drawing before
 * it is serialised (export/floor-drawing.ts).
 *
 * Names take no pointer (a click goes to the region under them) and are marked
 * `data-mf-name`, so drawing them again replaces them.
 */
import { fitName, LINE_HEIGHT, estimateWidth } from './region-name-fit';
import { regionNamesOf } from './region-name-list';
import { provideDrawing } from './drawing-bridge';
import type { MapDocument } from './types';

const SVG_NS = 'http://www.w3.org/2000/svg';
export const NAME_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export interface RegionName {
  region: Element;
  name: string;
}

let context: CanvasRenderingContext2D | null | undefined;
/** A text's width at a font size of 1, measured in the names' font (an estimate without a canvas). */
function measure(text: string): number {
  if (context === undefined) {
    context = typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent) ? document.createElement('canvas').getContext('2d') : null;
    if (context) context.font = `600 100px ${NAME_FONT}`;
  }
  return context ? context.measureText(text).width / 100 : estimateWidth(text);
}

/** Floor pixels per unit of the element's own space (its transforms and the drawing's viewBox). */
function scaleOf(element: SVGGraphicsElement): number {
  const matrix = element.getCTM();
  if (!matrix) return 0;
  return Math.sqrt(Math.abs(matrix.a * matrix.d - matrix.b * matrix.c));
}

/**
 * Writes the names into `svg` (mounted, so shapes can be measured), replacing any written
 * before; answers the regions whose name fitted. Colours: dark text on a light halo, or the
 * other way round on a dark map.
 */
export function drawRegionNames(svg: Element, names: readonly RegionName[], dark = false): Set<Element> {
  for (const old of svg.querySelectorAll('[data-mf-name]')) old.remove();
  const written = new Set<Element>();
  const drawn = textsOf(svg);
  for (const { region, name } of names) {
    if (!(region instanceof SVGGraphicsElement) || !region.parentNode) continue;
    // The drawing writes this name in the shape already (a room's number): shown, not doubled.
    if (writtenInside(region, name, drawn)) {
      written.add(region);
      continue;
    }
    let box: DOMRect;
    try {
      box = region.getBBox();
    } catch {
      continue;
    }
    const fit = fitName(name, box.width, box.height, scaleOf(region), measure);
    if (!fit) continue;
    const text = document.createElementNS(SVG_NS, 'text');
    text.setAttribute('data-mf-name', '');
    text.setAttribute('aria-hidden', 'true');
    const transform = region.getAttribute('transform');
    if (transform) text.setAttribute('transform', transform);
    const x = box.x + box.width / 2;
    const top = box.y + box.height / 2 - ((fit.lines.length - 1) * fit.size * LINE_HEIGHT) / 2;
    text.setAttribute('x', String(round(x)));
    text.setAttribute('y', String(round(top)));
    const style: Record<string, string> = {
      'font-family': NAME_FONT,
      'font-size': `${round(fit.size)}px`,
      'font-weight': '600',
      'font-style': 'normal',
      'text-anchor': 'middle',
      'dominant-baseline': 'central',
      fill: dark ? '#f1f5f9' : '#1e293b',
      stroke: dark ? 'rgba(15, 23, 42, 0.85)' : 'rgba(255, 255, 255, 0.9)',
      'stroke-width': `${round(fit.size * 0.22)}px`,
      'stroke-linejoin': 'round',
      'paint-order': 'stroke',
      'pointer-events': 'none',
      'user-select': 'none',
      opacity: '1',
      visibility: 'visible',
      display: 'inline',
    };
    // Inline and important: the drawing's own CSS (`text { … }`) must not restyle the names.
    if (text instanceof SVGElement) for (const [property, value] of Object.entries(style)) text.style.setProperty(property, value, 'important');
    fit.lines.forEach((line, index) => {
      const span = document.createElementNS(SVG_NS, 'tspan');
      span.setAttribute('x', String(round(x)));
      if (index > 0) span.setAttribute('dy', `${LINE_HEIGHT}em`);
      span.textContent = line;
      text.append(span);
    });
    region.after(text);
    written.add(region);
  }
  return written;
}

const round = (value: number) => Math.round(value * 100) / 100;

const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The drawing's own texts by their words, with where each is on screen (looked at once per drawing). */
function textsOf(svg: Element): Map<string, Element[]> {
  const texts = new Map<string, Element[]>();
  for (const text of svg.querySelectorAll('text')) {
    const words = normal(text.textContent ?? '');
    if (!words) continue;
    const list = texts.get(words) ?? [];
    list.push(text);
    texts.set(words, list);
  }
  return texts;
}

/** Whether one of the drawing's texts saying `name` has its middle inside the region. */
function writtenInside(region: Element, name: string, texts: ReadonlyMap<string, Element[]>): boolean {
  const same = texts.get(normal(name));
  if (!same) return false;
  const box = region.getBoundingClientRect();
  return same.some((text) => {
    if (region.contains(text)) return true;
    const own = text.getBoundingClientRect();
    const x = own.left + own.width / 2;
    const y = own.top + own.height / 2;
    return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
  });
}

/**
 * What {@link writeRegionNames} did last for one renderer: the names it drew in which drawing,
 * and, in the editor, how to withdraw the drawing it offered the panels (drawing-bridge.ts).
 */
export interface WrittenNames {
  svg: Element;
  key: string;
  withdraw: (() => void) | null;
}

/**
 * The map renderer's part (map-renderer.tsx), here in the drawing's chunk rather than in the
 * viewer's first load (80 KB budget): the floor's region names (region-name-list.ts) written
 * into its mounted drawing, unless `last` wrote the same names in the same drawing already;
 * and in the editor (`editable`), the drawing offered to the panels that point at its regions
 * (the regions dialog), once per drawing. Answers the ids of the locations whose name is on the
 * map, or null when nothing was drawn again.
 */
export function writeRegionNames(
  svg: Element,
  document: MapDocument,
  layerId: string,
  regions: ReadonlyMap<string, Element>,
  dark: boolean,
  editable: boolean,
  last: { current: WrittenNames | null },
): Set<string> | null {
  const names = regionNamesOf(document, layerId).map(({ id, name }) => [id, name] as const);
  const key = JSON.stringify([names, dark]);
  const before = last.current;
  if (before?.svg === svg && before.key === key) return null;
  let withdraw = before?.svg === svg ? before.withdraw : null;
  if (before?.svg !== svg) {
    before?.withdraw?.();
    const root = svg.getRootNode();
    withdraw = editable && root instanceof ShadowRoot ? provideDrawing({ layerId, root: () => (svg.isConnected ? root : null) }) : null;
  }
  last.current = { svg, key, withdraw };
  const entries = names.flatMap(([id, name]) => {
    const region = regions.get(id);
    return region ? [{ id, region, name }] : [];
  });
  const written = drawRegionNames(svg, entries, dark);
  return new Set(entries.filter((entry) => written.has(entry.region)).map((entry) => entry.id));
}
