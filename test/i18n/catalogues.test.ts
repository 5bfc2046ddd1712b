/**
 * The viewer's catalogues are complete (issue 19): every language has every message of the
 * English sources, no message more, each one compiles, names the same arguments as the
 * English, and gives every plural form its language has (Intl.PluralRules: Polish `few` and
 * `many`, Arabic's six) and every choice of each `select`.
 */
import { readdirSync } from 'node:fs';
import type { CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { VIEWER_LOCALES } from '../../events/locales';
import { compileViewerMessage, MESSAGES_DIR, readSourceCatalogue } from '../../scripts/viewer-messages';

interface Shape {
  /** Every argument named, with its type ('' for a plain one). */
  args: Map<string, string>;
  /** Each select's choices, by argument. */
  selects: Map<string, Set<string>>;
  /** The categories each plural's branches give (exact `=n` branches left out), by argument. */
  plurals: Map<string, Set<string>>;
}

function shapeOf(tokens: CompiledMessage, shape: Shape = { args: new Map(), selects: new Map(), plurals: new Map() }): Shape {
  for (const token of tokens) {
    if (typeof token === 'string') continue;
    const [name, type = '', format] = token;
    shape.args.set(name, type);
    if (type === 'plural' || type === 'selectordinal' || type === 'select') {
      const choices = Object.entries(format as Record<string, unknown>).filter(([choice]) => choice !== 'offset');
      const keys = new Set(choices.map(([choice]) => choice).filter((choice) => type === 'select' || !/^\d+$/.test(choice)));
      (type === 'select' ? shape.selects : shape.plurals).set(name, keys);
      for (const [, branch] of choices) if (Array.isArray(branch)) shapeOf(branch as CompiledMessage, shape);
    }
  }
  return shape;
}

const english = readSourceCatalogue('en');
const englishIds = Object.keys(english).sort();

describe('the viewer’s message catalogues', () => {
  it('has a folder for every language the viewer offers, and no other', () => {
    const folders = readdirSync(MESSAGES_DIR).sort();
    expect(folders).toEqual([...VIEWER_LOCALES].sort());
  });

  describe.each(VIEWER_LOCALES)('%s', (locale) => {
    const catalogue = readSourceCatalogue(locale);
    const categories = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
    const ordinalCategories = new Set(new Intl.PluralRules(locale, { type: 'ordinal' }).resolvedOptions().pluralCategories);

    it('has exactly the English messages', () => {
      expect(Object.keys(catalogue).sort()).toEqual(englishIds);
    });

    it('compiles every message, with the English arguments, its plural forms and every select choice', () => {
      for (const id of englishIds) {
        const message = catalogue[id];
        if (message === undefined) continue; // reported above
        expect(message.trim(), `${locale} ${id} is empty`).not.toBe('');
        const shape = shapeOf(compileViewerMessage(`${locale} ${id}`, message));
        const source = shapeOf(compileViewerMessage(`en ${id}`, english[id]!));
        expect([...shape.args.keys()].sort(), `${locale} ${id}: arguments`).toEqual([...source.args.keys()].sort());
        for (const [name, type] of source.args) expect(shape.args.get(name), `${locale} ${id}: {${name}}'s type`).toBe(type);
        for (const [name, choices] of source.selects) expect([...(shape.selects.get(name) ?? [])].sort(), `${locale} ${id}: {${name}, select}`).toEqual([...choices].sort());
        for (const [name, given] of shape.plurals) {
          const needed = source.args.get(name) === 'selectordinal' ? ordinalCategories : categories;
          for (const category of needed) expect(given.has(category), `${locale} ${id}: {${name}} lacks its "${category}" form`).toBe(true);
        }
      }
    });
  });
});
