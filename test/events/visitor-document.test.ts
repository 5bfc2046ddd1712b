/**
 * What a visitor may see of a map (events/visitor-document.ts): hidden locations and the groups
 * only they belong to are gone, the rest is untouched, and the answer is still a document every
 * reader takes.
 */
import { describe, expect, it } from 'vitest';
import { MapDocument } from '../../events/map-document';
import { hiddenLocationIds, visitorDocument } from '../../events/visitor-document';

const SECRET = 'SECRET-STOCKROOM';

function document(): MapDocument {
  return MapDocument.parse({
    version: 3,
    settings: { size: { width: 1000, height: 600 }, minZoom: 1, maxZoom: 8, initialView: null, theme: { mode: 'light', accent: '#4f46e5', background: '#f8fafc' }, features: { sidebar: true, search: true, filters: true, minimap: false, zoomButtons: true, fullscreen: true, deepLinks: true }, defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: null }],
    locations: [
      { id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 100, y: 200 }, groups: ['food', 'both'], entrances: ['door'] },
      { id: 'stockroom', title: SECRET, about: `${SECRET} about`, description: `<p>${SECRET} keys under the mat</p>`, layer: 'ground', position: { x: 300, y: 200 }, element: 'room-9', groups: ['staff', 'both'], entrances: ['back'], hidden: true },
    ],
    groups: [
      { id: 'food', name: 'Food', color: '#ea580c' },
      { id: 'staff', name: `${SECRET} staff only`, color: '#111111' },
      { id: 'both', name: 'Ground floor shops', color: '#222222' },
      { id: 'empty', name: 'Coming soon', color: '#333333' },
    ],
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
    paths: { nodes: [{ id: 'door', layer: 'ground', x: 100, y: 250 }, { id: 'back', layer: 'ground', x: 300, y: 250 }], edges: [{ id: 'hall', from: 'door', to: 'back' }], connectors: [] },
  });
}

describe('visitorDocument', () => {
  it('leaves out hidden locations, whole: nothing of their text is left anywhere in the document', () => {
    const stored = document();
    const shown = visitorDocument(stored);
    expect(shown.locations.map((location) => location.id)).toEqual(['cafe']);
    expect(JSON.stringify(shown)).not.toContain(SECRET);
    expect(JSON.stringify(shown)).not.toContain('stockroom');
    expect(JSON.stringify(shown)).not.toContain('room-9');
  });

  it('leaves out the groups only hidden locations belong to, and keeps shared and empty ones', () => {
    const shown = visitorDocument(document());
    expect(shown.groups.map((group) => group.id)).toEqual(['food', 'both', 'empty']);
  });

  it('keeps everything else as it was, and stays a document every reader takes', () => {
    const stored = document();
    const shown = visitorDocument(stored);
    expect(shown.settings).toBe(stored.settings);
    expect(shown.layers).toBe(stored.layers);
    expect(shown.paths).toBe(stored.paths);
    expect(shown.locations[0]).toBe(stored.locations[0]);
    expect(MapDocument.parse(shown)).toEqual(shown);
    // The stored document is not changed.
    expect(stored.locations).toHaveLength(2);
  });

  it('gives the very same document when nothing is hidden (a large map is not copied)', () => {
    const stored = document();
    const open = { ...stored, locations: stored.locations.map((location) => ({ ...location, hidden: false })) };
    expect(visitorDocument(open)).toBe(open);
  });

  it('takes a document as a read model stored it, without a full parse (fields left out)', () => {
    const raw = { version: 3, layers: [], locations: [{ id: 'a', title: 'A', layer: 'g' }, { id: 'b', title: SECRET, layer: 'g', hidden: true }], groups: [] } as unknown as MapDocument;
    expect(JSON.stringify(visitorDocument(raw))).not.toContain(SECRET);
    expect(visitorDocument(null as unknown as MapDocument)).toBeNull();
  });
});

describe('hiddenLocationIds', () => {
  it('names the hidden locations only', () => {
    expect([...hiddenLocationIds(document())]).toEqual(['stockroom']);
  });
});
