/**
 * Formats a compiled message (scripts/viewer-messages.ts compiles the ICU sources with lingui's
 * compiler at build time) with the locale's plural rules and number format.
 *
 * Written here rather than taking @lingui/core's runtime: that is about 2 KB gzipped, and the
 * published viewer's first load has an 80 KB budget with React (issue 18) that it would overrun;
 * this reads the same compiled form in a fraction of that. test/client/i18n/format-message.test.ts
 * checks it against @lingui/core's own formatting for every message of every catalogue.
 */

/** A compiled message: plain text, or lingui's token list. */
export type CompiledMessage = string | readonly Token[];
type Token = string | readonly [name: string, type?: string, format?: unknown];
export type MessageValues = Readonly<Record<string, string | number | null | undefined>>;

const plurals = new Map<string, Intl.PluralRules>();
const numbers = new Map<string, Intl.NumberFormat>();

function pluralRules(locale: string, ordinal: boolean): Intl.PluralRules {
  const key = `${locale}${ordinal ? ':o' : ''}`;
  let rules = plurals.get(key);
  if (!rules) plurals.set(key, (rules = new Intl.PluralRules(locale, { type: ordinal ? 'ordinal' : 'cardinal' })));
  return rules;
}

/** A number in the locale's digits and grouping (`{n, number}`, or `{n, number, percent}`). */
export function formatNumber(locale: string, value: number, style?: string): string {
  const key = `${locale}:${style ?? ''}`;
  let format = numbers.get(key);
  if (!format) numbers.set(key, (format = new Intl.NumberFormat(locale, style === 'percent' ? { style } : undefined)));
  return format.format(value);
}

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function format(locale: string, tokens: CompiledMessage, values: MessageValues, count: number | null): string {
  if (typeof tokens === 'string') return tokens;
  let out = '';
  for (const token of tokens) {
    if (typeof token === 'string') {
      // `#` in a plural's branch is its number, in the locale's digits (compiled as its own token).
      out += token === '#' && count !== null ? formatNumber(locale, count) : token;
      continue;
    }
    const [name, type, choices] = token;
    const value = values[name];
    if (type === 'plural' || type === 'selectordinal') {
      const options = choices as Record<string, CompiledMessage> & { offset?: number };
      const n = Number(value) - (options.offset ?? 0);
      const exact = String(Number(value));
      const branch = has(options, exact) ? options[exact] : options[pluralRules(locale, type === 'selectordinal').select(n)] ?? options.other;
      out += branch === undefined ? '' : format(locale, branch, values, n);
    } else if (type === 'select') {
      const options = choices as Record<string, CompiledMessage>;
      const branch = has(options, String(value)) ? options[String(value)] : options.other;
      out += branch === undefined ? '' : format(locale, branch, values, count);
    } else if (type === 'number') {
      out += formatNumber(locale, Number(value), typeof choices === 'string' ? choices : undefined);
    } else if (value !== null && value !== undefined) {
      out += String(value);
    }
  }
  return out;
}

/** The message with its values filled in, as the locale writes them. */
export function formatMessage(locale: string, message: CompiledMessage, values: MessageValues = {}): string {
  return format(locale, message, values, null);
}
