/**
 * A floor drawing's own CSS, made safe to put in the exported picture: every selector is
 * scoped to the drawing's group (`#mfx-floor rect` instead of `rect`), so it styles the drawing
 * and never the picture's title, labels or legend, as the viewer's shadow root keeps it to the
 * drawing; and nothing in it loads from elsewhere (`@import` is dropped, `url()` keeps only
 * `#fragment` and `data:` references, `@font-face` only with `data:` sources).
 *
 * A small parser of blocks and strings, not a full CSS one: the drawings' CSS is the plain
 * kind drawing tools write (`.st0{fill:#e2e8f0}`); a rule it cannot read is dropped, never kept
 * unscoped.
 */

/** Rules whose body holds rules (scoped in turn). */
const GROUPING = /^@(?:media|supports|layer|container)\b/i;

export function scopeCss(css: string, scope: string): string {
  return scopeRules(css.replace(/\/\*[\s\S]*?\*\//g, ''), scope).trim();
}

function scopeRules(css: string, scope: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const start = i;
    // The prelude: up to the rule's `{` or a statement's `;`.
    let end = i;
    while (end < css.length && css[end] !== '{' && css[end] !== ';' && css[end] !== '}') end = skipString(css, end) + 1;
    const prelude = css.slice(start, end).trim();
    if (end >= css.length) break;
    if (css[end] === ';' || css[end] === '}') {
      // A statement (`@import …;`, `@charset …;`) or a stray brace: dropped.
      i = end + 1;
      continue;
    }
    const close = matchingBrace(css, end);
    if (close < 0) break;
    const body = css.slice(end + 1, close);
    i = close + 1;
    if (!prelude) continue;
    if (prelude.startsWith('@')) {
      if (GROUPING.test(prelude)) out += `${prelude}{${scopeRules(body, scope)}}\n`;
      else if (/^@(?:-webkit-)?keyframes\b/i.test(prelude)) out += `${prelude}{${safeValues(body)}}\n`;
      else if (/^@font-face\b/i.test(prelude) && !hasForeignUrl(body)) out += `${prelude}{${body}}\n`;
      continue;
    }
    const selectors = splitSelectors(prelude).map((selector) => scopeSelector(selector, scope));
    if (selectors.length > 0) out += `${selectors.join(',')}{${safeValues(body)}}\n`;
  }
  return out;
}

/** The index of the `}` that closes the `{` at `open`, or -1. */
function matchingBrace(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i = skipString(css, i) + 1) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** At a quote: the index of its closing quote; otherwise `i`. */
function skipString(css: string, i: number): number {
  const quote = css[i];
  if (quote !== '"' && quote !== "'") return i;
  let j = i + 1;
  while (j < css.length && css[j] !== quote) j += css[j] === '\\' ? 2 : 1;
  return j;
}

/** Selectors split at the commas outside brackets (`:is(a, b)` stays whole). */
function splitSelectors(prelude: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < prelude.length; i = skipString(prelude, i) + 1) {
    const c = prelude[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(prelude.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(prelude.slice(from));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** `:root`, `html` or `body` at the start name the drawing's group itself. */
function scopeSelector(selector: string, scope: string): string {
  const rest = selector.replace(/^(?::root|html|body)\b\s*/i, '');
  return rest === selector ? `${scope} ${selector}` : rest ? `${scope} ${rest}` : scope;
}

/** A `url()` to anything but this document or a `data:` URL. */
const FOREIGN_URL = /url\(\s*(?!['"]?\s*(?:#|data:))[^)]*\)/gi;

function hasForeignUrl(body: string): boolean {
  return new RegExp(FOREIGN_URL.source, 'i').test(body) || /@import|expression\s*\(/i.test(body);
}

/** Declarations with references elsewhere made `none`. */
function safeValues(body: string): string {
  return body.replace(FOREIGN_URL, 'none').replace(/expression\s*\(/gi, 'none(');
}
