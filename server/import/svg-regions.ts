/**
 * The regions of an SVG drawing: the elements a location can stand for (shapes and groups with
 * an id, outside definitions), each with a title people can read and whether its id looks made
 * by a drawing program rather than by a person (`path3677`, `rect837-0-8`, `XMLID_5_`), which
 * an import leaves unticked.
 *
 * Read with saxes (the streaming XML parser jsdom itself uses): no DOM is built, so a 5 MB map
 * of thousands of shapes is read in tens of milliseconds, and nothing in the file is loaded or
 * run. The file is read as it was uploaded or as it is stored (sanitised); either way only
 * names, ids and a few attributes are looked at.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { US_STATES } from './us-states.js';
import { truncateText } from '../../events/safe-text.js';
import { isGeneratedId } from '../../events/region-ids.js';
import { elementIdFor } from '../../events/svg-element-id.js';
import { DrawingGeometry, labelsInside } from './svg-text-labels.js';

export { isGeneratedId };

export interface SvgRegion {
  /**
   * What a location's `element` names: the element's id, or for an id that starts with a digit
   * or a minus sign (`01`, `2a`: codes) the reference elementIdFor makes of it (`id-01`), which
   * the viewer finds the element by (client/src/components/map/find-region.ts).
   */
  id: string;
  /** The id as the drawing writes it, where `id` is the reference made of it (`01`). */
  source?: string;
  title: string;
  /** Not a place by default: a generated id (`path3677`) with no title of its own, or a layer. */
  auto: boolean;
  /** The title is the text written inside the shape (svg-text-labels.ts), the drawing giving none of its own. */
  fromText?: boolean;
}

export interface SvgRegionsRead {
  regions: SvgRegion[];
  /** Ids of shapes that a location cannot name (spaces or other signs, longer than 200), in file order, then codes whose reference another element has as its id. */
  unusable: string[];
  /** The drawing's own `<title>`, if any. */
  documentTitle: string | null;
}

/** Elements that can be a region: what people click on a floor plan or a map. */
const REGION_TAGS = new Set(['path', 'polygon', 'polyline', 'rect', 'circle', 'ellipse', 'g', 'use', 'line']);
/** Parts of a drawing that are not drawn where they stand: nothing inside them is a region. */
const NOT_DRAWN = new Set([
  'defs', 'clippath', 'mask', 'pattern', 'symbol', 'marker', 'lineargradient', 'radialgradient',
  'filter', 'style', 'script', 'metadata', 'title', 'desc', 'foreignobject', 'font', 'sodipodi:namedview',
]);
/** What a location's `element` may be (events/map-document.ts). */
const ELEMENT_ID = /^[A-Za-z_][\w.:-]*$/;
/** An id of the same characters that starts with a digit or a minus sign: a location names it by elementIdFor's reference. */
const CODE_ID = /^[\d-][\w.:-]*$/;
/** A text that is a reading or state shown on a shape, not its name: `50%`, `21 °C`, a switch's `OFF` (Home Assistant's floor plans). */
const READING = /^(?:[-+]?[\d.,]+\s*(?:%|°\s*[CF]?)|on|off)$/i;
/** A group holding this many named regions is a layer of them (`<g id="shops">`), not one place. */
const CONTAINER_MIN = 5;

/** An element being read. */
interface Open {
  tag: string;
  /** Inside (or itself) a part that is not drawn where it stands. */
  hidden: boolean;
  /** Its entry in `found`, for regions; else -1. */
  index: number;
  /** Named regions inside it. */
  named: number;
  /** Whether its first `<title>` child was seen. */
  titled: boolean;
}

interface Found {
  id: string;
  /** The id as the drawing writes it, when `id` is the reference made of it. */
  raw: string | null;
  tag: string;
  title: string | null;
  label: string | null;
  layer: boolean;
  named: number;
  /** Regions it is inside of, by index in `found`. */
  ancestors: number[];
}

/** Whitespace collapsed, at most 200 characters (a location's title). */
function clean(text: string | undefined | null): string | null {
  if (text == null) return null;
  const value = text.replace(/\s+/g, ' ').trim();
  return value ? truncateText(value, 200) : null;
}

const localName = (name: string): string => {
  const lower = name.toLowerCase();
  return lower.startsWith('svg:') ? lower.slice(4) : lower;
};

/**
 * Simple internal entities a DOCTYPE declares (Illustrator's `<!ENTITY ns_svg "http://…">`),
 * so their references read; entities that refer to others are left undeclared (no expansion
 * bombs), and the parser's complaint about them is ignored with the rest (see below).
 */
function declaredEntities(doctype: string): Record<string, string> {
  const entities: Record<string, string> = {};
  for (const [, name, value] of doctype.matchAll(/<!ENTITY\s+([\w.:-]+)\s+(?:"([^"&%<]{0,1000})"|'([^'&%<]{0,1000})')/g)) {
    if (name && value !== undefined) entities[name] = value;
  }
  return entities;
}

/**
 * Reads the regions of an SVG text. Not well-formed XML is read as far as it goes (saxes reports
 * each fault and carries on); a file without an `<svg>` root answers no regions.
 */
export function readSvgRegions(text: string): SvgRegionsRead {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const found: Found[] = [];
  const unusable: string[] = [];
  const stack: Open[] = [];
  let documentTitle: string | null = null;
  /** The text of the `<title>` being read, when it names its parent. */
  let titleText: string[] | null = null;
  // Where shapes and texts are, only for a drawing that writes texts (the rest need no geometry).
  const geometry = /<(?:svg:)?text[\s>]/i.test(text) ? new DrawingGeometry(text) : null;
  // Faults are not fatal here: a region list is a convenience, the sanitiser judges the file.
  parser.on('error', () => undefined);
  parser.on('doctype', (doctype) => Object.assign(parser.ENTITIES, declaredEntities(doctype)));
  parser.on('opentag', (node: SaxesTagPlain) => {
    const tag = localName(node.name);
    const attributes = node.attributes;
    const parent = stack.at(-1);
    if (!parent) {
      stack.push({ tag, hidden: false, index: -1, named: 0, titled: false });
      if (tag !== 'svg') parser.close();
      return;
    }
    if (tag === 'title' && !parent.hidden && !parent.titled) {
      parent.titled = true;
      titleText = [];
    }
    const hidden = parent.hidden || NOT_DRAWN.has(tag);
    const id = typeof attributes.id === 'string' ? attributes.id.trim() : '';
    let index = -1;
    if (!hidden && id && REGION_TAGS.has(tag)) {
      const valid = ELEMENT_ID.test(id) && id.length <= 200;
      if (valid || (CODE_ID.test(id) && id.length <= 200)) {
        index = found.length;
        found.push({
          id: valid ? id : elementIdFor(id),
          raw: valid ? null : id,
          tag,
          title: null,
          // `name`: svg-maps' departments and countries (`<path id="01" name="Ain">`).
          label: clean(attributes['data-name'] ?? attributes['inkscape:label'] ?? attributes['aria-label'] ?? attributes.title ?? attributes.name),
          // Inkscape's layers, and any group right under the <svg> (the outer group a program wraps
          // a drawing in; a sanitised file may have lost Inkscape's attribute): never one place.
          layer: attributes['inkscape:groupmode'] === 'layer' || (tag === 'g' && stack.length === 1),
          named: 0,
          ancestors: stack.flatMap((open) => (open.index >= 0 ? [open.index] : [])),
        });
      } else {
        unusable.push(truncateText(id, 200));
      }
    }
    geometry?.open(tag, attributes, hidden, index, stack.flatMap((open) => (open.index >= 0 ? [open.index] : [])));
    stack.push({ tag, hidden, index, named: 0, titled: false });
  });
  const onText = (value: string) => {
    titleText?.push(value);
    geometry?.text(value);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const closed = stack.pop();
    const parent = stack.at(-1);
    if (!closed || !parent) return;
    geometry?.close();
    if (closed.tag === 'title' && titleText !== null) {
      const title = clean(titleText.join(''));
      titleText = null;
      if (title && parent.index >= 0) found[parent.index]!.title = title;
      else if (title && stack.length === 1) documentTitle = title;
    }
    if (closed.index >= 0) {
      const entry = found[closed.index]!;
      entry.named = closed.named;
      const named = !isGeneratedId(entry.raw ?? entry.id, entry.tag) || (entry.title ?? entry.label) !== null;
      parent.named += closed.named + (named ? 1 : 0);
    } else {
      parent.named += closed.named;
    }
  });
  parser.write(text);
  parser.close();

  // A reference made of a code that another element has as its own id (`id-01` beside `01`): the element with the id keeps it, as the viewer finds that one first.
  const own = new Set(found.filter((entry) => entry.raw === null).map((entry) => entry.id));
  const kept = found.filter((entry) => {
    if (entry.raw === null) return true;
    if (!own.has(entry.id)) {
      own.add(entry.id);
      return true;
    }
    unusable.push(truncateText(entry.raw, 200));
    return false;
  });
  const { usMap, countryMap } = codeKinds(kept.map((entry) => entry.id));
  const labels = geometry ? textLabels(geometry, found) : new Map<Found, string>();
  // Regions named by their text count as named inside their groups too: a group of numbered rooms is a layer of them.
  const labelledInside = new Map<number, number>();
  for (const entry of labels.keys()) for (const ancestor of entry.ancestors) labelledInside.set(ancestor, (labelledInside.get(ancestor) ?? 0) + 1);
  const indexOf = new Map(found.map((entry, index) => [entry, index]));
  const regions = kept.map((entry): SvgRegion => {
    const holds = entry.named + (labelledInside.get(indexOf.get(entry)!) ?? 0);
    const own = entry.title ?? entry.label;
    const id = entry.raw ?? entry.id;
    const ownGenerated = own === null || isGeneratedId(own.replace(/\s+/g, '_'), entry.tag);
    const fromId = titleFromId(id, { usMap, countryMap });
    // A shape the drawing names only by an id a program made up (`rect3781`) is named by the text written inside it (`H865`); a person's id stays its name.
    const label = ownGenerated && isGeneratedId(id, entry.tag) ? (labels.get(entry) ?? null) : null;
    const named = label ?? own;
    const generated = isGeneratedId(id, entry.tag) && (label === null && ownGenerated);
    return {
      id: entry.id,
      ...(entry.raw !== null ? { source: entry.raw } : {}),
      title: named ?? fromId,
      auto: generated || entry.layer || (entry.tag === 'g' && holds >= CONTAINER_MIN),
      ...(label !== null ? { fromText: true } : {}),
    };
  });
  return { regions, unusable, documentTitle };
}

/**
 * The text written inside each region (svg-text-labels.ts), by region; layers are named by none
 * (their texts belong to what they hold), nor are labels that read as a program's names.
 */
function textLabels(geometry: DrawingGeometry, found: readonly Found[]): Map<Found, string> {
  const layers = new Set(found.flatMap((entry, index) => (entry.layer ? [index] : [])));
  const byIndex = labelsInside(geometry.regionBoxes(), found.map((entry) => entry.ancestors), geometry.texts, layers);
  const labels = new Map<Found, string>();
  for (const [index, words] of byIndex) {
    const entry = found[index]!;
    // A reading (a gauge's `50%`, `21°C`, a switch's `OFF`) is no name.
    if (!isGeneratedId(words.replace(/\s+/g, '_'), entry.tag) && !READING.test(words)) labels.set(entry, truncateText(words, 200));
  }
  return labels;
}

/** The regions of an SVG text (see {@link readSvgRegions}). */
export function svgRegions(text: string): SvgRegion[] {
  return readSvgRegions(text).regions;
}

const regionNames = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });

/** A country's English name by its ISO 3166-1 alpha-2 code, or null. */
export function countryName(code: string): string | null {
  if (!/^[A-Za-z]{2}$/.test(code)) return null;
  try {
    const name = regionNames.of(code.toUpperCase());
    return name && name.toUpperCase() !== code.toUpperCase() ? name : null;
  } catch {
    return null;
  }
}

/** A US state's code in an id: `oh`, `OH`, `US-OH`, `us_oh`. */
function stateCode(id: string): { code: string; prefixed: boolean } | null {
  const match = /^(?:(US)[-_])?([A-Za-z]{2})$/i.exec(id);
  if (!match) return null;
  const code = match[2]!.toUpperCase();
  return code in US_STATES ? { code, prefixed: match[1] !== undefined } : null;
}

/**
 * Whether the drawing's two-letter ids are US states or countries: `CA` is California on a map
 * of the states and Canada on a map of the world, so the ids are judged together. A US map:
 * at least 5 two-letter ids, 80 % of them states. A map of countries: at least 3, 80 % of them
 * ISO codes (and not a US map).
 */
function codeKinds(ids: string[]): { usMap: boolean; countryMap: boolean } {
  const twoLetter = new Set(ids.filter((id) => /^[A-Za-z]{2}$/.test(id)).map((id) => id.toUpperCase()));
  let states = 0;
  let countries = 0;
  for (const code of twoLetter) {
    if (code in US_STATES) states += 1;
    if (countryName(code)) countries += 1;
  }
  const usMap = twoLetter.size >= 5 && states >= twoLetter.size * 0.8;
  const countryMap = !usMap && twoLetter.size >= 3 && countries >= twoLetter.size * 0.8;
  return { usMap, countryMap };
}

/**
 * A title read from an id, only where the reading is sure: a state or country by its code on a
 * map of them, codes in capitals (`de-by` → "DE-BY", never a guessed "De-by"), words as words
 * (`shop_12` → "Shop 12", `food-court` → "Food court", `MainHall` → "Main Hall").
 */
export function titleFromId(id: string, kinds: { usMap: boolean; countryMap: boolean } = { usMap: false, countryMap: false }): string {
  if (isGeneratedId(id)) return id; // path3677 is best shown as it is
  const state = stateCode(id);
  if (state && (state.prefixed || kinds.usMap)) return US_STATES[state.code]!;
  if (kinds.countryMap) {
    const country = countryName(id);
    if (country) return country;
  }
  const tokens = id
    .replace(/([a-z])([A-Z])/g, '$1 $2') // MainHall
    .replace(/([A-Za-z]{3,})(\d)/g, '$1 $2') // Shop12 (but not B3 or de2)
    .split(/[\s_.:]+|(?<=[A-Za-z]{4,})-|-(?=[A-Za-z]{4,})|(?<=[A-Za-z]{4,}\d*)-(?=\d)/)
    .filter(Boolean);
  const isWord = (token: string) => /^[A-Za-z]{4,}$/.test(token) || /^[A-Z][a-z]{2,}$/.test(token);
  if (!tokens.some(isWord)) {
    // Codes only (de-by, a12, fr_75): in capitals, as the id writes them.
    return id.replace(/_+/g, ' ').trim().toUpperCase() || id;
  }
  const words = tokens.map((token, index) => {
    if (/[A-Z]/.test(token)) return token; // the id's own capitals are kept
    if (isWord(token)) return index === 0 ? token[0]!.toUpperCase() + token.slice(1) : token;
    return token.toUpperCase(); // a code or a number among words: unit_b3 → "Unit B3"
  });
  return words.join(' ');
}
