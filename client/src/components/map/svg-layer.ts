/**
 * An SVG layer, inlined so its regions (elements with the id a location names) can be styled
 * and clicked. The file is fetched from its URL, sanitised again with DOMPurify (the upload
 * was sanitised already; the viewer does not rely on it), and put in a shadow root: the
 * drawing's own styles and ids cannot touch the page, nor the page's styles the drawing.
 *
 * No `<style>` element is ever parsed into a live document: the pages' Content-Security-Policy
 * allows no inline stylesheet (server/security/security-headers.ts), and Chromium checks (and
 * refuses) one even in a DOMParser document. The drawing's `<style>` elements are taken out of
 * the file in an inert `<template>`, and their CSS and the regions' own are constructed
 * stylesheets the shadow root adopts.
 */
import { REGION_TINT, tint } from '../../../../events/colour-tint';
import { elementIdFor } from '../../../../events/svg-element-id';
import { isMeaningfulRegion } from '../../../../events/region-ids';
import { regionFinder } from './find-region';
import { loadPurifier } from '../../lib/purifier';

export { tint };
export { drawRegionNames, writeRegionNames } from './region-names';

/** A drawing ready to mount: its sanitised markup, without `<style>` elements, and their CSS. */
export interface SvgDrawing {
  markup: string;
  styles: string[];
}

/**
 * The file's text without its `<style>` elements, and their CSS. Parsed in a `<template>`, the
 * way `innerHTML` parses it in the shadow root: its content is inert, so nothing in it loads,
 * runs or applies (and no style in it meets the page's CSP).
 */
function takeStyles(text: string): SvgDrawing {
  const template = document.createElement('template');
  template.innerHTML = text;
  const styles = Array.from(template.content.querySelectorAll('style'), (style) => {
    style.remove();
    return style.textContent ?? '';
  });
  return { markup: template.innerHTML, styles };
}

const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** The fragment's markup, with every `<use>` that points outside the drawing taken out. */
function withLocalUsesOnly(fragment: DocumentFragment): string {
  for (const use of fragment.querySelectorAll('use')) {
    const href = (use.getAttribute('href') ?? use.getAttributeNS(XLINK_NS, 'href') ?? '').trim();
    if (!/^#[^\s"'<>]+$/.test(href)) use.remove();
  }
  const box = document.createElement('div');
  box.append(fragment);
  return box.innerHTML;
}

const svgCache = new Map<string, Promise<SvgDrawing>>();

/** The sanitised drawing of an SVG file (fetched once per page). */
export function fetchSvg(url: string): Promise<SvgDrawing> {
  let drawing = svgCache.get(url);
  if (!drawing) {
    drawing = Promise.all([
      fetch(url).then((response) => {
        if (!response.ok) throw new Error(`The floor plan could not be loaded (${response.status}).`);
        return response.text();
      }),
      loadPurifier(),
    ]).then(([text, purify]) => {
      const { markup, styles } = takeStyles(text);
      // No clobbering guard needed (SANITIZE_DOM): the drawing's ids live in a shadow root, and
      // ids like "title" or "location" must survive, locations name their regions by id. The
      // CSS needs no DOMPurify: a constructed stylesheet holds CSS only, never markup.
      // <use> is not in DOMPurify's SVG profile: without it, every shape drawn from a <symbol>
      // and every pattern tiled with one (a floor's hatching) vanished. It is kept when it points
      // inside the drawing, as the server's sanitiser keeps it.
      const fragment = purify.sanitize(markup, {
        USE_PROFILES: { svg: true, svgFilters: true },
        ADD_TAGS: ['use'],
        FORBID_TAGS: ['foreignObject', 'script', 'style'],
        SANITIZE_DOM: false,
        RETURN_DOM_FRAGMENT: true,
      });
      return { markup: withLocalUsesOnly(fragment), styles };
    });
    drawing.catch(() => svgCache.delete(url));
    svgCache.set(url, drawing);
  }
  return drawing;
}

export interface RegionColors {
  base: string;
  hover: string;
  active: string;
  accent: string;
}

/** The shadow root's own stylesheet: region fills, hover, the selected and focused region. */
function regionStyles({ base, hover, active, accent }: RegionColors): string {
  const region = '[data-mf-loc]';
  // A region drawn as a group (a shop's outline in several shapes, an isometric lot's faces) is
  // painted whole: every shape in it, outlined too, since a shape's own stroke hides the group's.
  // Its label (a <text> in the group) keeps the drawing's colours, or it would vanish into the fill.
  const whole = (selector: string) => `${selector}, ${selector} :not(text, text *)`;
  return `
:host { display: block; }
svg { display: block; width: 100%; height: 100%; overflow: visible; }
${region} { cursor: pointer; transition: fill .15s ease, opacity .15s ease; }
${whole(region)} { fill: var(--mf-fill, ${base}) !important; }
${whole(`${region}:hover`)}, ${whole(`${region}[data-mf-hover]`)} { fill: var(--mf-hover, ${hover}) !important; }
${whole(`${region}[data-mf-active]`)} { fill: var(--mf-active, ${active}) !important; }
${whole(`${region}[data-mf-active]`)}, ${whole(`${region}[data-mf-focus]`)} { stroke: ${accent} !important; stroke-width: 3px !important; }
${region}[data-mf-dim] { opacity: .35; }
${region}[data-mf-off] { pointer-events: none; }
${whole('[data-mf-spot]')} { fill: ${hover} !important; stroke: ${accent} !important; stroke-width: 3px !important; }
:host([data-placing]) [data-mf-pick] { cursor: copy; }
:host([data-placing]) [data-mf-pick]:hover, :host([data-placing]) [data-mf-pick]:hover * { fill: ${hover} !important; stroke: ${accent} !important; stroke-width: 2px !important; stroke-dasharray: 6 4; }
`;
}

/**
 * Puts the drawing in the host's shadow root, sized to the layer, and marks each location's
 * region; answers the regions by location id.
 */
export function mountSvg(
  host: HTMLElement,
  drawing: SvgDrawing,
  size: { width: number; height: number },
  regions: ReadonlyArray<{ id: string; element: string; color: string | null }>,
  colors: RegionColors,
  /** The editor: every other element with an id is marked `data-mf-pick`, to be linked to a new location. */
  pickable = false,
): Map<string, Element> {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.innerHTML = drawing.markup;
  adoptStyles(root, [...drawing.styles, regionStyles(colors)]);
  const svg = root.querySelector('svg');
  const found = new Map<string, Element>();
  if (!svg) return found;
  svg.setAttribute('width', String(size.width));
  svg.setAttribute('height', String(size.height));
  if (!svg.hasAttribute('preserveAspectRatio')) svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  drawUsesInPlace(svg);
  const findRegion = regionFinder(svg);
  for (const { id, element, color } of regions) {
    const region = findRegion(element);
    if (!region) continue;
    region.setAttribute('data-mf-loc', id);
    if (color && region instanceof SVGElement) {
      region.style.setProperty('--mf-fill', tint(color, REGION_TINT.fill));
      region.style.setProperty('--mf-hover', tint(color, REGION_TINT.hover));
      region.style.setProperty('--mf-active', tint(color, REGION_TINT.active));
    }
    found.set(id, region);
  }
  if (pickable) {
    // In the drawing's own units (getBBox answers in them): its viewBox, else the layer's size.
    const viewBox = svg instanceof SVGSVGElement ? svg.viewBox?.baseVal : null;
    const drawing = viewBox && viewBox.width > 0 && viewBox.height > 0 ? viewBox.width * viewBox.height : size.width * size.height;
    for (const element of svg.querySelectorAll(PICKABLE)) {
      if (element.hasAttribute('data-mf-loc') || element.closest(NOT_DRAWN)) continue;
      // Only ids a person gave, never a layer: a click elsewhere in the drawing places a pin.
      if (!isMeaningfulRegion({ id: element.id, tag: element.localName, layer: isLayer(element, svg) })) continue;
      if (coversMostOf(element, drawing)) continue;
      // Offered as the reference a location may record (an id like "11" escaped, elementIdFor).
      element.setAttribute('data-mf-pick', elementIdFor(element.id));
    }
  }
  return found;
}

/**
 * Gives the shadow root these stylesheets, in this order. Where constructed stylesheets are
 * missing (jsdom), `<style>` elements instead, which only a page without a CSP accepts.
 */
function adoptStyles(root: ShadowRoot, texts: string[]): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    root.adoptedStyleSheets = texts.map((text) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      return sheet;
    });
    return;
  }
  root.prepend(
    ...texts.map((text) => {
      const style = document.createElement('style');
      style.textContent = text;
      return style;
    }),
  );
}

/**
 * A shape that covers most of the drawing is its background (the sea of a world map, a
 * building's outline), not a place: clicking there places a marker instead of offering it.
 */
function coversMostOf(element: Element, drawing: number): boolean {
  if (!(element instanceof SVGGraphicsElement) || typeof element.getBBox !== 'function' || drawing <= 0) return false;
  try {
    const box = element.getBBox();
    return box.width * box.height > drawing * 0.5;
  } catch {
    return false;
  }
}

/**
 * A layer of the drawing: Inkscape's (`inkscape:groupmode="layer"`, when the sanitiser kept the
 * attribute) or any group right under the `<svg>` (the outer group every program wraps a drawing in).
 */
function isLayer(element: Element, svg: Element): boolean {
  if (element.localName !== 'g' || element.hasAttribute('data-mf-use')) return false;
  return element.parentElement === svg || element.getAttribute('inkscape:groupmode') === 'layer';
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Each `<use>` with an id (a region the file draws by reusing a shape: a kiosk, a parking bay)
 * becomes a group holding a copy of what it shows, under the same id and attributes: CSS cannot
 * reach into a `<use>`'s copy, so a shape there with its own fill would never light on hover or
 * selection. The group is marked `data-mf-use`, never taken for a layer. A `<symbol>` with a
 * viewBox (scaled to the use's size) or a nested `<svg>` is left a `<use>`.
 */
function drawUsesInPlace(svg: Element): void {
  for (const use of svg.querySelectorAll('use[id]')) {
    if (use.closest(NOT_DRAWN)) continue;
    const href = (use.getAttribute('href') ?? use.getAttributeNS(XLINK_NS, 'href') ?? '').trim();
    const target = href.startsWith('#') ? svg.querySelector(`[id="${CSS.escape(href.slice(1))}"]`) : null;
    if (!target || target.contains(use) || target.localName === 'svg' || (target.localName === 'symbol' && target.hasAttribute('viewBox'))) continue;
    const group = use.ownerDocument.createElementNS(SVG_NS, 'g');
    for (const attribute of use.attributes) {
      if (!['href', 'xlink:href', 'x', 'y', 'width', 'height', 'transform'].includes(attribute.name)) group.setAttribute(attribute.name, attribute.value);
    }
    // A use's x and y move what it shows after its own transform.
    const x = Number.parseFloat(use.getAttribute('x') ?? '') || 0;
    const y = Number.parseFloat(use.getAttribute('y') ?? '') || 0;
    const transform = [use.getAttribute('transform') ?? '', x || y ? `translate(${x} ${y})` : ''].join(' ').trim();
    if (transform) group.setAttribute('transform', transform);
    group.setAttribute('data-mf-use', '');
    for (const part of target.localName === 'symbol' ? [...target.childNodes] : [target]) {
      const copy = part.cloneNode(true);
      // The copy's ids would repeat the originals' (a region found twice).
      if (copy instanceof Element) for (const element of [copy, ...copy.querySelectorAll('[id]')]) element.removeAttribute('id');
      group.append(copy);
    }
    use.replaceWith(group);
  }
}

/** Shapes (and groups of them) that can stand for a location. */
const PICKABLE = 'path[id], polygon[id], polyline[id], rect[id], circle[id], ellipse[id], g[id], use[id]';
/** Parts of a drawing that are not drawn where they stand (definitions, clips, masks). */
const NOT_DRAWN = 'defs, clipPath, mask, pattern, symbol, marker';

/**
 * Fetches a floor's drawing and mounts it in the host (the renderer's, use-floor-drawing.ts);
 * answers its regions by location id.
 */
export function mountFloor(
  host: HTMLElement,
  file: { url: string; width: number; height: number },
  regions: ReadonlyArray<{ id: string; element: string; color: string | null }>,
  colors: RegionColors,
  pickable: boolean,
): Promise<Map<string, Element>> {
  return fetchSvg(file.url).then((drawing) => mountSvg(host, drawing, file, regions, colors, pickable));
}
