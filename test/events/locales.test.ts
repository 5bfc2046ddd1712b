/**
 * Which language the viewer speaks (events/locales.ts): the visitor's Accept-Language read in
 * order of preference, a tag matched to a catalogue, and `?lang=` over the map's setting over
 * the visitor's browser over English.
 */
import { describe, expect, it } from 'vitest';
import { directionOf, LOCALE_NAMES, localeOfTag, negotiateLocale, parseAcceptLanguage, resolveViewerLocale, VIEWER_LANGUAGES, VIEWER_LOCALES } from '../../events/locales';

describe('parseAcceptLanguage', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['de', ['de']],
    ['de-CH, en;q=0.5', ['de-CH', 'en']],
    // By weight, whatever the written order.
    ['en;q=0.5, fr;q=0.9, ja', ['ja', 'fr', 'en']],
    ['da, en-GB;q=0.8, en;q=0.7', ['da', 'en-GB', 'en']],
    // Ties keep the written order (no weight is 1).
    ['fr;q=0.8, es, de;q=0.8, it', ['es', 'it', 'fr', 'de']],
    ['nl;q=1.000, pl;q=1', ['nl', 'pl']],
    // `*` names no language to speak.
    ['*', []],
    ['*;q=0.9, de;q=0.5', ['de']],
    // q=0 refuses.
    ['en;q=0, fr', ['fr']],
    ['en;q=0.000, es;q=0.001', ['es']],
    // Malformed weights are not acted on; empty entries and spaces are skipped.
    ['en;q=banana, fr;q=0.4', ['fr']],
    ['en;q=2, fr;q=0.4', ['fr']],
    ['en;q=0.5.5, fr;q=0.4', ['fr']],
    ['en;q=-1, fr;q=0.4', ['fr']],
    ['en;q=0.12345, fr;q=0.4', ['fr']],
    ['en;q=, fr;q=0.4', ['fr']],
    [' , ,de ; q = 0.7 ,, es ;q=0.9', ['es', 'de']],
    // Parameters other than q do not weigh.
    ['pt-BR;level=1, es;q=0.9', ['pt-BR', 'es']],
  ] as const)('%j reads %j', (header, tags) => {
    expect(parseAcceptLanguage(header)).toEqual(tags);
  });

  it('reads at most 20 entries of a long header', () => {
    const header = [...Array.from({ length: 20 }, (_, index) => `x${index};q=0.5`), 'de'].join(', ');
    expect(parseAcceptLanguage(header)).toHaveLength(20);
    expect(parseAcceptLanguage(header)).not.toContain('de');
  });
});

describe('negotiateLocale', () => {
  it.each([
    [['pt-BR'], 'pt'],
    [['pt-PT', 'en'], 'pt'],
    [['zh-Hant-TW'], 'zh'],
    [['zh-Hans-CN'], 'zh'],
    [['zh_TW'], 'zh'],
    [['ES'], 'es'],
    [['AR-eg'], 'ar'],
    [['sv', 'da', 'de-AT', 'fr'], 'de'],
    [['i-klingon', 'en-US'], 'en'],
    [['tlh', 'sv'], null],
    [['english'], null],
    [[''], null],
    [[], null],
  ] as const)('%j gives %j', (preferences, locale) => {
    expect(negotiateLocale(preferences)).toBe(locale);
  });

  it('reads each catalogue’s own tag back', () => {
    for (const locale of VIEWER_LOCALES) expect(localeOfTag(locale)).toBe(locale);
  });
});

describe('resolveViewerLocale', () => {
  const german = ['de-CH', 'en'];

  it('takes ?lang= first, over the map’s setting and the visitor’s browser', () => {
    expect(resolveViewerLocale({ param: 'es', setting: 'fr', preferences: german })).toEqual({ locale: 'es', byVisitor: false });
    expect(resolveViewerLocale({ param: 'pt-BR', setting: 'auto', preferences: german })).toEqual({ locale: 'pt', byVisitor: false });
    expect(resolveViewerLocale({ param: 'AR', setting: null, preferences: [] })).toEqual({ locale: 'ar', byVisitor: false });
  });

  it('ignores a ?lang= that names no catalogue', () => {
    expect(resolveViewerLocale({ param: 'tlh', setting: 'fr', preferences: german })).toEqual({ locale: 'fr', byVisitor: false });
    expect(resolveViewerLocale({ param: '', setting: 'auto', preferences: german })).toEqual({ locale: 'de', byVisitor: true });
  });

  it('takes the map’s fixed language over the visitor’s browser, the same for everyone', () => {
    expect(resolveViewerLocale({ setting: 'fr', preferences: german })).toEqual({ locale: 'fr', byVisitor: false });
    expect(resolveViewerLocale({ setting: 'en', preferences: german })).toEqual({ locale: 'en', byVisitor: false });
  });

  it('lets the visitor’s browser decide for an automatic map (or one without a setting, or an unknown one), else English', () => {
    expect(resolveViewerLocale({ preferences: ['de-CH', 'en'] })).toEqual({ locale: 'de', byVisitor: true });
    for (const setting of ['auto', null, 'tlh']) {
      expect(resolveViewerLocale({ setting, preferences: german }), String(setting)).toEqual({ locale: 'de', byVisitor: true });
      expect(resolveViewerLocale({ setting, preferences: ['sv', 'ja-JP'] })).toEqual({ locale: 'ja', byVisitor: true });
      // Unsupported or none: English, still chosen by (for) the visitor.
      expect(resolveViewerLocale({ setting, preferences: ['sv'] })).toEqual({ locale: 'en', byVisitor: true });
      expect(resolveViewerLocale({ setting, preferences: [] })).toEqual({ locale: 'en', byVisitor: true });
    }
  });
});

describe('the languages', () => {
  it('names each language in its own words; Arabic alone reads right to left', () => {
    expect(Object.keys(LOCALE_NAMES)).toEqual([...VIEWER_LOCALES]);
    expect(VIEWER_LANGUAGES).toEqual(['auto', ...VIEWER_LOCALES]);
    expect(VIEWER_LOCALES.filter((locale) => directionOf(locale) === 'rtl')).toEqual(['ar']);
  });
});
