/**
 * A map with a location "Hidden from visitors" (issue 27, item 2), and the check that a public
 * answer holds nothing of it: test/server/hidden-locations-public.test.ts and
 * test/e2e/hidden-locations-picture.test.ts.
 */
import { expect } from 'vitest';
import { MapDocument } from '../../events/map-document.js';

export const SECRET = 'SECRET-STOCKROOM';
/** The hidden location's id and the group only it belongs to: neither may show either. */
export const HIDDEN_ID = 'back-office-9';
export const HIDDEN_GROUP = 'Staff-Only-Rooms';

/** A map with one shown location and one hidden one (its title, text, groups, region, entrance). */
export function documentWithHiddenLocation(): MapDocument {
  return MapDocument.parse({
    version: 3,
    settings: { size: { width: 1000, height: 600 }, minZoom: 1, maxZoom: 8, initialView: null, theme: { mode: 'light', accent: '#4f46e5', background: '#f8fafc' }, features: { sidebar: true, search: true, filters: true, minimap: false, zoomButtons: true, fullscreen: true, deepLinks: true }, defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: null }],
    locations: [
      { id: 'cafe', title: 'Café Noir', about: 'Coffee and cake', layer: 'ground', position: { x: 100, y: 200 }, groups: ['food'], entrances: ['door'] },
      {
        id: HIDDEN_ID,
        title: SECRET,
        about: `${SECRET}: the safe`,
        description: `<p>${SECRET} code 4711</p>`,
        phone: '+44 20 0000 0000',
        layer: 'ground',
        position: { x: 700, y: 300 },
        groups: ['staff', 'food'],
        entrances: ['back'],
        hidden: true,
      },
    ],
    groups: [
      { id: 'food', name: 'Food', color: '#ea580c' },
      { id: 'staff', name: HIDDEN_GROUP, color: '#111111' },
    ],
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
    paths: { nodes: [{ id: 'door', layer: 'ground', x: 100, y: 250 }, { id: 'back', layer: 'ground', x: 700, y: 350 }], edges: [{ id: 'hall', from: 'door', to: 'back' }], connectors: [] },
  });
}

/** Nothing of the hidden location in `body`, searched whole: its text, its id, the name of the group only it belongs to. */
export function expectNothingHidden(body: string, where: string): void {
  expect(body.length, where).toBeGreaterThan(0);
  for (const text of [SECRET, HIDDEN_ID, HIDDEN_GROUP, '4711']) expect(body.includes(text), `${where} holds ${text}`).toBe(false);
}
