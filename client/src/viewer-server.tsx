/**
 * The viewer rendered on the server (`vite build --ssr`, into dist/server/viewer-server.js):
 * the markup of `#viewer-root` for a published map, exactly what the browser's first render
 * of client/src/viewer-main.tsx gives when it hydrates it. The floor, the markers and the
 * directory are in it, so the map is on screen and readable before, or without, JavaScript.
 *
 * Imported only by the server (server/public-maps/ssr-viewer-page.ts), which assembles the
 * page around it; built by Vite so the viewer's CSS imports resolve, on Preact like the page's
 * script (vite.config.ts: react resolves to preact/compat, react-dom/server to
 * preact-render-to-string).
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { PublicMap as PublicMapRecord } from '../../events/http-api';
import { RegionTintsContext, type RegionTints } from './components/map/region-tints';
import { PublishedViewer } from './features/viewer/published-viewer';
import { MarkerClusters } from './components/map/clustering';
import { setStaticClusterer } from './components/map/static-map';
import { layerClusters } from './components/map/cluster-items';
import { isBasemapFloor } from './components/map/is-basemap-floor';
import type { Layer } from './components/map/types';
import { preloadViewerParts, type PublicMap } from './features/viewer/viewer';
import { preloadBasemapFrame } from './components/map/map-renderer';
import { preloadNearPanel } from './features/viewer/viewer-directory';
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
// A basemap floor's frame: MapLibre never runs here (the browser draws the map into the frame).
await preloadBasemapFrame();
// The store locator's control in a geographic map's directory (its code rides with the directions', no MapLibre in it).
await preloadNearPanel();

/**
 * A layer with many points goes into the page as its clusters at the opening view, as a
 * desktop's map area (about this size) would show them: a 25,000-store map is a few hundred
 * badges of markup, not 25,000 markers.
 */
const NOMINAL_MAP_AREA = { width: 960, height: 640 };
setStaticClusterer((points, width, height, zoom, maxZoom) => {
  // With the document's deepest zoom, as the canvas clusters: the same clusters (clustering.ts).
  const index = new MarkerClusters(points, { width, height, maxZoom: Math.max(1, maxZoom) });
  const k = Math.min(NOMINAL_MAP_AREA.width / width, NOMINAL_MAP_AREA.height / height) * zoom;
  return index.query(0, 0, width, height, Math.max(0, Math.floor(index.levelOf(k))));
});

/**
 * The source modules (as the client's manifest names them) that hydrating this map's page loads
 * first: the canvas's markers, pan and zoom (interactive.ts), and the clustering code when the
 * layer the page opens on clusters on the canvas. A floor on the street basemap is drawn,
 * clustered and picked by MapLibre, so its page fetches neither (the canvas's interactive code,
 * 6.6 KB gzipped with its marker layer, and the clustering code, 5 KB): a drawn floor shown later
 * loads them as its canvas starts (canvas-map-view.ts).
 * The page links them for preloading (server/public-maps/ssr-viewer-page.ts), so they arrive with
 * the entry, not after hydration.
 */
export function firstRenderModules(map: PublicMapRecord): string[] {
  const doc = map.data as { settings?: { defaultLayer?: string | null }; layers?: Array<{ id?: unknown } & Partial<Pick<Layer, 'basemap' | 'geo'>>>; locations?: unknown } | null;
  const layers = Array.isArray(doc?.layers) ? doc.layers : [];
  const opening = layers.find((layer) => layer.id === doc?.settings?.defaultLayer) ?? layers[0];
  const locations = Array.isArray(doc?.locations) ? (doc.locations as Parameters<typeof layerClusters>[0]) : [];
  if (opening && isBasemapFloor(opening)) return [];
  const clustered = typeof opening?.id === 'string' && layerClusters(locations, opening.id);
  return ['src/components/map/interactive.ts', ...(clustered ? ['src/components/map/cluster-control.tsx'] : [])];
}

/**
 * The markup of the page's `#viewer-root` for this map in `locale` (`publicUrl`: the site's
 * address; `tints`: the floor's regions filled for the page without JavaScript,
 * server/public-maps/region-tints.ts; `directoryOrder`: the directory's order, which the page's
 * data block carries too, events/directory-order.ts).
 */
export function renderViewer(map: PublicMapRecord, publicUrl: string, tints: RegionTints | null, locale: ViewerLocale, directoryOrder?: readonly number[]): string {
  return renderToString(
    <StrictMode>
      <I18nProvider translator={viewerTranslator(locale)}>
        <RegionTintsContext.Provider value={tints}>
          <PublishedViewer map={map as PublicMap} publicUrl={publicUrl} directoryOrder={directoryOrder} />
        </RegionTintsContext.Provider>
      </I18nProvider>
    </StrictMode>,
  );
}
