/**
 * The languages the published viewer speaks (issue 19), and which one a visitor gets.
 *
 * A map's `settings.language` is one of {@link VIEWER_LOCALES} or `auto` (the visitor's
 * browser decides); `?lang=` in the viewer's address overrides both. The server negotiates
 * from `Accept-Language` for the page it renders (server/routes/public-map-routes.ts), the
 * browser from `navigator.languages` when it renders alone: both through {@link resolveViewerLocale}.
 *
 * Pure: shared by the server, the client and the tests.
 */
// No zod here: the viewer's first load imports this module (the schema is in map-document.ts).

/**
 * BCP 47 tags of the viewer's catalogues (client/src/i18n/messages/{tag}/). `zh` is Chinese in
 * simplified characters; `ar` is the right-to-left check.
 */
export const VIEWER_LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'ja', 'zh', 'ar'] as const;
export type ViewerLocale = (typeof VIEWER_LOCALES)[number];
export const DEFAULT_LOCALE: ViewerLocale = 'en';

/** A map's language setting: a catalogue's tag, or `auto` for the visitor's browser. */
export const VIEWER_LANGUAGES = ['auto', ...VIEWER_LOCALES] as const;
export type ViewerLanguage = (typeof VIEWER_LANGUAGES)[number];

/** Each language's own name, for the editor's setting and any language menu. */
export const LOCALE_NAMES: Record<ViewerLocale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  ja: '日本語',
  zh: '简体中文',
  ar: 'العربية',
};

export { directionOf } from './locale-direction.js';

export function isViewerLocale(value: unknown): value is ViewerLocale {
  return typeof value === 'string' && (VIEWER_LOCALES as readonly string[]).includes(value);
}

/**
 * The catalogue for one language tag as a browser or `?lang=` writes it (`pt-BR`, `zh-Hans-CN`,
 * `ES`), or null: the tag's primary language, case-insensitively. Every Chinese variant reads
 * the simplified catalogue (better than English for a reader of traditional characters).
 */
export function localeOfTag(tag: string): ViewerLocale | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isViewerLocale(primary) ? primary : null;
}

/** The first of a visitor's languages, in their order of preference, that has a catalogue. */
export function negotiateLocale(preferences: readonly string[]): ViewerLocale | null {
  for (const tag of preferences) {
    const locale = localeOfTag(tag);
    if (locale) return locale;
  }
  return null;
}

/** A weight as RFC 9110 §12.4.2 writes it: 0 to 1, at most three decimals (spaces around `=` forgiven). */
const QVALUE = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The tags of an `Accept-Language` header in order of preference (RFC 9110 §12.5.4): by
 * q-value, ties in written order; `q=0`, a malformed weight (`q=banana`, `q=2`) and `*`
 * dropped. At most 20 entries are read.
 */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      let weight = 1;
      for (const param of params.map((text) => text.trim())) {
        if (!/^q\s*=/i.test(param)) continue;
        const q = QVALUE.exec(param);
        weight = q ? Number(q[1]) : 0; // a weight not understood is no preference to act on
      }
      return { tag: tag.trim(), weight, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

export interface LocaleChoice {
  /** `?lang=` of the viewer's address, if any (ignored when it names no catalogue). */
  param?: string | null;
  /** The map's `settings.language` (absent in documents written before it existed: `auto`). */
  setting?: string | null;
  /** The visitor's languages, most preferred first (Accept-Language, navigator.languages). */
  preferences: readonly string[];
}

export interface ResolvedLocale {
  locale: ViewerLocale;
  /**
   * Whether the visitor's own languages decided it: the page then varies with
   * `Accept-Language` (a cache must key on it); otherwise it is the same for everyone.
   */
  byVisitor: boolean;
}

/** The viewer's language: `?lang=`, else the map's setting, else the visitor's browser, else English. */
export function resolveViewerLocale({ param, setting, preferences }: LocaleChoice): ResolvedLocale {
  const asked = param ? localeOfTag(param) : null;
  if (asked) return { locale: asked, byVisitor: false };
  if (isViewerLocale(setting)) return { locale: setting, byVisitor: false };
  return { locale: negotiateLocale(preferences) ?? DEFAULT_LOCALE, byVisitor: true };
}
