/**
 * A published map's page carries its locations without their default-valued fields, and the
 * defaults once (events/compact-locations.ts, events/viewer-page-data.ts): the defaults written
 * there are the schema's own, and a document comes back from the page's data block whole and
 * equal, for the demo mall and the 25,000-store chain (real GeoNames places,
 * test/fixtures/import/csv/SOURCES.md), in about a third of the bytes.
 */
import { describe, expect, it } from 'vitest';
import { compactDocument, compactLocation, expandDocument, LOCATION_DEFAULTS, pageLocationDefaults } from '../../events/compact-locations';
import { Location, MapDocument } from '../../events/map-document';
import { readViewerPageData, serializeViewerPageData, type ViewerPageData } from '../../events/viewer-page-data';
import { demoMallDocument } from '../../server/seed/demo-mall';
import { storeChainFixtureDocument } from '../support/store-chain-map';

const pageData = (data: unknown): ViewerPageData => ({
  map: { id: 'm1', title: 'Map </script>', state: 1, data, revision: '3', test: false },
  publicUrl: 'https://maps.example.com',
  locale: 'en',
  messages: {},
});
const roundTrip = (data: unknown) => readViewerPageData(serializeViewerPageData(pageData(data))).map.data;


describe('compact locations', () => {
  it('leaves out exactly the fields the schema fills with a default, with the same defaults', () => {
    const minimal = Location.parse({ id: 'a', title: 'A', layer: 'ground' });
    const { id, title, layer, ...defaults } = minimal;
    expect({ id, title, layer }).toEqual({ id: 'a', title: 'A', layer: 'ground' });
    expect(defaults).toEqual(LOCATION_DEFAULTS);
    expect(compactLocation(minimal)).toEqual({ id: 'a', title: 'A', layer: 'ground' });
    expect(expandDocument(compactDocument({ locations: [minimal] }), LOCATION_DEFAULTS)).toEqual({ locations: [minimal] });
  });

  it('keeps every field that differs from its default, and fields it does not know', () => {
    const full = Location.parse({
      id: 'b', title: 'Bäckerei', layer: 'ground', about: 'Bread', description: '<p>Fresh</p>', image: 'https://example.com/a.png', thumbnail: 'https://example.com/t.png',
      link: 'https://example.com', phone: '+49 30 1234', hours: '8–18', position: { x: 0, y: 0 }, element: 'shop-1', zoom: 2, marker: 'label', color: '#ff0000', label: 'B',
      groups: ['g'], hidden: true, entrances: ['n1'],
    });
    expect(compactLocation(full)).toEqual(full);
    expect(roundTrip({ locations: [{ ...full, futureField: 0 }] })).toEqual({ locations: [{ ...full, futureField: 0 }] });
    // A position at the origin and an empty title are values, not defaults.
    expect(compactLocation({ id: 'c', title: '', layer: 'l', position: { x: 0, y: 0 }, hidden: false, marker: 'dot' })).toEqual({ id: 'c', title: '', layer: 'l', position: { x: 0, y: 0 }, marker: 'dot' });
  });

  it('leaves out the layer most locations are on, and keeps every other layer', () => {
    const on = (id: string, layer: string) => Location.parse({ id, title: id, layer });
    const document = { locations: [on('a', 'ground'), on('b', 'first'), on('c', 'ground'), on('d', 'ground'), on('e', 'first')] };
    const defaults = pageLocationDefaults(document);
    expect(defaults).toEqual({ ...LOCATION_DEFAULTS, layer: 'ground' });
    expect((compactDocument(document, defaults) as typeof document).locations.map((location) => location.layer ?? '(default)')).toEqual(['(default)', 'first', '(default)', '(default)', 'first']);
    expect(roundTrip(document)).toEqual(document);
    // No location with a layer: the schema's defaults alone.
    expect(pageLocationDefaults({ locations: [] })).toBe(LOCATION_DEFAULTS);
    expect(pageLocationDefaults({ locations: 'none' })).toBe(LOCATION_DEFAULTS);
  });

  it('passes through what is not a document or a location untouched', () => {
    for (const odd of [null, 3, 'text', [1], { locations: 'none' }, { locations: [null, 2] }]) expect(roundTrip(odd)).toEqual(odd);
    expect(compactLocation(null)).toBeNull();
  });

  it('reads a page written before the locations were compact', () => {
    const whole = { locations: [Location.parse({ id: 'a', title: 'A', layer: 'ground' })] };
    expect(readViewerPageData(JSON.stringify(pageData(whole))).map.data).toEqual(whole);
  });

  it('gives the demo mall and the 25,000-store chain back equal from the page, in about a third of the bytes', async () => {
    for (const document of [MapDocument.parse(demoMallDocument()), MapDocument.parse(await storeChainFixtureDocument())]) {
      const block = serializeViewerPageData(pageData(document));
      expect(readViewerPageData(block).map.data).toEqual(document);
      const ratio = block.length / JSON.stringify(pageData(document)).length;
      expect(ratio).toBeLessThan(document.locations.length > 1000 ? 0.5 : 0.95);
    }
  });
});
