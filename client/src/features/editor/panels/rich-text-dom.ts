/**
 * The rich text editor's work on the DOM: making any markup safe and tidy (DOMPurify with the
 * product's rich-text configuration, events/rich-text.ts) and the formatting commands.
 *
 * Why `document.execCommand`: it is deprecated on paper but every browser still implements it
 * for contenteditable, and it is the only way to change an editable region that keeps the
 * browser's own undo stack (Ctrl+Z after Bold undoes the bold) and its caret handling; there is
 * no replacement API yet (Input Events level 2 only reports what the user did). Each command
 * also has a plain DOM fallback (Range and Selection) for where `execCommand` is missing or
 * refuses (jsdom, a future browser): it does the same edit, without the native undo entry.
 */
import { openRichTextLink, RICH_TEXT_CONFIG } from '../../../../../events/rich-text';
import { loadPurifier } from '../../../lib/purifier';

export interface RichTextCleaner {
  /** Safe, tidy rich text: what the server keeps (an empty editor gives ''). */
  clean(html: string): string;
}

let cleaner: Promise<RichTextCleaner> | null = null;

/** Block elements a `div` may hold; such a div is unwrapped rather than made a paragraph. */
const BLOCKS = 'p, div, ul, ol, li, h3, h4, blockquote';

/** The sanitiser, loaded on first use (DOMPurify is its own chunk). */
export function loadRichTextCleaner(): Promise<RichTextCleaner> {
  cleaner ??= loadPurifier().then((shared) => {
    // An instance of our own: hooks added elsewhere (the viewer's) do not change our output.
    const purify = shared(window);
    // Links open in a new tab without access to the page, as the server stores them.
    purify.addHook('afterSanitizeAttributes', openRichTextLink);
    const clean = (html: string): string => {
      // First pass keeps divs too: browsers write each new line of an editable region as a
      // <div>, which the product's rich text does not allow (it would be unwrapped, the lines
      // run together); they become paragraphs here.
      const fragment = purify.sanitize(html, { ...RICH_TEXT_CONFIG, ALLOWED_TAGS: [...RICH_TEXT_CONFIG.ALLOWED_TAGS, 'div'], RETURN_DOM_FRAGMENT: true });
      // A link whose address was refused keeps no href: its text stays, without the link.
      fragment.querySelectorAll('a:not([href])').forEach((anchor) => anchor.replaceWith(...anchor.childNodes));
      for (const div of [...fragment.querySelectorAll('div')].reverse()) {
        if (div.querySelector(BLOCKS)) {
          div.replaceWith(...div.childNodes);
        } else if (div.parentElement?.matches('p, li, h3, h4')) {
          div.replaceWith(document.createElement('br'), ...div.childNodes);
        } else {
          const paragraph = document.createElement('p');
          paragraph.append(...div.childNodes);
          div.replaceWith(paragraph);
        }
      }
      const box = document.createElement('div');
      box.append(fragment);
      if (!box.textContent?.trim()) return '';
      return purify.sanitize(box.innerHTML, RICH_TEXT_CONFIG);
    };
    return { clean };
  });
  cleaner.catch(() => {
    cleaner = null;
  });
  return cleaner;
}

/** Text as markup: escaped, its lines kept as line breaks. */
export function textToHtml(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return escaped.replace(/\r\n?/g, '\n').split('\n').join('<br>');
}

/** http(s) and mailto only: what a person may link to from a description. */
export function checkLinkAddress(text: string): { url: string } | { error: string } {
  const url = text.trim();
  if (!url) return { error: 'Enter an address, like https://example.com' };
  if (!/^(https?:\/\/|mailto:)/i.test(url)) return { error: 'The address must start with https://, http:// or mailto:' };
  if (url.length > 2000) return { error: 'The address must be at most 2000 characters' };
  try {
    new URL(url);
  } catch {
    return { error: 'This is not a valid address' };
  }
  return { url };
}

// ---- Selection ----------------------------------------------------------------------------------

/** The selection's range when it lies in `root`. */
export function rangeIn(root: HTMLElement): Range | null {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  return root.contains(range.commonAncestorContainer) ? range : null;
}

export function selectRange(range: Range): void {
  const selection = window.getSelection();
  if (!selection) return;
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Puts the caret at the end of `root`'s text. */
export function selectEnd(root: HTMLElement): void {
  const end = document.createRange();
  end.selectNodeContents(root);
  end.collapse(false);
  selectRange(end);
}

function selectContents(node: Node): void {
  const range = document.createRange();
  range.selectNodeContents(node);
  selectRange(range);
}

function caretAfter(node: Node): void {
  const range = document.createRange();
  if (node instanceof Text) range.setStart(node, node.length);
  else range.setStartAfter(node);
  range.collapse(true);
  selectRange(range);
}

/** The nearest element matching `selector` from `node` up to (not including) `root`. */
export function closestIn(node: Node | null, root: HTMLElement, selector: string): HTMLElement | null {
  let current: Node | null = node;
  while (current && current !== root) {
    if (current instanceof HTMLElement && current.matches(selector)) return current;
    current = current.parentNode;
  }
  return null;
}

function unwrap(element: Element): void {
  element.replaceWith(...element.childNodes);
}

// ---- Commands -----------------------------------------------------------------------------------

export type RichTextCommand = 'bold' | 'italic' | 'insertUnorderedList' | 'insertOrderedList' | 'removeFormat';

const INLINE: Record<'bold' | 'italic', { selector: string; tag: string }> = {
  bold: { selector: 'b, strong', tag: 'strong' },
  italic: { selector: 'i, em', tag: 'em' },
};
const FORMATTING = 'b, strong, i, em, u, s, strike, del';

/** Runs `execCommand`; false when the browser has none or refuses. */
function native(command: string, value?: string): boolean {
  if (typeof document.execCommand !== 'function') return false;
  try {
    return document.execCommand(command, false, value);
  } catch {
    return false;
  }
}

let configured = false;

/** Asks the browser to write <p> for new lines and tags (not inline styles) for formatting. */
export function configureEditing(): void {
  if (configured) return;
  configured = true;
  native('defaultParagraphSeparator', 'p');
  native('styleWithCSS', 'false');
}

/** Applies a formatting command to the selection in `root`. */
export function runCommand(root: HTMLElement, command: RichTextCommand): void {
  const range = rangeIn(root);
  if (!range) return;
  if (native(command)) return;
  switch (command) {
    case 'bold':
    case 'italic':
      toggleInline(root, range, INLINE[command]);
      return;
    case 'insertUnorderedList':
      toggleList(root, range, 'ul');
      return;
    case 'insertOrderedList':
      toggleList(root, range, 'ol');
      return;
    case 'removeFormat':
      removeFormatting(root, range);
      return;
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function toggleInline(root: HTMLElement, range: Range, { selector, tag }: { selector: string; tag: string }): void {
  const existing = closestIn(range.commonAncestorContainer, root, selector);
  if (existing) {
    const first = existing.firstChild;
    const last = existing.lastChild;
    unwrap(existing);
    if (first && last) {
      const after = document.createRange();
      after.setStartBefore(first);
      after.setEndAfter(last);
      selectRange(after);
    }
    return;
  }
  if (range.collapsed) return;
  const element = document.createElement(tag);
  element.append(range.extractContents());
  element.querySelectorAll(selector).forEach(unwrap);
  range.insertNode(element);
  selectContents(element);
}

/** The child of `root` that holds `node` (or `root`'s child at `offset` when `node` is root). */
function topLevel(root: HTMLElement, node: Node, offset: number): Node | null {
  if (node === root) return root.childNodes[Math.min(offset, root.childNodes.length - 1)] ?? null;
  let current: Node = node;
  while (current.parentNode && current.parentNode !== root) current = current.parentNode;
  return current.parentNode === root ? current : null;
}

function toggleList(root: HTMLElement, range: Range, tag: 'ul' | 'ol'): void {
  const list = closestIn(range.startContainer, root, 'ul, ol');
  if (list) {
    if (list.localName === tag) {
      const paragraphs = [...list.children].map((item) => {
        const paragraph = document.createElement('p');
        paragraph.append(...item.childNodes);
        return paragraph;
      });
      list.replaceWith(...paragraphs);
      if (paragraphs[0]) selectContents(paragraphs[0]);
    } else {
      const other = document.createElement(tag);
      other.append(...list.childNodes);
      list.replaceWith(other);
      selectContents(other);
    }
    return;
  }
  const first = topLevel(root, range.startContainer, range.startOffset);
  const last = topLevel(root, range.endContainer, range.endOffset) ?? first;
  const created = document.createElement(tag);
  if (!first) {
    const item = document.createElement('li');
    item.append(document.createElement('br'));
    created.append(item);
    root.append(created);
    const caret = document.createRange();
    caret.setStart(item, 0);
    caret.collapse(true);
    selectRange(caret);
    return;
  }
  const nodes: Node[] = [];
  for (let node: Node | null = first; node; node = node.nextSibling) {
    nodes.push(node);
    if (node === last) break;
  }
  first.parentNode!.insertBefore(created, first);
  let inline: HTMLLIElement | null = null;
  for (const node of nodes) {
    if (node instanceof HTMLElement && node.matches('p, div, h3, h4, blockquote')) {
      const item = document.createElement('li');
      item.append(...node.childNodes);
      created.append(item);
      node.remove();
      inline = null;
    } else if (node instanceof HTMLBRElement) {
      node.remove();
      inline = null;
    } else {
      if (!inline) {
        inline = document.createElement('li');
        created.append(inline);
      }
      inline.append(node);
    }
  }
  selectContents(created);
}

function removeFormatting(root: HTMLElement, range: Range): void {
  if (range.collapsed) {
    const format = closestIn(range.startContainer, root, FORMATTING);
    if (format) unwrap(format);
    return;
  }
  const fragment = range.extractContents();
  fragment.querySelectorAll(FORMATTING).forEach(unwrap);
  const nodes = [...fragment.childNodes];
  range.insertNode(fragment);
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  if (!first || !last) return;
  // The selection may sit inside a formatting element that goes on around it: split that
  // element so the text before and after keeps its formatting.
  for (let format = closestIn(first, root, FORMATTING); format; format = closestIn(first, root, FORMATTING)) {
    const before = document.createRange();
    before.setStart(format, 0);
    before.setEndBefore(first);
    const after = document.createRange();
    after.setStartAfter(last);
    after.setEnd(format, format.childNodes.length);
    const head = format.cloneNode(false) as HTMLElement;
    head.append(before.extractContents());
    const tail = format.cloneNode(false) as HTMLElement;
    tail.append(after.extractContents());
    if (head.textContent) format.before(head);
    if (tail.textContent) format.after(tail);
    unwrap(format);
  }
  const selected = document.createRange();
  selected.setStartBefore(first);
  selected.setEndAfter(last);
  selectRange(selected);
}

/** Inserts (already safe) markup at the selection, replacing what is selected. */
export function insertHtml(root: HTMLElement, html: string): void {
  const range = rangeIn(root);
  if (!range) return;
  if (native('insertHTML', html)) return;
  range.deleteContents();
  const fragment = range.createContextualFragment(html);
  const last = fragment.lastChild;
  range.insertNode(fragment);
  if (last) caretAfter(last);
}

/** The link the selection is in, if any. */
export function linkAt(root: HTMLElement): HTMLAnchorElement | null {
  const range = rangeIn(root);
  return range ? (closestIn(range.commonAncestorContainer, root, 'a') as HTMLAnchorElement | null) : null;
}

/** Links the selection to `url` (a checked address), or changes the link it is in. */
export function applyLink(root: HTMLElement, range: Range, url: string): void {
  selectRange(range);
  const existing = closestIn(range.commonAncestorContainer, root, 'a');
  if (existing) {
    existing.setAttribute('href', url);
    return;
  }
  if (range.collapsed) {
    insertHtml(root, `<a href="${textToHtml(url)}">${textToHtml(url)}</a>`);
    return;
  }
  if (native('createLink', url)) return;
  const anchor = document.createElement('a');
  anchor.setAttribute('href', url);
  anchor.append(range.extractContents());
  anchor.querySelectorAll('a').forEach(unwrap);
  range.insertNode(anchor);
  selectContents(anchor);
}

/** Removes the link the range is in (keeping its text). */
export function removeLink(root: HTMLElement, range: Range): void {
  const anchor = closestIn(range.commonAncestorContainer, root, 'a');
  if (!anchor) return;
  selectContents(anchor);
  if (native('unlink')) return;
  const first = anchor.firstChild;
  const last = anchor.lastChild;
  unwrap(anchor);
  if (first && last) {
    const text = document.createRange();
    text.setStartBefore(first);
    text.setEndAfter(last);
    selectRange(text);
  }
}

export interface ActiveFormats {
  bold: boolean;
  italic: boolean;
  insertUnorderedList: boolean;
  insertOrderedList: boolean;
  link: boolean;
}

export const NO_FORMATS: ActiveFormats = { bold: false, italic: false, insertUnorderedList: false, insertOrderedList: false, link: false };

function queryState(command: string): boolean | null {
  if (typeof document.queryCommandState !== 'function') return null;
  try {
    return document.queryCommandState(command);
  } catch {
    return null;
  }
}

/** What the toolbar shows as pressed for the selection in `root`. */
export function activeFormats(root: HTMLElement): ActiveFormats {
  const range = rangeIn(root);
  if (!range) return NO_FORMATS;
  const at = range.startContainer;
  const inside = (selector: string) => closestIn(at, root, selector) !== null;
  // The browser knows about pending formatting (Ctrl+B with nothing selected, then typing).
  const state = (command: 'bold' | 'italic', selector: string) => queryState(command) ?? inside(selector);
  return {
    bold: state('bold', INLINE.bold.selector),
    italic: state('italic', INLINE.italic.selector),
    insertUnorderedList: closestIn(at, root, 'ul, ol')?.localName === 'ul',
    insertOrderedList: closestIn(at, root, 'ul, ol')?.localName === 'ol',
    link: inside('a'),
  };
}

export function sameFormats(a: ActiveFormats, b: ActiveFormats): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.insertUnorderedList === b.insertUnorderedList && a.insertOrderedList === b.insertOrderedList && a.link === b.link;
}
