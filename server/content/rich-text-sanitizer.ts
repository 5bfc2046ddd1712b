/**
 * Rich text is made safe on the server before any event records it: a location's description
 * keeps the formatting events/rich-text.ts allows and nothing that can run, load or restyle
 * anything. DOMPurify does the walking, over the jsdom window the SVG sanitiser uses too, made
 * on first use (dom-window.ts). The viewer sanitises again with the same configuration before
 * it shows the text.
 *
 * Sanitised text is stable: sanitising it again gives the same text, so a document saved
 * back unchanged stays unchanged.
 *
 * jsdom is slow with big trees (about 50 µs an element, and far worse, up to a stack overflow,
 * when elements nest thousands deep: 6,000 unclosed `<b>` take it seconds). So the markup is
 * measured first, with parse5 (the parser jsdom itself uses, without the DOM, a few ms), and
 * refused when it has more than {@link MAX_RICH_TEXT_ELEMENTS} elements or nests deeper than
 * {@link MAX_RICH_TEXT_DEPTH}: no formatting a person writes comes near either.
 */
import type { DOMPurify } from 'dompurify';
import type { DefaultTreeAdapterMap } from 'parse5';
import { DomainError } from '../../events/errors.js';
import { locationFields, type MapDocument } from '../../events/map-document.js';
import type { MapEdit } from '../../events/map-edits.js';
import { openRichTextLink, RICH_TEXT_CONFIG } from '../../events/rich-text.js';
import { domWindow } from './dom-window.js';
import { loadDomPurify, loadParse5 } from './lazy-libraries.js';

const MAX_DESCRIPTION = locationFields.description.maxLength ?? 20_000;

/** Most elements one piece of rich text may have (as parsed, before sanitising). */
export const MAX_RICH_TEXT_ELEMENTS = 2_000;
/** Deepest elements may nest in one piece of rich text (`<body>`'s children are level 1). */
export const MAX_RICH_TEXT_DEPTH = 64;
/**
 * Most elements all the rich text of one request may have together: the walk runs on the
 * server's main thread (about 50 µs an element), so one request holds it for at most a few
 * seconds however many descriptions it carries. A map imported whole stays far below it.
 */
export const MAX_RICH_TEXT_ELEMENTS_PER_REQUEST = 50_000;

/** What is left of a request's element budget (one per sanitizeMapDocument / sanitizeMapEdits call). */
interface Budget {
  remaining: number;
}

/** Rich text that is refused rather than sanitised (too big a tree to walk). */
export class RichTextRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RichTextRejectedError';
  }
}

let shared: DOMPurify | null = null;

function purifier(): DOMPurify {
  if (shared) return shared;
  const createDOMPurify = loadDomPurify();
  const purify = createDOMPurify(domWindow() as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('afterSanitizeAttributes', openRichTextLink);
  shared = purify;
  return shared;
}

type ParsedNode = DefaultTreeAdapterMap['node'];

/** Throws {@link RichTextRejectedError} when the markup is too big or too deep to walk. */
function checkTreeSize(html: string, budget?: Budget): void {
  const tooMany = () => new RichTextRejectedError(`has too many elements (at most ${MAX_RICH_TEXT_ELEMENTS})`);
  // Every start tag is `<` and a letter: a bound on the parser's own work, counted first.
  if ((html.match(/<[A-Za-z]/g)?.length ?? 0) > MAX_RICH_TEXT_ELEMENTS) throw tooMany();
  // Parsed as DOMPurify parses it: a whole document, of which it keeps the body's content.
  // The head counts too (jsdom builds it: a leading <template> lands there). Depth 0 is
  // <head> and <body>, so the document starts at -2.
  let elements = 0;
  if (budget && (html.match(/<[A-Za-z]/g)?.length ?? 0) > budget.remaining) throw tooManyInAll();
  const pending: Array<[ParsedNode, number]> = [[loadParse5().parse(html), -2]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (!('childNodes' in node)) continue;
    // A <template>'s children live in its content (jsdom builds them too, before DOMPurify drops them).
    const children = 'content' in node ? [...node.childNodes, ...node.content.childNodes] : node.childNodes;
    for (const child of children) {
      if (!('tagName' in child)) continue;
      if (++elements > MAX_RICH_TEXT_ELEMENTS) throw tooMany();
      if (depth + 1 > MAX_RICH_TEXT_DEPTH) throw new RichTextRejectedError(`nests too deeply (at most ${MAX_RICH_TEXT_DEPTH} levels)`);
      pending.push([child, depth + 1]);
    }
  }
  if (budget) {
    if (elements > budget.remaining) throw tooManyInAll();
    budget.remaining -= elements;
  }
}

const tooManyInAll = () =>
  new RichTextRejectedError(`is one too many: the descriptions of one request may have at most ${MAX_RICH_TEXT_ELEMENTS_PER_REQUEST} elements in all`);

/**
 * Rich text (HTML) as it may be stored and shown: allowed formatting kept, everything else
 * removed (see events/rich-text.ts). Text without `<` holds no markup and is answered as it
 * is, without parsing (as DOMPurify does: entities in it stay text). Throws {@link RichTextRejectedError} for markup of more than
 * {@link MAX_RICH_TEXT_ELEMENTS} elements or nested deeper than {@link MAX_RICH_TEXT_DEPTH}.
 */
export function sanitizeRichText(html: string, budget?: Budget): string {
  if (!html.includes('<')) return html;
  checkTreeSize(html, budget);
  return purifier().sanitize(html, RICH_TEXT_CONFIG);
}

/**
 * A description made safe; `invalid-argument` naming `path` when it is refused, or when the
 * safe text is longer than a description may be (escaping a stray `<` or `&` lengthens it).
 */
function safeDescription(html: string, path: string, budget: Budget): string {
  let safe: string;
  try {
    safe = sanitizeRichText(html, budget);
  } catch (error) {
    if (error instanceof RichTextRejectedError) throw new DomainError('invalid-argument', `${path}: ${error.message}`);
    throw error;
  }
  if (safe.length > MAX_DESCRIPTION) {
    throw new DomainError('invalid-argument', `${path}: must be at most ${MAX_DESCRIPTION} characters once made safe (${safe.length})`);
  }
  return safe;
}

/**
 * The document with every location's description made safe. Answers the same object when
 * nothing changed. `path` names the document in errors (`mapData.locations.3.description`).
 */
export function sanitizeMapDocument(document: MapDocument, path = 'mapData', budget: Budget = { remaining: MAX_RICH_TEXT_ELEMENTS_PER_REQUEST }): MapDocument {
  let changed = false;
  const locations = document.locations.map((location, index) => {
    const description = safeDescription(location.description, `${path}.locations.${index}.description`, budget);
    if (description === location.description) return location;
    changed = true;
    return { ...location, description };
  });
  return changed ? { ...document, locations } : document;
}

/**
 * The edits with every description they carry made safe: a LocationAdded's location, a
 * LocationUpdated's changes, a DocumentImported's document, an ImportApplied's locations and updates. Other edits hold no rich text and
 * are passed on as they are. `path` names the list in errors (`edits.0.location.description`).
 */
export function sanitizeMapEdits(edits: readonly MapEdit[], path = 'edits'): MapEdit[] {
  const budget: Budget = { remaining: MAX_RICH_TEXT_ELEMENTS_PER_REQUEST };
  return edits.map((edit, index): MapEdit => {
    switch (edit.type) {
      case 'LocationAdded': {
        const description = safeDescription(edit.location.description, `${path}.${index}.location.description`, budget);
        return description === edit.location.description ? edit : { ...edit, location: { ...edit.location, description } };
      }
      case 'LocationUpdated': {
        if (edit.changes.description === undefined) return edit;
        const description = safeDescription(edit.changes.description, `${path}.${index}.changes.description`, budget);
        return description === edit.changes.description ? edit : { ...edit, changes: { ...edit.changes, description } };
      }
      case 'DocumentImported': {
        const document = sanitizeMapDocument(edit.document, `${path}.${index}.document`, budget);
        return document === edit.document ? edit : { ...edit, document };
      }
      case 'ImportApplied': {
        let changed = false;
        const locations = edit.locations.map((location, at) => {
          const description = safeDescription(location.description, `${path}.${index}.locations.${at}.description`, budget);
          if (description === location.description) return location;
          changed = true;
          return { ...location, description };
        });
        const updates = edit.updates.map((update, at) => {
          if (update.changes.description === undefined) return update;
          const description = safeDescription(update.changes.description, `${path}.${index}.updates.${at}.changes.description`, budget);
          if (description === update.changes.description) return update;
          changed = true;
          return { ...update, changes: { ...update.changes, description } };
        });
        return changed ? { ...edit, locations, updates } : edit;
      }
      default:
        return edit;
    }
  });
}
