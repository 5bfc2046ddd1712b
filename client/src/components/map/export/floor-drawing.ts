/**
 * The floor as it goes into a picture (scene-svg.ts): an SVG drawing as the viewer shows it
 * (sanitised by svg-layer.ts, its regions coloured by inline styles that win over the drawing's
 * own CSS, as the viewer's shadow-root styles do), serialised as XML; or a raster floor as a
 * `data:` URL. Whatever would load from elsewhere is taken out: scripts, `foreignObject`,
 * links, `<use>` and `<image>` pointing outside, `url()` references in attributes and CSS.
 */
import type { SceneRegion } from './scene';
import type { PictureFloor } from './scene-svg';
import { scopeCss } from './scope-css';
import { regionFinder } from '../find-region';
import { drawRegionNames } from '../region-names';

const XLINK_NS = 'http://www.w3.org/1999/xlink';
/** Elements that never belong in a picture (the sanitiser leaves none; checked again all the same). */
const DROPPED = new Set(['script', 'foreignobject', 'style', 'iframe', 'object', 'embed', 'audio', 'video', 'animate', 'set', 'animatemotion', 'animatetransform', 'discard']);
const RASTER_DATA = /^data:image\/(?:png|jpe?g|gif|webp);base64,/i;
const FOREIGN_URL = /url\(\s*(?!['"]?\s*(?:#|data:))[^)]*\)/gi;

export interface FloorStyle {
  regions: readonly SceneRegion[];
  accent: string;
  width: number;
  height: number;
}

/**
 * The drawing's `<svg>` element made standalone in place: references elsewhere removed, sized
 * to the layer, its regions coloured. Works on any DOM (the browser's, jsdom in tests).
 */
export function standaloneDrawing(svg: Element, { regions, accent, width, height }: FloorStyle): void {
  for (const element of [svg, ...Array.from(svg.querySelectorAll('*'))]) {
    if (element !== svg && DROPPED.has(element.localName.toLowerCase())) {
      element.remove();
      continue;
    }
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value.trim();
      if (name.startsWith('on') || name === 'xml:base') element.removeAttributeNode(attribute);
      else if (name === 'href' || name.endsWith(':href')) {
        const local = value.startsWith('#');
        const picture = element.localName === 'image' && RASTER_DATA.test(value);
        if (!local && !picture) element.removeAttributeNode(attribute);
      } else if (/url\(/i.test(value)) element.setAttribute(attribute.name, value.replace(FOREIGN_URL, 'none'));
    }
    // A <use> or <image> left without its reference draws nothing.
    if (['use', 'image', 'feimage'].includes(element.localName.toLowerCase()) && !element.hasAttribute('href') && !element.hasAttributeNS(XLINK_NS, 'href')) element.remove();
  }
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  if (!svg.hasAttribute('preserveAspectRatio')) svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  for (const name of ['aria-hidden', 'focusable', 'x', 'y', 'style', 'class']) svg.removeAttribute(name);
  svg.setAttribute('overflow', 'visible');
  const findRegion = regionFinder(svg);
  for (const region of regions) {
    const element = findRegion(region.element);
    if (!element) continue;
    for (const part of [element, ...Array.from(element.querySelectorAll('*'))]) if (!part.hasAttribute('data-mf-name')) setStyle(part, 'fill', region.fill);
    if (region.active) {
      setStyle(element, 'stroke', accent);
      setStyle(element, 'stroke-width', '3px');
    }
    if (region.dim) setStyle(element, 'opacity', '0.35');
  }
}

/**
 * An inline `!important` style: it wins over the drawing's own CSS, as the viewer's does. Written
 * into the attribute as text (not through `element.style`), the same in every DOM.
 */
function setStyle(element: Element, property: string, value: string): void {
  const kept = (element.getAttribute('style') ?? '')
    .split(';')
    .map((declaration) => declaration.trim())
    .filter((declaration) => declaration && declaration.split(':')[0]!.trim().toLowerCase() !== property);
  element.setAttribute('style', [...kept, `${property}: ${value} !important`].join('; '));
}

/**
 * A drawing's markup and CSS (svg-layer.ts `fetchSvg`) as the picture's floor, with the regions'
 * names written in (as the map shows them) when `names` are given; `named` collects the
 * elements whose name fitted.
 */
export function drawingFloor(drawing: { markup: string; styles: readonly string[] }, style: FloorStyle, names: ReadonlyArray<{ element: string; name: string }> = [], named?: Set<string>): PictureFloor {
  const template = document.createElement('template');
  template.innerHTML = drawing.markup;
  const svg = template.content.querySelector('svg');
  if (!svg) return { kind: 'none' };
  standaloneDrawing(svg, style);
  if (names.length > 0) writeNames(svg, names, named);
  const css = scopeCss(drawing.styles.join('\n'), '#mfx-floor');
  return { kind: 'svg', markup: new XMLSerializer().serializeToString(svg), css };
}

/** A file (this site's own, or a picture that allows it) as a `data:` URL; null when it cannot be read. */
export async function dataUrlOf(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) return null;
    const blob = await response.blob();
    if (!/^image\/(?:png|jpe?g|gif|webp|svg\+xml)$/i.test(blob.type)) return null;
    return await new Promise<string | null>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
      reader.onerror = () => resolve(null);
      reader.readAsDataURL(blob);
    });
  } catch {
    return null;
  }
}

/**
 * The names written into the drawing: shapes are measured only in a laid-out document, so the
 * drawing is put off screen (out of sight, not `display: none`, which measures nothing) while
 * they are written.
 */
function writeNames(svg: SVGSVGElement, names: ReadonlyArray<{ element: string; name: string }>, named?: Set<string>): void {
  const parent = svg.parentNode;
  const next = svg.nextSibling;
  const stage = document.createElement('div');
  stage.setAttribute('aria-hidden', 'true');
  stage.style.cssText = 'position:fixed;left:-100000px;top:0;visibility:hidden;pointer-events:none;contain:strict;width:1px;height:1px;overflow:hidden';
  document.body.append(stage);
  stage.append(svg);
  // At its own size, whatever the page's CSS says of an <svg> (`max-width: 100%` would shrink it
  // to the stage, and every name with it); taken off again before it is serialised.
  const sized = svg instanceof SVGElement;
  if (sized) {
    svg.style.setProperty('width', `${svg.getAttribute('width') ?? ''}px`, 'important');
    svg.style.setProperty('height', `${svg.getAttribute('height') ?? ''}px`, 'important');
    svg.style.setProperty('max-width', 'none', 'important');
    svg.style.setProperty('max-height', 'none', 'important');
    svg.style.setProperty('display', 'block', 'important');
  }
  try {
    const findRegion = regionFinder(svg);
    const found = names.flatMap(({ element, name }) => {
      const region = findRegion(element);
      return region ? [{ region, name, element }] : [];
    });
    const written = drawRegionNames(svg, found);
    for (const entry of found) if (written.has(entry.region)) named?.add(entry.element);
  } finally {
    if (sized) svg.removeAttribute('style');
    parent?.insertBefore(svg, next);
    stage.remove();
  }
}
