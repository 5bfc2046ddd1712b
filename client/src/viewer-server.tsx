/**
 * The viewer rendered on the server (`vite build --ssr`, into dist/server/viewer-server.js):
 * the markup of `#viewer-root` for a published map, exactly what the browser's first render
 * of client/src/viewer-main.tsx gives when it hydrates it. The floor, the markers and the
 * directory are in it, so the map is on screen and readable before, or without, JavaScript.
 *
 * Imported only by the server (server/public-maps/ssr-viewer-page.ts), which assembles the
 * page around it; built by Vite so the viewer's CSS imports resolve.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { PublicMap as PublicMapRecord } from '../../events/http-api';
import { RegionTintsContext, type RegionTints } from './components/map/region-tints';
import { PublishedViewer } from './features/viewer/published-viewer';
import { MarkerClusters } from './components/map/clustering';
import { setStaticClusterer } from './components/map/static-map';
import { preloadViewerParts, type PublicMap } from './features/viewer/viewer';
import type { ViewerLocale } from '../../events/locales';
import { I18nProvider } from './i18n/i18n-context';
import { createTranslator, type CompiledCatalogue, type Translator } from './i18n/translator';
import en from 'virtual:viewer-messages/en';
import es from 'virtual:viewer-messages/es';
import fr from 'virtual:viewer-messages/fr';
import de from 'virtual:viewer-messages/de';
import pt from 'virtual:viewer-messages/pt';
import it from 'virtual:viewer-messages/it';
import nl from 'virtual:viewer-messages/nl';
import pl from 'virtual:viewer-messages/pl';
import ja from 'virtual:viewer-messages/ja';
import zh from 'virtual:viewer-messages/zh';
import ar from 'virtual:viewer-messages/ar';

/** Every catalogue, compiled by the build: the server renders any page in any of them. */
const CATALOGUES: Record<ViewerLocale, CompiledCatalogue> = { en, es, fr, de, pt, it, nl, pl, ja, zh, ar };
const translators = new Map<ViewerLocale, Translator>();

/** The translator of `locale`: its words for the markup, its catalogue for the page's data block. */
export function viewerTranslator(locale: ViewerLocale): Translator {
  let translator = translators.get(locale);
  if (!translator) translators.set(locale, (translator = createTranslator(locale, CATALOGUES[locale])));
  return translator;
}

// The parts the browser hydrates later (lazy-part.ts) are rendered here in full: their code
// is loaded before this module is ready, so renderToString never meets an unloaded part.
await preloadViewerParts();

/**
 * A layer with many points goes into the page as its clusters at the opening view, as a
 * desktop's map area (about this size) would show them: a 25,000-store map is a few hundred
 * badges of markup, not 25,000 markers.
 */
const NOMINAL_MAP_AREA = { width: 960, height: 640 };
setStaticClusterer((points, width, height, zoom) => {
  const index = new MarkerClusters(points, { width, height, maxZoom: Math.max(1, zoom) });
  const k = Math.min(NOMINAL_MAP_AREA.width / width, NOMINAL_MAP_AREA.height / height) * zoom;
  return index.query(0, 0, width, height, Math.max(0, Math.floor(index.levelOf(k))));
});

/**
 * The markup of the page's `#viewer-root` for this map in `locale` (`publicUrl`: the site's
 * address; `tints`: the floor's regions filled for the page without JavaScript,
 * server/public-maps/region-tints.ts).
 */
export function renderViewer(map: PublicMapRecord, publicUrl: string, tints: RegionTints | null, locale: ViewerLocale): string {
  return renderToString(
    <StrictMode>
      <I18nProvider translator={viewerTranslator(locale)}>
        <RegionTintsContext.Provider value={tints}>
          <PublishedViewer map={map as PublicMap} publicUrl={publicUrl} />
        </RegionTintsContext.Provider>
      </I18nProvider>
    </StrictMode>,
  );
}
