/**
 * The map's picture as SVG (issue 19 part 3): the scene and the SVG built from it are valid XML
 * (parsed strictly with @xmldom/xmldom), reference nothing outside themselves, carry the floor's
 * regions coloured and the markers the canvas would draw, and escape every text; the floor
 * drawing's own CSS is scoped to the drawing; file names come from the title and the floor.
 */
import { DOMParser, type Document as XmlDocument, type Element as XmlElement } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { floorPlanSvg, DEMO_FLOORS, demoMallDocument } from '../../server/seed/demo-mall';
import type { MapDocument } from '../../events/map-document';
import { buildScene, type SceneRequest } from '../../client/src/components/map/export/scene';
import { sceneSvg, type PictureFloor } from '../../client/src/components/map/export/scene-svg';
import { drawingFloor } from '../../client/src/components/map/export/floor-drawing';
import { scopeCss } from '../../client/src/components/map/export/scope-css';
import { pictureFileName } from '../../client/src/components/map/export/file-name';
import { MarkerClusters } from '../../client/src/components/map/clustering';
import { emptyMapDocument } from '../../events/map-document';

function parseStrict(svg: string): XmlDocument {
  const problems: string[] = [];
  const xml = new DOMParser({ onError: (level, message) => void problems.push(`${level}: ${message}`) }).parseFromString(svg, 'image/svg+xml');
  expect(problems).toEqual([]);
  return xml;
}

function elements(root: XmlDocument | XmlElement): XmlElement[] {
  return Array.from(root.getElementsByTagName('*')) as XmlElement[];
}

/** Every reference in the document: href attributes, url() in attributes and CSS. */
function references(xml: XmlDocument): string[] {
  const found: string[] = [];
  for (const element of elements(xml)) {
    for (const attribute of Array.from(element.attributes)) {
      if (attribute.name.startsWith('xmlns')) continue;
      if (attribute.localName === 'href') found.push(attribute.value);
      for (const match of attribute.value.matchAll(/url\(([^)]*)\)/g)) found.push(match[1]!.replace(/['"]/g, '').trim());
    }
    if (element.localName === 'style') for (const match of (element.textContent ?? '').matchAll(/url\(([^)]*)\)|@import/g)) found.push(match[1] ?? '@import');
  }
  return found;
}

const ground = DEMO_FLOORS[0]!;

function groundPicture(request: Partial<SceneRequest> = {}, floor?: PictureFloor) {
  const document = demoMallDocument() as MapDocument;
  const layer = document.layers.find((candidate) => candidate.id === 'ground')!;
  const scene = buildScene({ document, layer, title: 'Riverside Mall', extent: 'floor', ...request });
  const picture = floor ?? drawingFloor({ markup: floorPlanSvg(ground), styles: [] }, { regions: scene.regions, accent: scene.accent, width: 1200, height: 800 });
  return { scene, svg: sceneSvg(scene, { floor: picture, images: new Map() }), document };
}

describe('the picture as SVG', () => {
  it('is valid XML with the floor, its regions coloured and every marker of the floor', () => {
    const { scene, svg } = groundPicture();
    const xml = parseStrict(svg);
    const root = xml.documentElement!;
    expect(root.localName).toBe('svg');
    expect(root.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(Number(root.getAttribute('width'))).toBe(scene.width);
    expect(Number(root.getAttribute('height'))).toBe(scene.height);
    // The whole floor: its longer side 1,600 px and a margin.
    expect(scene.map.width).toBe(1600 + 64);

    const byId = new Map(elements(xml).filter((element) => element.getAttribute('id')).map((element) => [element.getAttribute('id')!, element]));
    for (const shop of ground.shops) {
      const region = byId.get(shop.id);
      expect(region, shop.id).toBeDefined();
      // Coloured like the viewer's regions (the group's colour, tinted), winning over the drawing's own fill.
      expect(region!.getAttribute('style')).toMatch(/fill:\s*(#[0-9a-f]{6}|rgb\([^)]*\))\s*!important/);
    }
    const markers = elements(xml).filter((element) => element.getAttribute('data-location'));
    const ids = new Set(markers.map((element) => element.getAttribute('data-location')));
    for (const point of ground.points) expect(ids.has(point.id), point.id).toBe(true);
    // The shops' labels, drawn where they have room (all of them, on the whole floor at 1,600 px).
    const text = elements(xml)
      .filter((element) => element.localName === 'text')
      .map((element) => element.textContent)
      .join(' ');
    for (const shop of ground.shops) for (const word of shop.title.split(' ')) expect(text).toContain(word);
    expect(text).toContain('Riverside Mall');
    expect(text).toContain('Ground floor');
    // The legend: the groups on this floor.
    expect(text).toContain('Food & drink');
    expect(text).toContain('Services');
  });

  it('references nothing outside itself', () => {
    const { svg } = groundPicture({ selectedId: 'g-pixel' });
    const xml = parseStrict(svg);
    for (const reference of references(xml)) expect(reference).toMatch(/^(#|data:image\/)/);
    expect(elements(xml).some((element) => ['script', 'foreignObject', 'iframe'].includes(element.localName!))).toBe(false);
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/)/);
  });

  it('shows the selected location in the accent, and only the locations the filters let through', () => {
    const { svg, scene } = groundPicture({ selectedId: 'g-pixel', visibleIds: new Set(['g-pixel', 'g-info', 'g-lumiere']) });
    const xml = parseStrict(svg);
    const markers = elements(xml).filter((element) => element.getAttribute('data-location'));
    expect(new Set(markers.map((element) => element.getAttribute('data-location')))).toEqual(new Set(['g-pixel', 'g-info', 'g-lumiere']));
    // The selected label is a pill in the accent, drawn last (on top).
    const selected = markers.at(-1)!;
    expect(selected.getAttribute('data-location')).toBe('g-pixel');
    expect(elements(selected).find((element) => element.localName === 'rect')!.getAttribute('fill')).toBe(scene.accent);
    // Regions filtered out are dimmed, as in the viewer.
    const atm = scene.regions.find((region) => region.element === 'g-bella')!;
    expect(atm.dim).toBe(true);
    expect(scene.regions.find((region) => region.element === 'g-pixel')!.active).toBe(true);
  });

  it('draws the current view: its size, and only the markers in it', () => {
    // The left half of the floor at twice the scale of a 600 × 400 viewport.
    const { scene, svg } = groundPicture({ extent: 'view', view: { x: 0, y: 0, k: 1, width: 600, height: 400 } });
    expect(scene.map).toEqual({ x: 0, y: 64, width: 600, height: 400 });
    const xml = parseStrict(svg);
    const ids = new Set(elements(xml).flatMap((element) => element.getAttribute('data-location') ?? []));
    expect(ids.has('g-lumiere')).toBe(true);
    expect(ids.has('g-atm')).toBe(true);
    expect(ids.has('g-kidskingdom')).toBe(false);
    expect(ids.has('g-restrooms')).toBe(false);
  });

  it('escapes titles, floor names, labels and legend entries', () => {
    const document = demoMallDocument() as MapDocument;
    document.layers[0]!.name = 'Floor <1> & "more"';
    document.groups[0]!.name = "Kids' <b>corner</b>";
    const shop = document.locations.find((location) => location.id === 'g-lumiere')!;
    shop.label = '<i>&amp;</i>';
    const layer = document.layers[0]!;
    const title = 'Tom & Jerry\'s <Café> "quoted" ]]> \u0007';
    const scene = buildScene({ document, layer, title, extent: 'floor' });
    const svg = sceneSvg(scene, { floor: { kind: 'none' }, images: new Map() });
    const xml = parseStrict(svg);
    expect(elements(xml).some((element) => ['script', 'b', 'i'].includes(element.localName!))).toBe(false);
    const texts = elements(xml).map((element) => element.textContent ?? '');
    expect(xml.getElementsByTagName('title')[0]!.textContent).toBe('Tom & Jerry\'s <Café> "quoted" ]]>  – Floor <1> & "more"');
    expect(texts).toContain('Floor <1> & "more"');
    expect(texts).toContain("Kids' <b>corner</b>");
    expect(texts).toContain('<i>&amp;</i>');
  });

  it('takes out of a hostile drawing whatever would run or load from elsewhere', () => {
    const markup = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1200 800" onload="alert(1)">
      <script>alert(2)</script>
      <foreignObject><div>html</div></foreignObject>
      <image href="https://tracker.example/pixel.png" width="10" height="10"/>
      <image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="10" height="10"/>
      <use href="https://elsewhere.example/sprite.svg#icon"/>
      <use href="#g-lumiere"/>
      <a href="javascript:alert(3)"><rect width="5" height="5"/></a>
      <rect id="g-lumiere" class="shop" x="60" y="60" width="140" height="280" fill="url(https://x.example/p.svg#f)" style="stroke: url(http://x.example/s)"/>
    </svg>`;
    const styles = ['@import url("https://fonts.example/f.css"); .shop { fill: #ff0000; background: url(https://x.example/b.png) } @font-face { font-family: X; src: url(https://x.example/x.woff) } @media print { rect { stroke: red } }'];
    const { svg } = groundPicture({}, undefined);
    expect(svg).toBeTruthy();
    const document = demoMallDocument() as MapDocument;
    const layer = document.layers[0]!;
    const scene = buildScene({ document, layer, title: 'Mall', extent: 'floor' });
    const floor = drawingFloor({ markup, styles }, { regions: scene.regions, accent: scene.accent, width: 1200, height: 800 });
    expect(floor.kind).toBe('svg');
    const xml = parseStrict(sceneSvg(scene, { floor, images: new Map() }));
    for (const reference of references(xml)) expect(reference).toMatch(/^(#|data:image\/)/);
    expect(elements(xml).some((element) => ['script', 'foreignObject'].includes(element.localName!))).toBe(false);
    expect(elements(xml).some((element) => Array.from(element.attributes).some((attribute) => attribute.name.startsWith('on')))).toBe(false);
    // The embedded raster picture and the local <use> stay.
    expect(elements(xml).filter((element) => element.localName === 'image')).toHaveLength(1);
    expect(elements(xml).filter((element) => element.localName === 'use' && element.getAttribute('href') === '#g-lumiere')).toHaveLength(1);
    // The drawing's CSS applies to the drawing only.
    const css = elements(xml).find((element) => element.localName === 'style')!.textContent!;
    expect(css).toContain('#mfx-floor .shop{');
    expect(css).toContain('@media print{#mfx-floor rect{');
    expect(css).not.toMatch(/@import|@font-face|x\.example/);
  });
});

describe('a layer with many points', () => {
  /** 600 pins on a 4,000 × 3,000 sheet, in twelve tight groups of fifty. */
  function crowded(): MapDocument {
    const document = emptyMapDocument();
    document.settings.size = { width: 4000, height: 3000 };
    document.locations = Array.from({ length: 600 }, (_, i) => ({
      ...demoMallDocument().locations[0]!,
      id: `p${i}`,
      title: `Store ${i}`,
      layer: document.layers[0]!.id,
      element: null,
      marker: 'pin' as const,
      label: '',
      groups: [],
      position: { x: 300 + (Math.floor(i / 50) % 4) * 1000 + (i % 7) * 4, y: 400 + Math.floor(i / 200) * 1000 + (i % 5) * 4 },
    }));
    return document;
  }

  it('draws the clusters the canvas would, with counts adding up to every point', () => {
    const document = crowded();
    const layer = document.layers[0]!;
    const scene = buildScene({
      document,
      layer,
      title: 'Stores',
      extent: 'floor',
      cluster: (points, view, width, height, deepest) => new MarkerClusters(points, { width: 4000, height: 3000, maxZoom: document.settings.maxZoom }).at(view, width, height, deepest),
    });
    const xml = parseStrict(sceneSvg(scene, { floor: { kind: 'none' }, images: new Map() }));
    const clusters = elements(xml).filter((element) => element.getAttribute('data-cluster'));
    const lone = elements(xml).filter((element) => element.getAttribute('data-location'));
    expect(clusters.length).toBeGreaterThan(0);
    const counted = clusters.reduce((sum, element) => sum + Number(element.getAttribute('data-cluster')), 0);
    expect(counted + lone.length).toBe(600);
  });

  it('draws every point where the filters leave few', () => {
    const document = crowded();
    const layer = document.layers[0]!;
    const visibleIds = new Set(['p1', 'p2', 'p3']);
    const scene = buildScene({ document, layer, title: 'Stores', extent: 'floor', visibleIds, cluster: (points, view, width, height, deepest) => new MarkerClusters(points, { width: 4000, height: 3000, maxZoom: 8 }).at(view, width, height, deepest) });
    const xml = parseStrict(sceneSvg(scene, { floor: { kind: 'none' }, images: new Map() }));
    const counted = elements(xml)
      .filter((element) => element.getAttribute('data-cluster'))
      .reduce((sum, element) => sum + Number(element.getAttribute('data-cluster')), 0);
    expect(counted + elements(xml).filter((element) => element.getAttribute('data-location')).length).toBe(3);
  });
});

describe('the drawing CSS', () => {
  it('is scoped to the drawing, rule by rule', () => {
    expect(scopeCss('.st0{fill:#e2e8f0}.st1, rect:is(.a, .b) {stroke:#000}', '#f')).toBe('#f .st0{fill:#e2e8f0}\n#f .st1,#f rect:is(.a, .b){stroke:#000}');
    expect(scopeCss(':root { --c: red } svg > g { fill: var(--c) }', '#f')).toBe('#f{ --c: red }\n#f svg > g{ fill: var(--c) }');
    expect(scopeCss('/* a } comment */ .a { content: "}" } @charset "utf-8"; .b{fill:url(#grad)}', '#f')).toBe('#f .a{ content: "}" }\n#f .b{fill:url(#grad)}');
  });
});

describe('file names', () => {
  it('come from the map title and the floor', () => {
    expect(pictureFileName('Riverside Mall', 'Ground floor')).toBe('riverside-mall-ground-floor');
    expect(pictureFileName('Café Crème / Level 2', 'B1')).toBe('cafe-creme-level-2-b1');
    expect(pictureFileName('東京タワー', '展望台')).toBe('東京タワー-展望台');
    expect(pictureFileName('***', '')).toBe('map');
  });
});
