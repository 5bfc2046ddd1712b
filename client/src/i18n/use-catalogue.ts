/**
 * The translator of `locale`, its catalogue fetched (catalogues.ts); null until the first one
 * is in. While another language's catalogue comes, or if it cannot be fetched, the last one stays.
 */
import { useEffect, useState } from 'react';
import type { ViewerLocale } from '../../../events/locales';
import { loadTranslator } from './catalogues';
import type { Translator } from './translator';

export function useCatalogue(locale: ViewerLocale | null): Translator | null {
  const [translator, setTranslator] = useState<Translator | null>(null);
  useEffect(() => {
    if (!locale) return;
    let current = true;
    loadTranslator(locale).then(
      (loaded) => current && setTranslator(loaded),
      () => undefined, // offline, or a new deploy replaced the chunk: the last one stays
    );
    return () => {
      current = false;
    };
  }, [locale]);
  return translator;
}
