/**
 * The viewer's catalogues, each its own chunk, fetched when a page needs one that it does not
 * carry (a page the server rendered carries its own, events/viewer-page-data.ts).
 */
import type { ViewerLocale } from '../../../events/locales';
import { createTranslator, type CompiledCatalogue, type Translator } from './translator';

type Loader = () => Promise<{ default: CompiledCatalogue }>;

const LOADERS: Record<ViewerLocale, Loader> = {
  en: () => import('virtual:viewer-messages/en'),
  es: () => import('virtual:viewer-messages/es'),
  fr: () => import('virtual:viewer-messages/fr'),
  de: () => import('virtual:viewer-messages/de'),
  pt: () => import('virtual:viewer-messages/pt'),
  it: () => import('virtual:viewer-messages/it'),
  nl: () => import('virtual:viewer-messages/nl'),
  pl: () => import('virtual:viewer-messages/pl'),
  ja: () => import('virtual:viewer-messages/ja'),
  zh: () => import('virtual:viewer-messages/zh'),
  ar: () => import('virtual:viewer-messages/ar'),
};

const loaded = new Map<ViewerLocale, Promise<Translator>>();

/** The translator of `locale`, its catalogue fetched once. */
export function loadTranslator(locale: ViewerLocale): Promise<Translator> {
  let translator = loaded.get(locale);
  if (!translator) {
    translator = LOADERS[locale]().then((module) => createTranslator(locale, module.default));
    // A failed fetch (a deploy replaced the chunk, the network dropped) may be tried again.
    translator.catch(() => loaded.delete(locale));
    loaded.set(locale, translator);
  }
  return translator;
}
