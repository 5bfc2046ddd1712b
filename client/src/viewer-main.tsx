/**
 * The public map viewer's own entry (viewer.html, served at /m/{id}): only the viewer, no
 * router, accounts or state machines, so a map in a customer's iframe loads little.
 *
 * A published map's page comes rendered by the server with the map's JSON beside it
 * (client/src/viewer-server.tsx, events/viewer-page-data.ts): Preact (this page's build resolves
 * react and react-dom to preact/compat, vite.config.ts) hydrates that markup and
 * fetches nothing. Without it (a test map, an unknown id, the page built alone) the viewer
 * renders on its own and loads the map from the public API (viewer-app.tsx, loaded then: a
 * published map's first load carries only published-viewer.tsx).
 */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { readViewerPageData, VIEWER_DATA_ID } from '../../events/viewer-page-data';
import { listenEarlyChips } from './features/viewer/early-chips';
import { PublishedViewer } from './features/viewer/published-viewer';
import { I18nProvider } from './i18n/i18n-context';
import { createTranslator, type CompiledCatalogue } from './i18n/translator';
import { ASKS_FOR_DIRECTIONS, loadDirectionsCode } from './features/viewer/directions/use-directions';
import type { PublicMap } from './features/viewer/viewer';
import './viewer-page.css';

const root = document.getElementById('viewer-root');
if (!root) throw new Error('The page has no #viewer-root element.');
const match = /^\/m\/([^/]+)\/?$/.exec(window.location.pathname);
const mapId = match ? decodeURIComponent(match[1]!) : '';
// An address naming a route or a kiosk: the directions' code starts loading now, beside the
// hydration, not after it (the viewer uses it once it knows the map offers directions).
if (ASKS_FOR_DIRECTIONS.test(window.location.search)) void loadDirectionsCode().catch(() => undefined);
const block = document.getElementById(VIEWER_DATA_ID);
const data = block?.textContent ? readViewerPageData(block.textContent) : null;

if (data && root.firstElementChild) {
  // The page's words came with it, in the language the server chose (no catalogue to fetch).
  const translator = createTranslator(data.locale, data.messages as CompiledCatalogue);
  // Group chips pressed before the directory hydrates (features/viewer/early-chips.ts).
  listenEarlyChips();
  hydrateRoot(
    root,
    <StrictMode>
      <I18nProvider translator={translator}>
        <PublishedViewer map={data.map as PublicMap} publicUrl={data.publicUrl} directoryOrder={data.directoryOrder} />
      </I18nProvider>
    </StrictMode>,
  );
} else {
  void import('./features/viewer/viewer-app').then(({ ViewerApp }) =>
    createRoot(root).render(
      <StrictMode>
        <ViewerApp mapId={mapId} />
      </StrictMode>,
    ),
  );
}
