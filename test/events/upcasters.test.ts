/**
 * Upcasting on read (events/upcasters.ts), given/then: each event an earlier version recorded
 * with values today's schemas refuse (built here as that code recorded it, through JSON as the
 * store keeps it) reads, after upcasting, as an event the map's reader schema takes, meaning the
 * same thing as near as it can; a valid event comes back as the very same object.
 */
import { describe, expect, it } from 'vitest';
import { elementIdFor } from '../../events/element-id.js';
import { emptyMapDocument, MapDocument } from '../../events/map-document.js';
import { MapEvent } from '../../events/map.js';
import { UPCAST_VERSION, UPCASTERS, upcast, type StoredEvent } from '../../events/upcasters.js';

const at = '2026-11-28T10:00:00.000Z';
/** What the store gives back: JSON, so Infinity and NaN come back as null. */
const stored = (type: string, data: unknown): StoredEvent => ({ type, data: JSON.parse(JSON.stringify(data)) });
const location = (id: string, fields: Record<string, unknown> = {}) => ({ id, title: `Place ${id}`, layer: 'ground', ...fields });

function readsAs(event: StoredEvent) {
  const refused = MapEvent.safeParse(event);
  const read = MapEvent.safeParse(upcast(event));
  expect(read.success, read.success ? '' : JSON.stringify(read.error.issues)).toBe(true);
  return { refusedBefore: !refused.success, event: read.data! };
}

describe('upcasters', () => {
  it('are versioned in order, and leave a valid event as the same object', () => {
    expect(UPCASTERS.map((u) => u.version)).toEqual([1, 2, 3, 4, 5]);
    expect(UPCAST_VERSION).toBe(5);
    const event = stored('MapCreated', { mapId: 'm1', uid: 'u1', author: 'u1', title: 'Mall', state: 0, document: emptyMapDocument(), created: at });
    expect(upcast(event)).toBe(event);
  });

  it('given an ImportApplied whose locations name the regions "11" and "-99", then they name the same regions by elementIdFor', () => {
    const event = stored('ImportApplied', {
      mapId: 'm1',
      edited: at,
      source: { format: 'geojson', name: 'us-states.geojson', mapping: null },
      layers: [],
      groups: [],
      locations: [location('dc', { element: '11' }), location('nc', { element: '-99' }), location('tx', { element: 'TX' })],
      updates: [{ id: 'old', changes: { element: '06' } }],
    });
    const { refusedBefore, event: read } = readsAs(event);
    expect(refusedBefore).toBe(true);
    expect(read.type === 'ImportApplied' && read.data.locations.map((l) => l.element)).toEqual([elementIdFor('11'), elementIdFor('-99'), 'TX']);
    expect(read.type === 'ImportApplied' && read.data.updates[0]!.changes.element).toBe(elementIdFor('06'));
    expect(elementIdFor('11')).not.toBe('11');
  });

  it('given a LocationAdded and a LocationUpdated naming region "-99", then both read as its element id', () => {
    expect(readsAs(stored('LocationAdded', { mapId: 'm1', edited: at, location: location('a', { element: '-99' }) })).event).toMatchObject({ data: { location: { element: elementIdFor('-99') } } });
    expect(readsAs(stored('LocationUpdated', { mapId: 'm1', edited: at, id: 'a', changes: { element: '11' } })).event).toMatchObject({ data: { changes: { element: elementIdFor('11') } } });
  });

  it('given a floor calibrated to Infinity and NaN (a degenerate shape), then the floor reads as not calibrated', () => {
    const geo = { kind: 'd3', projection: 'mercator', scale: Infinity, translate: [NaN, 3] };
    const { refusedBefore, event } = readsAs(stored('ImportApplied', { mapId: 'm1', edited: at, source: { format: 'kml', name: 'a.kml', mapping: null }, layers: [{ id: 'geo', name: 'Map', geo }] }));
    expect(refusedBefore).toBe(true);
    expect(event.type === 'ImportApplied' && event.data.layers[0]).toEqual({ id: 'geo', name: 'Map', file: null });
    expect(readsAs(stored('LayerCalibrated', { mapId: 'm1', edited: at, id: 'geo', geo: { ...geo, scale: 10, translate: [1, NaN] } })).event).toMatchObject({ data: { geo: null } });
    const flat = { kind: 'bounds', projection: 'mercator', north: 10, south: 10, west: 0, east: 5 };
    expect(readsAs(stored('LayerCalibrated', { mapId: 'm1', edited: at, id: 'geo', geo: flat })).event).toMatchObject({ data: { geo: null } });
  });

  it('given locations at y: NaN (a lat/lng import on a floor calibrated to north 90), then they read without a position', () => {
    const event = stored('ImportApplied', {
      mapId: 'm1',
      edited: at,
      source: { format: 'csv', name: 'stores.csv', mapping: { title: 'Name' } },
      locations: [location('n', { position: { x: 4, y: NaN } }), location('s', { position: { x: 4, y: 5 }, zoom: Infinity })],
    });
    const { event: read } = readsAs(event);
    expect(read.type === 'ImportApplied' && read.data.locations.map((l) => [l.position, l.zoom])).toEqual([[null, null], [{ x: 4, y: 5 }, null]]);
    // A move to nowhere: the position taken off instead.
    expect(readsAs(stored('LocationMoved', { mapId: 'm1', edited: at, id: 'n', position: { x: 1, y: NaN }, layer: 'ground' })).event).toEqual({
      type: 'LocationUpdated',
      data: { mapId: 'm1', edited: at, id: 'n', changes: { position: null, layer: 'ground' } },
    });
  });

  it('given a floor drawing of 0 × 0 (an SVG with a tiny viewBox), then it reads as 1 × 1', () => {
    const file = { kind: 'svg', url: '/files/AAAAAAAAAAAAAAAAAAAAAA', width: 0, height: 0 };
    const { refusedBefore, event } = readsAs(stored('LayerAdded', { mapId: 'm1', edited: at, layer: { id: 'f2', name: 'Floor 2', file } }));
    expect(refusedBefore).toBe(true);
    expect(event).toMatchObject({ data: { layer: { file: { width: 1, height: 1 } } } });
    expect(readsAs(stored('LayerFileReplaced', { mapId: 'm1', edited: at, id: 'f2', file })).event).toMatchObject({ data: { file: { width: 1, height: 1 } } });
  });

  it('given a title cut inside an emoji and a NUL, then they read as well-formed text', () => {
    const title = `Caf\u00e9 \ud83c`;
    const { event } = readsAs(stored('LocationUpdated', { mapId: 'm1', edited: at, id: 'a', changes: { title, about: 'a\u0000b' } }));
    expect(event).toMatchObject({ data: { changes: { title: 'Café \ufffd', about: 'ab' } } });
  });

  it('given a MapRestored whose document was edited past the limits, then it reads cut to them with its references kept whole', () => {
    const base = emptyMapDocument();
    const groups = Array.from({ length: 205 }, (_, i) => ({ id: `g${i}`, name: `Group ${i}`, color: '#123456' }));
    const document = {
      ...base,
      groups,
      locations: [location('a', { groups: ['g0', 'g204'] }), location('b', { title: 'x'.repeat(250) }), location('b', {})],
    };
    expect(MapDocument.safeParse(document).success).toBe(false);
    const { refusedBefore, event } = readsAs(stored('MapRestored', { mapId: 'm1', edited: at, historyId: 'h1', revision: '3', document }));
    expect(refusedBefore).toBe(true);
    if (event.type !== 'MapRestored') throw new Error(event.type);
    expect(event.data.document.groups).toHaveLength(200);
    expect(event.data.document.locations.map((l) => [l.id, l.groups, l.title.length])).toEqual([
      ['a', ['g0'], 7],
      ['b', [], 200],
    ]);
  });
});
