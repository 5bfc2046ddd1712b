/**
 * CSS inside an uploaded SVG (`<style>` elements, `style` attributes, presentation attributes
 * such as `fill="url(...)"`) may only point inside the document: `url(#id)`. Anything that
 * could load from elsewhere (`@import`, `url()` to another address, `image-set()`, `src()`)
 * is removed; text that still holds such a construct after that is refused whole.
 *
 * The check runs on a normalised form, in which comments are gone and CSS escapes decoded
 * (`u\72l(` is `url(` to a browser), and that normalised form is what is kept.
 */

/** Comments out, escapes decoded, as a CSS tokenizer would see the text. */
export function normaliseCss(text: string): string {
  return (
    text
      // An unterminated comment runs to the end of the text.
      .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
      // An escaped newline inside a string is a line continuation.
      .replace(/\\\r?\n/g, '')
      .replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?/g, (_match, hex: string) => {
        const code = Number.parseInt(hex, 16);
        return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\uFFFD' : String.fromCodePoint(code);
      })
      .replace(/\\([^\r\n\f])/g, '$1')
      // A NUL is read as U+FFFD, never as nothing.
      .replace(/\0/g, '\uFFFD')
  );
}

/** A same-document reference: `#` and an id of the usual characters. */
const LOCAL_REF = /^#[A-Za-z_][\w.:-]*$/;

const URL_FUNCTION = /url\(\s*(?:"([^"\n]*)"|'([^'\n]*)'|([^"'()\s]*))\s*\)/gi;
const IMPORT_RULE = /@import\b[^;{}]*(?:;|$)/gi;

/** What must not be left once the allowed forms are taken out. */
const FORBIDDEN = [
  /url\(/i, // any url( the pattern above could not read
  /@import/i,
  /image-set\(/i,
  /\bimage\(/i,
  /\bsrc\(/i,
  /cross-fade\(/i,
  /expression\(/i,
  /-moz-binding/i,
  /behavior\s*:/i,
  /javascript:/i,
  /vbscript:/i,
  // Markup has no place in a stylesheet: it is only there to break out of one.
  /<[/!?a-z]/i,
];

function isSafe(normalised: string): boolean {
  const withoutLocalRefs = normalised.replace(/url\(#[A-Za-z_][\w.:-]*\)/gi, '');
  return !FORBIDDEN.some((pattern) => pattern.test(withoutLocalRefs));
}

/**
 * The text with every outside reference taken out (`@import` rules dropped, other `url()`s
 * replaced by `none`), normalised; or null when what is left is still not safe.
 */
export function cleanCss(text: string): string | null {
  const normalised = normaliseCss(text)
    .replace(IMPORT_RULE, '')
    .replace(URL_FUNCTION, (_match, double?: string, single?: string, bare?: string) => {
      const target = (double ?? single ?? bare ?? '').trim();
      return LOCAL_REF.test(target) ? `url(${target})` : 'none';
    });
  return isSafe(normalised) ? normalised : null;
}

/** True when the text, read as CSS, refers to nothing outside the document. */
export function isCssSafe(text: string): boolean {
  return isSafe(normaliseCss(text));
}

/** True when there is anything in the text a CSS reader could take as a function or an at-rule. */
export function mayHoldCss(text: string): boolean {
  return /[(@\\:]/.test(text);
}
