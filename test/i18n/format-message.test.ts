/**
 * The viewer's message reader (client/src/i18n/format-message.ts) formats as lingui's own
 * runtime does: every message of every catalogue, with numbers that reach every plural form
 * and every choice of its selects, gives the same text through both.
 */
import { setupI18n } from '@lingui/core';
import type { CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { VIEWER_LOCALES } from '../../events/locales';
import { formatMessage } from '../../client/src/i18n/format-message';
import { createTranslator } from '../../client/src/i18n/translator';
import { compileCatalogue } from '../../scripts/viewer-messages';

const NUMBERS = [0, 1, 2, 3, 4, 5, 11, 12, 22, 25, 101, 1234, 1_000_000, 1.5];

/** Value sets that reach each branch: every select choice (and one that is none), every number. */
function samples(tokens: CompiledMessage): Array<Record<string, string | number>> {
  const choices = new Map<string, Array<string | number>>();
  const walk = (list: CompiledMessage) => {
    for (const token of list) {
      if (typeof token === 'string') continue;
      const [name, type, format] = token;
      if (type === 'select') choices.set(name, [...Object.keys(format as object), 'something-else']);
      else if (type === 'plural' || type === 'selectordinal' || type === 'number') choices.set(name, NUMBERS);
      else if (!choices.has(name)) choices.set(name, ['Café <Nero> & Co']);
      if (type === 'select' || type === 'plural' || type === 'selectordinal') {
        for (const [key, branch] of Object.entries(format as Record<string, unknown>)) if (key !== 'offset' && Array.isArray(branch)) walk(branch as CompiledMessage);
      }
    }
  };
  walk(tokens);
  let sets: Array<Record<string, string | number>> = [{}];
  for (const [name, values] of choices) {
    // Every value of this argument, the others as in the first set (not the full product).
    sets = values.flatMap((value, index) => (index === 0 ? sets.map((set) => ({ ...set, [name]: value })) : [{ ...sets[0], [name]: value }]));
  }
  return sets;
}

describe('formatMessage', () => {
  it.each(VIEWER_LOCALES)('formats every %s message as @lingui/core does', (locale) => {
    const catalogue = compileCatalogue(locale);
    const lingui = setupI18n({ locale, messages: { [locale]: catalogue as never } });
    let compared = 0;
    for (const [id, message] of Object.entries(catalogue)) {
      for (const values of samples(typeof message === 'string' ? [message] : message)) {
        expect(formatMessage(locale, message, values), `${locale} ${id} ${JSON.stringify(values)}`).toBe(lingui._(id, values));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(Object.keys(catalogue).length);
  });

  it('writes numbers in the locale’s way, in plurals and alone', () => {
    const en = createTranslator('en', { count: [['n', 'plural', { one: ['#', ' place'], other: ['#', ' places'] }]], alone: [['n', 'number']] });
    expect(en.t('count' as never, { n: 1234 })).toBe('1,234 places');
    expect(en.t('count' as never, { n: 1 })).toBe('1 place');
    const de = createTranslator('de', en.messages);
    expect(de.t('count' as never, { n: 1234 })).toBe('1.234 places');
    const ar = createTranslator('ar', en.messages);
    expect(ar.n(12)).toBe(new Intl.NumberFormat('ar').format(12));
    expect(ar.dir).toBe('rtl');
  });

  it('shows the id of a message the catalogue lacks, not nothing', () => {
    expect(createTranslator('en', {}).t('viewer.zoomIn')).toBe('viewer.zoomIn');
  });
});
