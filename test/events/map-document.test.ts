/** The map document model: today's version parses as it is, older ones migrate, bad ones name the field. */
import { describe, expect, it } from 'vitest';
import { BASEMAP_NEEDS_MERCATOR, emptyMapDocument, MapDocument, MapDocumentInput, metricsOf, withoutForeignLayerFiles } from '../../events/map-document.js';
import { checkEdit } from '../../events/map-edits.js';

const problems = (input: unknown) => {
  const result = MapDocument.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

const withLocation = (location: Record<string, unknown>) => ({
  ...emptyMapDocument(),
  locations: [{ id: 'cafe', title: 'Cafe', layer: 'ground', ...location }],
});

describe('map document', () => {
  it('a blank map is one empty floor, and parses as it is', () => {
    const blank = emptyMapDocument();
    expect(MapDocument.parse(blank)).toEqual(blank);
    expect(metricsOf(blank)).toEqual({ layerCount: 1, locationCount: 0 });
  });

  it('fills defaults for what a location leaves out', () => {
    const parsed = MapDocument.parse(withLocation({ position: { x: 10, y: 20 } }));
    expect(parsed.locations[0]).toEqual({
      id: 'cafe', title: 'Cafe', about: '', description: '', image: null, thumbnail: null, link: null, phone: '', hours: '',
      layer: 'ground', position: { x: 10, y: 20 }, element: null, zoom: null, marker: 'pin', color: null, label: '', groups: [], hidden: false, entrances: [],
    });
  });

  it('migrates version 1 documents (with or without the version field)', () => {
    const v1 = { layers: [{ id: 'f1', name: 'First' }, { id: 'f2' }], locations: [{ id: 'a', title: 'Alpha', layer: 'f2' }, { id: 'b' }], extra: 'kept out' };
    const migrated = MapDocument.parse(v1);
    expect(migrated.version).toBe(3);
    expect(migrated.layers).toEqual([{ id: 'f1', name: 'First', file: null }, { id: 'f2', name: 'Layer 2', file: null }]);
    expect(migrated.locations.map((l) => [l.id, l.title, l.layer])).toEqual([['a', 'Alpha', 'f2'], ['b', 'b', 'f1']]);
    expect(migrated.settings.defaultLayer).toBe('f1');
    expect(MapDocument.parse({ version: 1, layers: [], locations: [] }).layers).toEqual(emptyMapDocument().layers);
  });

  it('names the field of each problem', () => {
    expect(problems(withLocation({ layer: 'attic' }))).toEqual(['locations.0.layer: names a layer that does not exist: attic']);
    expect(problems(withLocation({ groups: ['food'] }))).toEqual(['locations.0.groups.0: names a group that does not exist: food']);
    expect(problems(withLocation({ color: 'red' }))).toEqual(['locations.0.color: must be a colour like #4f46e5']);
    expect(problems(withLocation({ marker: 'star' }))[0]).toMatch(/^locations\.0\.marker: /);
    expect(problems({ ...emptyMapDocument(), layers: [{ id: 'a', name: 'A' }, { id: 'a', name: 'B' }], settings: { ...emptyMapDocument().settings, defaultLayer: 'a' } })).toEqual([
      'layers.1.id: repeats the id a',
    ]);
    expect(problems({ ...emptyMapDocument(), settings: { ...emptyMapDocument().settings, minZoom: 9, maxZoom: 2 } })).toEqual(['settings.minZoom: Minimum zoom can be at most the maximum zoom.']);
    expect(problems({ layers: 'many' })[0]).toMatch(/^layers: /);
  });

  it('keeps scripts out of links and images', () => {
    for (const url of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', '//evil.example/x']) {
      expect(problems(withLocation({ link: url }))).toEqual(['locations.0.link: must be an http(s) address or an uploaded file']);
      expect(problems(withLocation({ image: url }))).toHaveLength(1);
    }
    expect(problems(withLocation({ link: 'https://shop.example/cafe', image: '/files/abc123' }))).toEqual([]);
  });
});

describe("a floor's drawing", () => {
  const STORED = '/files/AbCdEfGhIjKlMnOpQrStUv';
  const withFile = (url: string) => ({ ...emptyMapDocument(), layers: [{ id: 'ground', name: 'Ground floor', file: { kind: 'svg', url, width: 800, height: 600 } }] });
  const FOREIGN = 'layers.0.file.url: must be a file stored by this site (/files/{id}): upload the drawing, or add it from its address with POST /api/files/from-url';

  it("is one of the product's own files in what anyone gives now", () => {
    const given = (url: string) => {
      const result = MapDocumentInput.safeParse(withFile(url));
      return result.success ? result.data.layers[0]!.file!.url : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)[0];
    };
    expect(given(STORED)).toBe(STORED);
    expect(given('/assets/demo/riverside-ground.svg')).toBe('/assets/demo/riverside-ground.svg');
    for (const url of ['https://tracker.example/floor.svg', 'http://tracker.example/floor.svg', '//tracker.example/floor.svg', '/files/../api/maps', '/files/short', '/assets/index.js', 'data:image/svg+xml,<svg/>']) {
      expect(given(url), url).toBe(FOREIGN);
    }
  });

  it('on another site, recorded before that was refused, reads as no drawing (the floor kept)', () => {
    const read = MapDocument.parse(withFile('https://tracker.example/floor.svg'));
    expect(read.layers).toEqual([{ id: 'ground', name: 'Ground floor', file: null }]);
    expect(MapDocument.parse(withFile(STORED)).layers[0]!.file).toMatchObject({ url: STORED });
    // Paths on this site the old schema took read as they were.
    expect(MapDocument.parse(withFile('/files/plan')).layers[0]!.file).toMatchObject({ url: '/files/plan' });
  });

  it('is taken off a stored document that still names another site', () => {
    const stored = { ...withFile('https://tracker.example/floor.svg'), layers: [...withFile('https://tracker.example/floor.svg').layers, { id: 'own', name: 'Own', file: { kind: 'svg', url: STORED, width: 1, height: 1 } }] };
    expect(withoutForeignLayerFiles(stored).layers).toEqual([
      { id: 'ground', name: 'Ground floor', file: null },
      { id: 'own', name: 'Own', file: { kind: 'svg', url: STORED, width: 1, height: 1 } },
    ]);
    const clean = withFile(STORED);
    expect(withoutForeignLayerFiles(clean)).toBe(clean);
    expect(withoutForeignLayerFiles(null)).toBeNull();
    expect(withoutForeignLayerFiles('text')).toBe('text');
  });
});

describe('a floor on a street basemap (issue 29 item 1)', () => {
  const world = { kind: 'bounds', projection: 'mercator', north: 60, south: 20, west: -130, east: -60 } as const;
  const withLayer = (layer: object) => ({ ...emptyMapDocument(), layers: [{ id: 'ground', name: 'Map', ...layer }] });

  it('takes a floor with Web Mercator bounds, and reads a floor without the field as drawn on its own', () => {
    const parsed = MapDocumentInput.parse(withLayer({ basemap: true, geo: world }));
    expect(parsed.layers[0]).toMatchObject({ basemap: true, geo: world, file: null });
    expect(MapDocument.parse(emptyMapDocument()).layers[0]!.basemap).toBeUndefined();
  });

  it('refuses a basemap under a floor calibrated otherwise, or not at all, naming the field', () => {
    for (const geo of [undefined, { ...world, projection: 'equirectangular' }, { kind: 'd3', projection: 'mercator', scale: 100, translate: [0, 0] }]) {
      const parsed = MapDocumentInput.safeParse(withLayer({ basemap: true, geo }));
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]).toMatchObject({ path: ['layers', 0, 'geo'], message: BASEMAP_NEEDS_MERCATOR });
    }
  });

  it('refuses taking the Mercator calibration off a basemap floor', () => {
    const document = MapDocument.parse(withLayer({ basemap: true, geo: world }));
    expect(checkEdit(document, { type: 'LayerCalibrated', id: 'ground', geo: null })).toBe(`geo: ${BASEMAP_NEEDS_MERCATOR}`);
    expect(checkEdit(document, { type: 'LayerCalibrated', id: 'ground', geo: { ...world, north: 50 } })).toBeNull();
  });
});
