/**
 * A picture of a floor on a street basemap (issue 29 item 1), the parts without a browser: the
 * frame MapLibre draws the basemap in (the view on screen, scaled for paper; the whole floor
 * with its margin), the floor's place in it and its stretch (a floor whose units are not square
 * on the basemap), the attribution as plain text, which views are a basemap's, and the SVG:
 * the basemap's image filling the map's area under the markers, the attribution over them,
 * strictly valid XML. And the browser's own Print: the map drawn once more and its picture laid
 * over the canvas before printing, taken away after.
 */
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { emptyMapDocument, type MapDocument } from '../../events/map-document';
import { LOCATION_DEFAULTS } from '../../events/compact-locations';
import { attributionText, basemapFrame, frameView, liveBasemapOf, stretchFloor } from '../../client/src/components/map/export/basemap-frame';
import { buildScene } from '../../client/src/components/map/export/scene';
import { sceneSvg } from '../../client/src/components/map/export/scene-svg';
import type { Location } from '../../client/src/components/map/types';
import { keepForPrint, printableMapOf } from '../../client/src/components/map/basemap-print';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function basemapDocument(): MapDocument {
  const base = emptyMapDocument();
  return {
    ...base,
    settings: { ...base.settings, size: { width: 1000, height: 800 } },
    layers: [{ id: 'texas', name: 'Texas', file: null, geo: { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 }, basemap: true }],
    locations: [
      { ...LOCATION_DEFAULTS, id: 'dallas', title: 'Dallas', groups: [], entrances: [], layer: 'texas', position: { x: 700, y: 300 } } as Location,
      { ...LOCATION_DEFAULTS, id: 'austin', title: 'Austin', groups: [], entrances: [], layer: 'texas', position: { x: 600, y: 500 } } as Location,
    ],
  } as MapDocument;
}

describe('the basemap frame of a picture', () => {
  it('is the view on screen, scaled down to a printed page with the zoom lowered to match', () => {
    expect(basemapFrame('view', { width: 940, height: 800 }, { width: 1000, height: 800 })).toEqual({ kind: 'view', width: 940, height: 800, zoomBy: 0 });
    const paper = basemapFrame('view', { width: 1488, height: 800 }, { width: 1000, height: 800 }, 744);
    expect(paper).toEqual({ kind: 'view', width: 744, height: 400, zoomBy: -1 });
  });

  it('is the whole floor with the margin of a drawn floor’s picture', () => {
    expect(basemapFrame('floor', { width: 940, height: 800 }, { width: 1000, height: 800 })).toEqual({ kind: 'floor', width: 1664, height: 1344, padding: 32 });
    // Without a view on screen (not laid out yet), the floor.
    expect(basemapFrame('view', { width: 0, height: 0 }, { width: 1000, height: 800 }).kind).toBe('floor');
  });

  it('places the floor where MapLibre shows its corners, stretched down where its units are not square', () => {
    const { view, stretch } = frameView({ width: 900, height: 700 }, { width: 1000, height: 800 }, { x: 50, y: 20 }, { x: 850, y: 692 });
    expect(view).toEqual({ x: 50, y: 20, k: 0.8, width: 900, height: 700 });
    expect(stretch).toBeCloseTo(672 / 800 / 0.8);
    // A point of the floor lands where MapLibre puts it once the floor is stretched by that much.
    const doc = basemapDocument();
    const stretched = stretchFloor(doc, doc.layers[0]!, stretch);
    const dallas = stretched.document.locations.find((location) => location.id === 'dallas')!;
    expect(dallas.position!.y * view.k + view.y).toBeCloseTo(20 + (300 / 800) * 672);
    expect(stretched.document.settings.size.height).toBeCloseTo(800 * stretch);
    expect(stretchFloor(doc, doc.layers[0]!, 1).document).toBe(doc);
  });

  it('writes the sources’ attributions as text, each once', () => {
    expect(
      attributionText([
        '<a href="https://www.naturalearthdata.com/">Made with Natural Earth</a> · <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)',
        '<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a>',
        undefined,
        'Made with Natural Earth',
      ]),
    ).toBe('Made with Natural Earth · GeoNames (CC BY 4.0) · © OpenStreetMap contributors');
  });

  it('knows a basemap’s view from a drawn floor’s', () => {
    const map = { getContainer: () => ({}), getCanvas: () => ({}) };
    expect(liveBasemapOf({ map, floorState: { floor: {} } })).not.toBeNull();
    expect(liveBasemapOf({ map, floorState: null })).toBeNull();
    expect(liveBasemapOf({ screen: {} })).toBeNull();
    expect(liveBasemapOf(null)).toBeNull();
  });
});

describe('the SVG of a basemap picture', () => {
  it('has the basemap filling the map’s area under the markers and the attribution over them', () => {
    const doc = basemapDocument();
    const scene = buildScene({ document: doc, layer: doc.layers[0]!, title: 'Texas stores', extent: 'view', view: { x: 0, y: 0, k: 0.9, width: 900, height: 720 } });
    const svg = sceneSvg(scene, { floor: { kind: 'basemap', href: PNG, attribution: 'Made with Natural Earth & friends' }, images: new Map() });
    const problems: string[] = [];
    const xml = new DOMParser({ onError: (level, message) => void problems.push(`${level}: ${message}`) }).parseFromString(svg, 'image/svg+xml');
    expect(problems).toEqual([]);
    const image = xml.getElementById('mfx-floor')!.getElementsByTagName('image')[0]!;
    expect([image.getAttribute('width'), image.getAttribute('height'), image.getAttribute('href')]).toEqual(['900', '720', PNG]);
    expect(svg.indexOf('id="mfx-floor"')).toBeLessThan(svg.indexOf('id="mfx-markers"'));
    expect(svg.indexOf('id="mfx-markers"')).toBeLessThan(svg.indexOf('id="mfx-attribution"'));
    expect(xml.getElementById('mfx-attribution')!.textContent).toBe('Made with Natural Earth & friends');
    expect(xml.getElementsByTagName('g').length).toBeGreaterThan(2);
    expect(svg.match(/data-location="/g)).toHaveLength(2);
  });

  it('leaves out a basemap that is not an image', () => {
    const doc = basemapDocument();
    const scene = buildScene({ document: doc, layer: doc.layers[0]!, title: 'T', extent: 'view', view: { x: 0, y: 0, k: 1, width: 100, height: 100 } });
    expect(sceneSvg(scene, { floor: { kind: 'basemap', href: 'https://elsewhere.example/x.png', attribution: '' }, images: new Map() })).not.toContain('elsewhere');
  });
});

describe('the browser’s own Print of a basemap', () => {
  it('lays the map’s picture, drawn just before, over its canvas while printing', () => {
    const container = document.createElement('div');
    const canvas = document.createElement('canvas');
    container.append(canvas);
    const calls: string[] = [];
    const map = {
      redraw: () => calls.push('redraw'),
      getCanvas: () => Object.assign(canvas, { toDataURL: () => (calls.push('read'), PNG) }),
      getCanvasContainer: () => container,
    };
    expect(printableMapOf({ map })).toBe(map);
    expect(printableMapOf({ screen: {} })).toBeNull();
    const target = new EventTarget();
    const stop = keepForPrint(map, target as Window);
    target.dispatchEvent(new Event('beforeprint'));
    expect(calls).toEqual(['redraw', 'read']);
    const image = container.querySelector('img.mf-basemap-print')!;
    expect(image.getAttribute('src')).toBe(PNG);
    expect(image.getAttribute('alt')).toBe('');
    target.dispatchEvent(new Event('afterprint'));
    expect(container.querySelector('img')).toBeNull();
    stop();
    target.dispatchEvent(new Event('beforeprint'));
    expect(calls).toHaveLength(2);
  });
});
