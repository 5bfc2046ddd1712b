/**
 * Every SVG is sanitised on the server before it is stored: what is kept can draw shapes and
 * nothing else. DOMPurify (its SVG profile, run on a jsdom document) does the walking; the
 * hooks here add the rules of a map file:
 *
 * - no `<script>`, `<foreignObject>`, `<iframe>`/`<embed>`/`<object>`, no `<animate>`/`<set>`
 *   (they can set any attribute, links included), and no animation that targets `href`,
 *   `style` or an event handler;
 * - no event handler attributes (`on*`);
 * - `href`/`xlink:href` only to the same document (`#id`), except a raster image embedded in
 *   an `<image>` (`data:image/png|jpeg|gif|webp;base64,...`), which cannot run anything;
 * - `<a>` links are unwrapped: their content stays, the link goes;
 * - CSS (`<style>`, `style=""`, presentation attributes) only with `url(#id)`: `@import` and
 *   outside `url()`s are removed (css-guard.ts);
 * - no DOCTYPE entities: a file that declares any is refused before parsing (the XML parser
 *   would expand them: billion laughs), and the DOCTYPE and processing instructions are not
 *   kept;
 * - element ids, classes and presentation attributes are kept: a map finds its regions by id;
 *   an Inkscape label (`inkscape:label`) or a `title` attribute becomes a `data-name`, so a
 *   region keeps its name;
 * - a root with no viewBox and no absolute width and height (`width="100%"`) gets the box of
 *   its drawn content (svg-bounds.ts) rather than being refused.
 *
 * Nothing is removed silently: every removal is counted by kind ({@link RemovedPart}), and the
 * upload's answer and an import's preview say what went and what to do about it.
 *
 * The result is serialised as XML. It is served with a Content-Security-Policy that forbids
 * scripts as well (see file-routes.ts): two locks on one door.
 */
import type { Config, DOMPurify } from 'dompurify';
import type { DOMWindow } from 'jsdom';
import type { RemovedPart } from '../../events/files-api.js';
import { domWindow } from '../content/dom-window.js';
import { loadDomPurify } from '../content/lazy-libraries.js';
import { cleanCss, isCssSafe, mayHoldCss } from './css-guard.js';
import { contentBounds } from './svg-bounds.js';

export const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const PARSER_ERROR_NS = 'http://www.mozilla.org/newlayout/xml/parsererror.xml';

/** An SVG that cannot be accepted, with a message for the person who sent it. */
export class SvgRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvgRejectedError';
  }
}

export interface SanitizedSvg {
  /** The sanitised document, serialised as XML (UTF-8 when encoded). */
  svg: string;
  /** The drawing's size in its own units (its viewBox), which the map's coordinates use. */
  width: number;
  height: number;
  /** What was taken out, by kind, with a sentence for the uploader each; empty when nothing was. */
  removed: RemovedPart[];
}

/** The kinds of things the sanitiser removes, and what it tells the uploader about each. */
const REMOVAL_WORDS = {
  'embedded images': (n: number) => `${n === 1 ? '1 embedded image was' : `${n} embedded images were`} removed for safety; upload ${n === 1 ? 'it as a separate image' : 'them as separate images'}.`,
  'linked images': (n: number) => `${n === 1 ? '1 image kept in another file was' : `${n} images kept in other files were`} removed: a floor plan cannot load other files. Upload ${n === 1 ? 'it as a separate image' : 'them as separate images'}.`,
  scripts: (n: number) => `${n === 1 ? '1 script was' : `${n} scripts were`} removed: a drawing on a map cannot run code.`,
  'event handlers': (n: number) => `${n === 1 ? '1 event handler (onclick and the like) was' : `${n} event handlers (onclick and the like) were`} removed: a drawing on a map cannot run code.`,
  'embedded web content': (n: number) => `${n === 1 ? '1 piece' : `${n} pieces`} of embedded web content (HTML, frames or objects) ${n === 1 ? 'was' : 'were'} removed for safety.`,
  animations: (n: number) => `${n === 1 ? '1 animation was' : `${n} animations were`} removed for safety.`,
  links: (n: number) => `${n === 1 ? '1 link was' : `${n} links were`} removed; what ${n === 1 ? 'it' : 'they'} held is kept. Locations can link to pages instead.`,
  'references to other files': (n: number) => `${n === 1 ? '1 reference' : `${n} references`} to other files ${n === 1 ? 'was' : 'were'} removed: a drawing can only reuse what is inside it.`,
  'outside styles': (n: number) => `${n === 1 ? '1 style' : `${n} styles`} that loaded other files (fonts, pictures or stylesheets) ${n === 1 ? 'was' : 'were'} removed.`,
  'editor data': (n: number) => `${n === 1 ? '1 piece' : `${n.toLocaleString('en')} pieces`} of editor data that ${n === 1 ? 'does' : 'do'} not change the drawing (Inkscape, Illustrator or Sketch settings, unknown elements) ${n === 1 ? 'was' : 'were'} removed.`,
} satisfies Record<string, (count: number) => string>;
type RemovalKind = keyof typeof REMOVAL_WORDS;

/** The counts of one sanitising run (the hooks are shared; one file is sanitised at a time). */
let tally = new Map<RemovalKind, number>();
const count = (kind: RemovalKind, n = 1) => tally.set(kind, (tally.get(kind) ?? 0) + n);

/** The removals as the upload's answer lists them, most serious first. */
function report(counts: ReadonlyMap<RemovalKind, number>): RemovedPart[] {
  return (Object.keys(REMOVAL_WORDS) as RemovalKind[])
    .filter((kind) => (counts.get(kind) ?? 0) > 0)
    .map((kind) => ({ what: kind, count: counts.get(kind)!, message: REMOVAL_WORDS[kind](counts.get(kind)!) }));
}

/**
 * Most elements an SVG may have: enough for a detailed site plan, and a bound on the time and
 * memory checking it takes (jsdom keeps every element as objects; 50,000 take about 10 s).
 */
export const MAX_SVG_ELEMENTS = 50_000;

/** How far a sanitised file is allowed to reach: the same document only. */
const LOCAL_REF = /^#[^\s"'<>]*$/;
const RASTER_DATA_URL = /^data:image\/(?:png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;

/** Removed with everything inside them, whatever their prefix or namespace (`svg:script`, `h:iframe`). */
const REMOVED_WITH_CONTENT = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'handler', 'listener', 'noscript', 'template']);

const ANIMATION_ELEMENTS = new Set(['animate', 'set', 'animatetransform', 'animatemotion', 'animatecolor', 'discard']);
const SCRIPT_ELEMENTS = new Set(['script', 'handler', 'listener', 'noscript']);
const INKSCAPE_NS = 'http://www.inkscape.org/namespaces/inkscape';

/** Attributes whose value is CSS: rewritten when they refer outside, not just dropped. */
const CSS_ATTRIBUTES = new Set([
  'style',
  'fill',
  'stroke',
  'filter',
  'clip-path',
  'mask',
  'marker',
  'marker-start',
  'marker-mid',
  'marker-end',
]);

const CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true },
  // <use> is left out of DOMPurify's profile; here its href may only name this document.
  ADD_TAGS: ['use'],
  // from/to of animateTransform and animateColor (animations of links are removed above).
  ADD_ATTR: ['role', 'xml:space', 'from', 'to'],
  // `a` is unwrapped (its content kept); the rest go with their content.
  FORBID_TAGS: ['a', 'script', 'foreignobject', 'iframe', 'embed', 'object', 'animate', 'set', 'discard', 'handler', 'listener'],
  FORBID_ATTR: ['xml:base', 'xlink:base'],
  // Ids are how a map finds its regions: keep every one (DOM clobbering concerns HTML pages
  // that run scripts; a viewer looks ids up inside the SVG's own root).
  SANITIZE_DOM: false,
  KEEP_CONTENT: true,
  IN_PLACE: true,
};

/** Each `<image>`'s reference as it came (the hooks see it go before they see the element go). */
let pictureHref = new WeakMap<Element, string>();

interface Sanitiser {
  window: DOMWindow;
  purify: DOMPurify;
}

let shared: Sanitiser | null = null;

function sanitiser(): Sanitiser {
  if (shared) return shared;
  const window = domWindow();
  const createDOMPurify = loadDomPurify();
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

  purify.addHook('uponSanitizeElement', (node, data) => {
    const element = node as Element;
    if (element.nodeType !== 1) return;
    const tag = data.tagName;
    const name = element.localName.toLowerCase();
    if (REMOVED_WITH_CONTENT.has(name)) {
      count(SCRIPT_ELEMENTS.has(name) ? 'scripts' : 'embedded web content');
      element.remove();
      return;
    }
    if (ANIMATION_ELEMENTS.has(tag)) {
      const target = (element.getAttribute('attributeName') ?? element.getAttribute('attributename') ?? '').trim().toLowerCase();
      if (target.includes('href') || target.startsWith('on') || target === 'style' || target.includes(':')) {
        count('animations');
        element.remove();
      }
      return;
    }
    if (tag === 'style') {
      if (!isCssSafe(element.textContent ?? '')) count('outside styles');
      const cleaned = cleanCss(element.textContent ?? '');
      // textContent replaces CDATA sections and any child with one text node.
      element.textContent = cleaned ?? '';
    }
  });

  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const element = node as Element;
    const name = data.attrName;
    const value = data.attrValue;
    if (name.startsWith('on')) {
      count('event handlers');
      data.keepAttr = false;
      return;
    }
    if (name === 'href' || name.endsWith(':href')) {
      // A URL parser drops tabs and newlines anywhere in it and control characters around it
      // (`java\tscript:`), so the scheme is read without them.
      // eslint-disable-next-line no-control-regex -- those control characters are the point
      const compact = value.replace(/[\s\u0000-\u001f]+/g, '');
      const local = LOCAL_REF.test(value.trim());
      const embeddedRaster = element.localName === 'image' && RASTER_DATA_URL.test(compact);
      if (!local && !embeddedRaster) {
        data.keepAttr = false;
        // An <image> without its picture is removed below, and counted there.
        if (element.localName !== 'image') count('references to other files');
      }
      return;
    }
    if (!mayHoldCss(value)) return;
    if (!isCssSafe(value)) count('outside styles');
    if (CSS_ATTRIBUTES.has(name)) {
      const cleaned = cleanCss(value);
      if (cleaned === null) data.keepAttr = false;
      else data.attrValue = cleaned;
      return;
    }
    if (!isCssSafe(value)) data.keepAttr = false;
  });

  // A <use> or <image> whose reference was removed draws nothing: leave no empty shell.
  purify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.nodeType !== 1 || !['use', 'image', 'feImage'].includes(element.localName)) return;
    if (!element.hasAttribute('href') && !element.hasAttributeNS(XLINK_NS, 'href')) {
      if (element.localName === 'image') count(pictureHref.get(element)?.startsWith('data:') ? 'embedded images' : 'linked images');
      element.remove();
    }
  });

  shared = { window, purify };
  return shared;
}

/**
 * Counts what DOMPurify removed by its own rules (the hooks count theirs): `<a>` unwrapped,
 * animations, and anything its SVG profile does not know, which is an editor's data.
 */
function countRemovedByProfile(removed: DOMPurify['removed']): void {
  for (const entry of removed) {
    if ('attribute' in entry) {
      const name = entry.attribute?.name.toLowerCase() ?? '';
      // Handlers, links and styles were counted by the hooks; namespace declarations are not content.
      if (name.startsWith('on') || name === 'href' || name.endsWith(':href') || name.startsWith('xmlns')) continue;
      if (name === 'xml:base' || name === 'xlink:base') count('references to other files');
      else count('editor data');
      continue;
    }
    const element = entry.element as Element | undefined;
    if (!element || element.nodeType !== 1) continue;
    const name = element.localName.toLowerCase();
    if (name === 'a') count('links');
    else if (ANIMATION_ELEMENTS.has(name)) count('animations');
    else if (REMOVED_WITH_CONTENT.has(name)) continue; // counted by the hook
    else count('editor data');
  }
}

/** Recreates elements that have no namespace (an SVG without `xmlns`) in the SVG namespace. */
function adoptIntoSvgNamespace(document: Document, element: Element): Element {
  if (element.namespaceURI !== null) return element;
  const copy = document.createElementNS(SVG_NS, element.localName);
  for (const attribute of Array.from(element.attributes)) {
    if (attribute.namespaceURI) copy.setAttributeNS(attribute.namespaceURI, attribute.name, attribute.value);
    else if (attribute.name === 'xlink:href') copy.setAttributeNS(XLINK_NS, 'xlink:href', attribute.value);
    else if (!attribute.name.startsWith('xmlns')) copy.setAttribute(attribute.name, attribute.value);
  }
  for (const child of Array.from(element.childNodes)) {
    copy.appendChild(child.nodeType === 1 ? adoptIntoSvgNamespace(document, child as Element) : child);
  }
  return copy;
}

/** Lengths in the units an SVG's width and height may use, in CSS pixels. */
const UNIT_PX: Record<string, number> = { '': 1, px: 1, pt: 4 / 3, pc: 16, mm: 96 / 25.4, cm: 96 / 2.54, in: 96 };

function lengthInPx(value: string | null): number | null {
  if (!value) return null;
  const match = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)\s*(px|pt|pc|mm|cm|in)?\s*$/i.exec(value);
  if (!match) return null;
  const px = Number(match[1]) * UNIT_PX[(match[2] ?? '').toLowerCase()]!;
  return Number.isFinite(px) && px > 0 ? px : null;
}

function viewBoxOf(value: string | null): [number, number, number, number] | null {
  if (!value) return null;
  const parts = value.trim().split(/[\s,]+/).map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
  const [x, y, w, h] = parts as [number, number, number, number];
  return w > 0 && h > 0 ? [x, y, w, h] : null;
}

/**
 * A length as the file keeps it: to a thousandth of a unit, or, below a unit, to six
 * significant digits (a drawing in a viewBox of 0.0001 would otherwise round to 0 × 0, a size
 * no floor can have).
 */
const round = (n: number) => (Math.abs(n) >= 1 ? Math.round(n * 1000) / 1000 : Number(n.toPrecision(6)));

/**
 * The drawing's size: its viewBox (the units its shapes use), else its width and height.
 * Gives the root a viewBox and a matching width and height, so the file scales and its
 * intrinsic size is the size the map records.
 */
function settleSize(root: Element): { width: number; height: number } {
  const viewBox = viewBoxOf(root.getAttribute('viewBox'));
  let width: number;
  let height: number;
  if (viewBox) {
    width = viewBox[2];
    height = viewBox[3];
  } else {
    const w = lengthInPx(root.getAttribute('width'));
    const h = lengthInPx(root.getAttribute('height'));
    if (w !== null && h !== null) {
      width = w;
      height = h;
      root.setAttribute('viewBox', `0 0 ${round(w)} ${round(h)}`);
    } else {
      // `width="100%"` and no viewBox: the drawing is as large as what it draws.
      const box = contentBounds(root);
      if (!box) throw new SvgRejectedError('The SVG has no size and nothing in it could be measured: give its root element a viewBox, or a width and height.');
      width = box.maxX - box.minX;
      height = box.maxY - box.minY;
      root.setAttribute('viewBox', `${round(box.minX)} ${round(box.minY)} ${round(width)} ${round(height)}`);
    }
  }
  if (width > 100_000 || height > 100_000) throw new SvgRejectedError('The SVG is too large: its width and height must be at most 100000.');
  root.setAttribute('width', String(round(width)));
  root.setAttribute('height', String(round(height)));
  return { width: round(width), height: round(height) };
}

/**
 * Parses SVG source (text of an SVG document) and returns it sanitised with its size.
 * Throws {@link SvgRejectedError} when it is not an SVG that can be accepted.
 */
export function sanitizeSvg(source: string): SanitizedSvg {
  // The XML parser expands entities a DOCTYPE declares (one level, but a big one used often
  // is enough to exhaust memory): refuse any before parsing.
  if (/<!ENTITY/i.test(source)) {
    throw new SvgRejectedError('SVG files that declare entities (<!ENTITY ...>) are not accepted. Save the file again without a DOCTYPE.');
  }
  // Counted on the text, before anything is built: every element starts with `<` and a letter.
  const elements = source.match(/<[A-Za-z_]/g)?.length ?? 0;
  if (elements > MAX_SVG_ELEMENTS) {
    throw new SvgRejectedError(
      `The SVG has too many elements (${elements.toLocaleString('en')}; at most ${MAX_SVG_ELEMENTS.toLocaleString('en')}). Simplify the drawing, or upload it as a PNG or JPEG image.`,
    );
  }
  const { window, purify } = sanitiser();
  const parsed = new window.DOMParser().parseFromString(source, 'image/svg+xml');
  let root: Element | null = parsed.documentElement;
  if (!root || root.namespaceURI === PARSER_ERROR_NS) {
    const detail = (root?.textContent ?? '').trim().split('\n')[0]?.slice(0, 200);
    throw new SvgRejectedError(`The SVG could not be read: it is not well-formed XML${detail ? ` (${detail})` : ''}.`);
  }
  if (root.localName !== 'svg' || (root.namespaceURI !== SVG_NS && root.namespaceURI !== null)) {
    throw new SvgRejectedError('The file is not an SVG image: its root element is not <svg>.');
  }
  // A fresh document holding only the root: the DOCTYPE, comments and processing
  // instructions around it are left behind.
  const document = parsed.implementation.createDocument(SVG_NS, null, null);
  root = adoptIntoSvgNamespace(document, document.importNode(root, true));
  document.appendChild(root);

  tally = new Map();
  pictureHref = new WeakMap();
  for (const image of root.getElementsByTagNameNS(SVG_NS, 'image')) {
    pictureHref.set(image, (image.getAttribute('href') ?? image.getAttributeNS(XLINK_NS, 'href') ?? '').trim().toLowerCase());
  }
  for (const labelled of root.querySelectorAll('[id]')) {
    // Inkscape's label, or a `title` attribute (amCharts' maps name their regions so): the region's name.
    const label = labelled.getAttributeNS(INKSCAPE_NS, 'label') ?? labelled.getAttribute('title');
    if (label && !labelled.hasAttribute('data-name')) labelled.setAttribute('data-name', label);
    // Kept as the data-name: not removed, so not reported as removed either.
    if (label) {
      labelled.removeAttributeNS(INKSCAPE_NS, 'label');
      labelled.removeAttribute('title');
    }
  }
  try {
    purify.sanitize(root, CONFIG);
  } catch (error) {
    throw new SvgRejectedError(`The SVG could not be made safe: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (document.documentElement !== root || root.localName !== 'svg') throw new SvgRejectedError('The SVG could not be made safe.');
  countRemovedByProfile(purify.removed);

  const size = settleSize(root);
  const svg = new window.XMLSerializer().serializeToString(root);
  return { svg: `<?xml version="1.0" encoding="UTF-8"?>\n${svg}`, ...size, removed: report(tally) };
}
