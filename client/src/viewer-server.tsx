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
import { PublishedViewer } from './features/viewer/published-viewer';
import { preloadViewerParts, type PublicMap } from './features/viewer/viewer';

// The parts the browser hydrates later (lazy-part.ts) are rendered here in full: their code
// is loaded before this module is ready, so renderToString never meets an unloaded part.
await preloadViewerParts();

/** The markup of the page's `#viewer-root` for this map (`publicUrl`: the site's address). */
export function renderViewer(map: PublicMapRecord, publicUrl: string): string {
  return renderToString(
    <StrictMode>
      <PublishedViewer map={map as PublicMap} publicUrl={publicUrl} />
    </StrictMode>,
  );
}
