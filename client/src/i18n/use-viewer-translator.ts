/**
 * The viewer's translator in a page that renders without the server (a test map, the app's
 * /m/:id): `?lang=`, else the map's language once it is known, else the browser's languages
 * (events/locales.ts); the catalogue fetched (catalogues.ts). Null until it is in. The page's
 * `<html lang dir>` follow it while the viewer is shown.
 */
import { useEffect } from 'react';
import { resolveViewerLocale, type ViewerLocale } from '../../../events/locales';
import type { Translator } from './translator';
import { useCatalogue } from './use-catalogue';

/** The language a page that renders alone speaks, `setting` being the map's (undefined: not loaded yet). */
export function browserViewerLocale(setting: string | undefined): ViewerLocale {
  const param = new URLSearchParams(window.location.search).get('lang');
  return resolveViewerLocale({ param, setting: setting ?? null, preferences: navigator.languages ?? [navigator.language] }).locale;
}

export function useViewerTranslator(setting: string | undefined): Translator | null {
  const shown = useCatalogue(browserViewerLocale(setting));
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
