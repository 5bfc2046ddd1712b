/**
 * A printed page of the map: its title and floor, the picture (the view or the whole floor, as
 * an SVG image, so it prints sharp at any printer's resolution), the legend, the selected
 * location's details and the map's address written out. Built as a page of its own beside the
 * app, which print CSS (print-sheet.css) hides while this prints: no controls or buttons reach
 * the paper. It goes after printing (`afterprint`).
 */
import { RICH_TEXT_CONFIG } from '../../../../../events/rich-text';
import { loadPurifier } from '../../../lib/purifier';
import { pictureSvg } from './export-picture';
import { svgDataUrl } from './rasterize';
import type { PictureLanguage, SceneRequest } from './scene';
import './print-sheet.css';

export interface PrintRequest extends Omit<SceneRequest, 'measure' | 'decorations' | 'translator'> {
  /** The map's address (or the selected location's). */
  link: string;
  layerNames: ReadonlyMap<string, string> | null;
  /** The page's words (share.*), its language and direction: the viewer's. */
  translator: PictureLanguage;
  /** The map view on screen: a street basemap's is drawn again under the picture (export-picture.ts). */
  mapView?: unknown;
}

const SHEET_CLASS = 'mf-print-sheet';
const PRINTING_CLASS = 'mf-printing';
/**
 * Room for the picture on an A4 page with 12 mm margins (mm): on a portrait page above the
 * legend and the details; on a landscape page beside them, or above them when it is very wide.
 */
const PAPER = { portrait: { width: 186, height: 150 }, side: { width: 185, height: 145 }, wide: { width: 273, height: 100 } };
/** One pixel of the picture on paper (mm): 12 px labels print at about 8.5 pt. */
const MM_PER_PX = 0.25;

export interface PrintLayout {
  landscape: boolean;
  /** The legend and details beside the picture (a landscape page). */
  side: boolean;
  /** The picture's size on paper (mm), and its longer side in pixels. */
  width: number;
  height: number;
  maxSide: number;
}

/** The page's orientation and the picture's place and size on it, from the picture's proportions. */
export function printLayout(aspect: number): PrintLayout {
  const landscape = aspect > 1.15;
  const side = landscape && aspect < 2.2;
  const room = side ? PAPER.side : landscape ? PAPER.wide : PAPER.portrait;
  const width = Math.min(room.width, room.height * aspect);
  const height = width / aspect;
  return { landscape, side, width, height, maxSide: Math.round(Math.max(width, height) / MM_PER_PX) };
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The page, ready to print (its picture decoded). */
export async function printSheet(request: PrintRequest): Promise<HTMLElement> {
  const { document: doc, layer, title, translator } = request;
  const { t } = translator;
  // The picture made about as many pixels across as it will take quarter-millimetres on paper:
  // its markers and labels (a constant size in pixels) print at a readable size.
  const layerWidth = layer.file?.width ?? doc.settings.size.width;
  const layerHeight = layer.file?.height ?? doc.settings.size.height;
  const view = request.extent === 'view' && request.view && request.view.width > 0 && request.view.height > 0 ? request.view : null;
  const layout = printLayout(view ? view.width / view.height : layerWidth / layerHeight);
  const { svg, scene } = await pictureSvg({ ...request, decorations: false, maxSide: layout.maxSide });
  const sheet = element('div', layout.side ? `${SHEET_CLASS} ${SHEET_CLASS}--side` : SHEET_CLASS);
  // In the viewer's language whatever the page around it says (the app's /m/:id page is English).
  sheet.lang = translator.locale;
  sheet.dir = translator.dir;

  const head = element('header', `${SHEET_CLASS}__head`);
  head.append(element('h1', `${SHEET_CLASS}__title`, title));
  if (doc.layers.length > 1) head.append(element('p', `${SHEET_CLASS}__floor`, layer.name));
  sheet.append(head);

  const figure = element('figure', `${SHEET_CLASS}__map`);
  const image = element('img', '');
  image.alt = t('share.mapOf', { title });
  image.width = scene.width;
  image.height = scene.height;
  image.dataset.landscape = layout.landscape ? 'true' : 'false';
  image.style.width = `${Math.round(layout.width)}mm`;
  image.src = svgDataUrl(svg);
  figure.append(image);
  sheet.append(figure);

  const body = element('div', `${SHEET_CLASS}__body`);
  const groups = doc.groups.filter((group) => group.legend && doc.locations.some((location) => location.layer === layer.id && !location.hidden && location.groups.includes(group.id)));
  if (groups.length > 0) {
    const legend = element('section', `${SHEET_CLASS}__legend`);
    legend.append(element('h2', '', t('share.legend')));
    const list = element('ul', '');
    for (const group of groups) {
      const item = element('li', '');
      const swatch = element('span', `${SHEET_CLASS}__swatch`);
      swatch.style.background = group.color;
      item.append(swatch, document.createTextNode(group.name));
      list.append(item);
    }
    legend.append(list);
    body.append(legend);
  }

  const selected = request.selectedId ? doc.locations.find((location) => location.id === request.selectedId) : undefined;
  if (selected) {
    const details = element('section', `${SHEET_CLASS}__details`);
    details.append(element('h2', '', selected.title));
    const names = selected.groups.map((id) => doc.groups.find((group) => group.id === id)?.name).filter(Boolean);
    const floor = request.layerNames?.get(selected.layer);
    const meta = [...names, ...(floor ? [floor] : [])].join(' · ');
    if (meta) details.append(element('p', `${SHEET_CLASS}__meta`, meta));
    if (selected.about) details.append(element('p', '', selected.about));
    const facts = element('dl', '');
    const fact = (term: string, value: string) => {
      if (!value) return;
      facts.append(element('dt', '', term), element('dd', '', value));
    };
    fact(t('share.hours'), selected.hours);
    fact(t('share.phone'), selected.phone);
    fact(t('share.website'), selected.link ?? '');
    if (facts.childElementCount > 0) details.append(facts);
    if (selected.description) {
      const purify = await loadPurifier();
      const description = element('div', `${SHEET_CLASS}__description`);
      description.append(purify.sanitize(selected.description, { ...RICH_TEXT_CONFIG, RETURN_DOM_FRAGMENT: true }));
      details.append(description);
    }
    body.append(details);
  }
  if (body.childElementCount > 0) sheet.append(body);

  const foot = element('footer', `${SHEET_CLASS}__link`);
  foot.append(element('span', '', `${t('share.openOnline')} `), element('strong', '', request.link));
  sheet.append(foot);

  await image.decode().catch(() => undefined);
  return sheet;
}

let pageSheet: CSSStyleSheet | null = null;

/**
 * Prints the page: puts it beside the app, turns the paper to the picture's orientation (a
 * constructed stylesheet: the pages' CSP allows no inline style), prints, and clears it all
 * away once the print dialog closes.
 */
export async function printMap(request: PrintRequest): Promise<void> {
  const sheet = await printSheet(request);
  for (const old of document.querySelectorAll(`.${SHEET_CLASS}`)) old.remove();
  document.body.append(sheet);
  document.documentElement.classList.add(PRINTING_CLASS);
  const landscape = sheet.querySelector('img')?.dataset.landscape === 'true';
  if (typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    pageSheet ??= new CSSStyleSheet();
    // On a landscape page the picture leaves room below it for the legend and the details.
    pageSheet.replaceSync(`@page { size: ${landscape ? 'landscape' : 'portrait'}; margin: 12mm; }`);
    if (!document.adoptedStyleSheets.includes(pageSheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
  }
  const clear = () => {
    sheet.remove();
    document.documentElement.classList.remove(PRINTING_CLASS);
    if (pageSheet) document.adoptedStyleSheets = document.adoptedStyleSheets.filter((candidate) => candidate !== pageSheet);
  };
  window.addEventListener('afterprint', clear, { once: true });
  window.print();
}
