/**
 * What a published map's page links for preloading (client/src/viewer-server.tsx's
 * firstRenderModules, issue 29's benchmark): the canvas's clustering code only when the opening
 * floor clusters on the canvas. A floor on the street basemap is drawn and clustered by MapLibre,
 * so its page fetches none of the canvas's code (the interactive code and its marker layer, the
 * clustering code and supercluster).
 */
import { describe, expect, it } from 'vitest';
import { firstRenderModules } from '../../client/src/viewer-server';
import type { PublicMap } from '../../events/http-api';
import { emptyMapDocument, type MapDocument } from '../../events/map-document';
import { location } from './support/locations';

const CLUSTERS = 'src/components/map/cluster-control.tsx';
const MERCATOR = { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 } as const;

function map(layer: Partial<MapDocument['layers'][number]>, count: number): PublicMap {
  const base = emptyMapDocument();
  const document: MapDocument = {
    ...base,
    settings: { ...base.settings, defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Texas', file: null, ...layer }],
    locations: Array.from({ length: count }, (_, index) => location({ id: `s${index}`, title: `Store ${index}`, position: { x: (index * 37) % 1000, y: (index * 53) % 800 } })),
  };
  return { id: 'stores', title: 'Stores', state: 1, data: document, revision: '1', test: false };
}

describe('the modules a map’s page preloads', () => {
  it('has the canvas’s clustering code for a floor plan with many points, not for a few', () => {
    expect(firstRenderModules(map({}, 3000))).toContain(CLUSTERS);
    expect(firstRenderModules(map({}, 3))).not.toContain(CLUSTERS);
  });

  it('has nothing of the canvas for a floor on the street basemap, whatever its points (MapLibre draws, clusters and picks them)', () => {
    expect(firstRenderModules(map({ basemap: true, geo: MERCATOR }, 3000))).toEqual([]);
    expect(firstRenderModules(map({ basemap: true, geo: MERCATOR }, 3))).toEqual([]);
  });

  it('has it for a basemap floor that is drawn on its own (not on Web Mercator bounds)', () => {
    expect(firstRenderModules(map({ basemap: true }, 3000))).toContain(CLUSTERS);
  });
});
