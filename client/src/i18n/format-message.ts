/**
 * Formats a compiled message (scripts/viewer-messages.ts compiles the ICU sources with lingui's
 * compiler at build time) with the locale's plural rules and number format.
 *
 * Written here rather than taking @lingui/core's runtime: that is about 2 KB gzipped, and the
 * published viewer's first load has an 80 KB budget with React (issue 18) that it would overrun;
 * this reads the same compiled form in a fraction of that. test/i18n/format-message.test.ts
 * checks it against @lingui/core's own formatting for every message of every catalogue.
 */

/** A compiled message: plain text, or lingui's token list. */
export type CompiledMessage = string | readonly Token[];
type Token = string | readonly [name: string, type?: string, format?: unknown];
export type MessageValues = Readonly<Record<string, string | number | null | undefined>>;
type Choices = Readonly<Record<string, CompiledMessage>> & { offset?: number };

/** Intl's formatters are costly to make: one per locale and kind. */
const formatters = new Map<string, Intl.PluralRules | Intl.NumberFormat>();
function formatter<T extends Intl.PluralRules | Intl.NumberFormat>(key: string, make: () => T): T {
  let made = formatters.get(key) as T | undefined;
  if (!made) formatters.set(key, (made = make()));
  return made;
}

/** A number as the locale writes it (`{n, number}`, `{n, number, percent}`, a plural's `#`). */
export function formatNumber(locale: string | undefined, value: number, style?: string): string {
  return formatter(`n${locale}${style}`, () => new Intl.NumberFormat(locale, style === 'percent' ? { style } : undefined)).format(value);
}

const own = (choices: Choices, key: string) => (Object.prototype.hasOwnProperty.call(choices, key) ? choices[key] : undefined);

function format(locale: string, tokens: CompiledMessage, values: MessageValues, count?: number): string {
  if (typeof tokens === 'string') return tokens;
  let out = '';
  for (const token of tokens) {
    if (typeof token === 'string') {
      // `#` in a plural's branch is its number (compiled as a token of its own).
      out += token === '#' && count !== undefined ? formatNumber(locale, count) : token;
      continue;
    }
    const [name, type, format_] = token;
    const value = values[name];
    const choices = format_ as Choices;
    let branch: CompiledMessage | undefined;
    let n = count;
    if (type === 'plural' || type === 'selectordinal') {
      n = Number(value) - (choices.offset ?? 0);
      const rules = formatter(`p${locale}${type}`, () => new Intl.PluralRules(locale, { type: type === 'plural' ? 'cardinal' : 'ordinal' }));
      // An exact `=n` branch first, then the locale's category, then `other`.
      branch = own(choices, String(Number(value))) ?? own(choices, rules.select(n)) ?? choices.other;
    } else if (type === 'select') {
      branch = own(choices, String(value)) ?? choices.other;
    } else {
      out += type === 'number' ? formatNumber(locale, Number(value), typeof format_ === 'string' ? format_ : undefined) : (value ?? '');
      continue;
    }
    if (branch !== undefined) out += format(locale, branch, values, n);
  }
  return out;
}

/** The message with its values filled in, as the locale writes them. */
export function formatMessage(locale: string, message: CompiledMessage, values: MessageValues = {}): string {
  return format(locale, message, values);
}
