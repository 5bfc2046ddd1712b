/**
 * The store locator's control in the server's page (issue 29): a map with a geographic floor
 * renders "Find the nearest" with the rest of its directory, as the server renders the viewer
 * (renderToString with the parts that hydrate later loaded first, client/src/viewer-server.tsx);
 * a floor plan's page has none. test/e2e/basemap-leftovers.test.ts hydrates it in Chromium.
 */
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadViewerParts, Viewer, type PublicMap } from '../../client/src/features/viewer/viewer';
import { preloadNearPanel } from '../../client/src/features/viewer/viewer-directory';
import { emptyMapDocument, type MapDocument } from '../../events/map-document';
import { location } from './support/locations';

function map(geographic: boolean): PublicMap {
  const base = emptyMapDocument();
  const document: MapDocument = {
    ...base,
    settings: { ...base.settings, defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Texas', file: null, ...(geographic ? { geo: { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 } } : {}) }],
    locations: [location({ id: 'dallas', title: 'Dallas store', position: { x: 600, y: 300 } }), location({ id: 'austin', title: 'Austin store', position: { x: 500, y: 500 } })],
  };
  return { id: 'stores', title: 'Texas stores', state: 1, data: document, revision: '1', test: false };
}

beforeAll(() => Promise.all([preloadViewerParts(), preloadNearPanel()]));

describe('the server’s page of a map', () => {
  it('has the store locator’s form in its directory when a floor is geographic', () => {
    const html = renderToString(<Viewer map={map(true)} serverRendered />);
    expect(html).toContain('role="search" aria-label="Find the nearest"');
    // (React writes `class` first, Preact, which renders the viewer's pages, last.)
    expect(html).toMatch(/<label (?=[^>]*class="mf-near__label")[^>]*>Find the nearest<\/label>/);
    expect(html).toContain('Use my location');
  });

  it('has none on a floor plan', () => {
    expect(renderToString(<Viewer map={map(false)} serverRendered />)).not.toContain('Find the nearest');
  });
});
