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
import type { SceneRequest } from './scene';
import './print-sheet.css';

export interface PrintText {
  mapOf: (title: string) => string;
  legend: string;
  hours: string;
  phone: string;
  website: string;
  link: string;
}

export interface PrintRequest extends Omit<SceneRequest, 'measure' | 'decorations'> {
  /** The map's address (or the selected location's). */
  link: string;
  layerNames: ReadonlyMap<string, string> | null;
  text: PrintText;
}

const SHEET_CLASS = 'mf-print-sheet';
const PRINTING_CLASS = 'mf-printing';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The page, ready to print (its picture decoded). */
export async function printSheet(request: PrintRequest): Promise<HTMLElement> {
  const { document: doc, layer, title, text } = request;
  const { svg, scene } = await pictureSvg({ ...request, decorations: false });
  const sheet = element('div', SHEET_CLASS);

  const head = element('header', `${SHEET_CLASS}__head`);
  head.append(element('h1', `${SHEET_CLASS}__title`, title));
  if (doc.layers.length > 1) head.append(element('p', `${SHEET_CLASS}__floor`, layer.name));
  sheet.append(head);

  const figure = element('figure', `${SHEET_CLASS}__map`);
  const image = element('img', '');
  image.alt = text.mapOf(title);
  image.width = scene.width;
  image.height = scene.height;
  image.src = svgDataUrl(svg);
  figure.append(image);
  sheet.append(figure);

  const body = element('div', `${SHEET_CLASS}__body`);
  const groups = doc.groups.filter((group) => group.legend && doc.locations.some((location) => location.layer === layer.id && !location.hidden && location.groups.includes(group.id)));
  if (groups.length > 0) {
    const legend = element('section', `${SHEET_CLASS}__legend`);
    legend.append(element('h2', '', text.legend));
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
    fact(text.hours, selected.hours);
    fact(text.phone, selected.phone);
    fact(text.website, selected.link ?? '');
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
  foot.append(element('span', '', `${text.link}: `), element('strong', '', request.link));
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
  const landscape = sheet.querySelector('img')!.width > sheet.querySelector('img')!.height * 1.15;
  if (typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    pageSheet ??= new CSSStyleSheet();
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
