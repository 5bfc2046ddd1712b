/**
 * The viewer's translator in a page that renders without the server (a test map, the app's
 * /m/:id): `?lang=`, else the map's language once it is known, else the browser's languages
 * (events/locales.ts); the catalogue fetched (catalogues.ts). Null until it is in. The page's
 * `<html lang dir>` follow it while the viewer is shown.
 */
import { useEffect, useState } from 'react';
import { resolveViewerLocale, type ViewerLocale } from '../../../events/locales';
import { loadTranslator } from './catalogues';
import type { Translator } from './translator';

/** The language a page that renders alone speaks, `setting` being the map's (undefined: not loaded yet). */
export function browserViewerLocale(setting: string | undefined): ViewerLocale {
  const param = new URLSearchParams(window.location.search).get('lang');
  return resolveViewerLocale({ param, setting: setting ?? null, preferences: navigator.languages ?? [navigator.language] }).locale;
}

export function useViewerTranslator(setting: string | undefined): Translator | null {
  const locale = browserViewerLocale(setting);
  const [translator, setTranslator] = useState<Translator | null>(null);
  useEffect(() => {
    let current = true;
    // A catalogue that cannot be fetched leaves the last one shown (or the loading state).
    loadTranslator(locale).then((loaded) => current && setTranslator(loaded), () => undefined);
    return () => {
      current = false;
    };
  }, [locale]);
  // While another language's catalogue comes, the last one stays.
  const shown = translator;
  useEffect(() => {
    if (!shown) return;
    const root = document.documentElement;
    const before = { lang: root.lang, dir: root.dir };
    root.lang = shown.locale;
    root.dir = shown.dir;
    return () => {
      root.lang = before.lang;
      root.dir = before.dir;
    };
  }, [shown]);
  return shown;
}
