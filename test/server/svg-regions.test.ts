/**
 * server/import/svg-regions.ts: which elements of an SVG are regions, their titles and which
 * ids look generated.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isGeneratedId, readSvgRegions, svgRegions, titleFromId } from '../../server/import/svg-regions.js';

const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape">${body}</svg>`;

describe('svg regions', () => {
  it('lists shapes and groups with ids, not definitions, clips, gradients, patterns or styles', () => {
    const regions = svgRegions(svg(`
      <defs><path id="in-defs"/><linearGradient id="grad"/><pattern id="hatch"><rect id="hatch-rect"/></pattern></defs>
      <clipPath id="clip"><rect id="clip-rect"/></clipPath><style id="css"/>
      <path id="a1"/><polygon id="b2"/><polyline id="c3"/><rect id="d4"/><circle id="e5"/><ellipse id="f6"/><g id="h7"><path id="i8"/></g>
      <use id="j9" href="#in-defs"/><text id="label"/><mask id="m"><rect id="mask-rect"/></mask>`));
    expect(regions.map((region) => region.id)).toEqual(['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'h7', 'i8', 'j9']);
  });

  it('titles from <title>, data-name, inkscape:label, aria-label, else the id', () => {
    const regions = svgRegions(svg(`
      <path id="shop_1"><title> Café
        Nero </title></path>
      <path id="shop_2" data-name="Boots"/><path id="shop_3" inkscape:label="Zara"/><path id="shop_4" aria-label="H&amp;M"/>
      <path id="shop_12"/><path id="de-by"/>`));
    expect(regions.map((region) => region.title)).toEqual(['Café Nero', 'Boots', 'Zara', 'H&M', 'Shop 12', 'DE-BY']);
  });

  it('reads ids as titles only where the reading is sure', () => {
    expect(titleFromId('de-by')).toBe('DE-BY');
    expect(titleFromId('shop_12')).toBe('Shop 12');
    expect(titleFromId('Shop12')).toBe('Shop 12');
    expect(titleFromId('food-court')).toBe('Food court');
    expect(titleFromId('MainHall')).toBe('Main Hall');
    expect(titleFromId('unit_b3')).toBe('Unit B3');
    expect(titleFromId('a12')).toBe('A12');
    expect(titleFromId('oh')).toBe('OH'); // not on a US map
    expect(titleFromId('US-OH')).toBe('Ohio');
    expect(titleFromId('oh', { usMap: true, countryMap: false })).toBe('Ohio');
    expect(titleFromId('de', { usMap: false, countryMap: true })).toBe('Germany');
  });

  it('names states on a US map and countries on a world map: CA is California or Canada', () => {
    const us = svgRegions(svg(['oh', 'ny', 'tx', 'ca', 'wa', 'de'].map((id) => `<path id="${id}"/>`).join('')));
    expect(us.map((region) => region.title)).toEqual(['Ohio', 'New York', 'Texas', 'California', 'Washington', 'Delaware']);
    const world = svgRegions(svg(['FR', 'DE', 'CA', 'JP', 'BR'].map((id) => `<path id="${id}"/>`).join('')));
    expect(world.map((region) => region.title)).toEqual(['France', 'Germany', 'Canada', 'Japan', 'Brazil']);
  });

  it('marks generated ids, layers and groups of many regions as auto', () => {
    for (const id of ['rect837-0-8', 'path3677', 'layer1', 'svg_12', 'XMLID_5_', 'Layer_1', 'Group_5', 'Vector_2', 'circle12', '_x31_', 'Capa_1']) {
      expect(isGeneratedId(id), id).toBe(true);
    }
    for (const id of ['shop_12', 'de-by', 'OH', 'g12', 'food-court', 'A12', 'pathway', 'rectory']) expect(isGeneratedId(id), id).toBe(false);
    expect(isGeneratedId('g123', 'g')).toBe(true);
    const regions = svgRegions(svg(`
      <g id="layer1" inkscape:groupmode="layer" inkscape:label="Ground floor">
        <g id="shops">${[1, 2, 3, 4, 5].map((n) => `<path id="shop_${n}"/>`).join('')}</g>
        <g id="MI"><path id="MI-upper"/><path id="MI-lower"/></g>
        <path id="path3677"/><path id="path99" inkscape:label="Food court"/><g id="g7"/>
      </g>`));
    const auto = Object.fromEntries(regions.map((region) => [region.id, region.auto]));
    expect(auto).toMatchObject({ layer1: true, shops: true, shop_1: false, MI: false, 'MI-upper': false, path3677: true, path99: false, g7: true });
  });

  it('never offers the outer group under the <svg> by itself, even named and without Inkscape’s attribute', () => {
    const regions = svgRegions(svg('<g id="layer2" inkscape:label="Floor Plan"><g id="g3987"><rect id="rect3781"/><rect id="H865"/></g></g>'));
    expect(Object.fromEntries(regions.map((region) => [region.id, region.auto]))).toEqual({ layer2: true, g3987: true, rect3781: true, H865: false });
    expect(regions.find((region) => region.id === 'layer2')!.title).toBe('Floor Plan');
  });

  it('leaves out ids a location cannot name, and says which', () => {
    const read = readSvgRegions(svg('<path id="1st"/><path id="shop 2"/><path id="ok"/>'));
    expect(read.regions.map((region) => region.id)).toEqual(['id-1st', 'ok']);
    expect(read.unusable).toEqual(['shop 2']);
  });

  it('offers codes that start with a digit or a minus sign (svg-maps’ departments), by the reference elementIdFor makes of them', () => {
    const read = readSvgRegions(svg('<path id="01" name="Ain"/><path id="2a" name="Corse-du-Sud"/><path id="75"/><path id="-99"/><path id="101"/><path id="id-101"/>'));
    expect(read.regions).toEqual([
      { id: 'id-01', source: '01', title: 'Ain', auto: false },
      { id: 'id-2a', source: '2a', title: 'Corse-du-Sud', auto: false },
      { id: 'id-75', source: '75', title: '75', auto: false },
      { id: 'id--99', source: '-99', title: '-99', auto: false },
      // `id-101` is an element's own id: it keeps it, and the code whose reference it would be is said unusable.
      { id: 'id-101', title: 'ID-101', auto: false },
    ]);
    expect(read.unusable).toEqual(['101']);
    // A UUID that starts with a digit is a program's, not a person's.
    expect(svgRegions(svg('<path id="3f2b9c1e-0a4d-4c8e-9f1a-2b3c4d5e6f70"/>'))).toMatchObject([{ id: 'id-3f2b9c1e-0a4d-4c8e-9f1a-2b3c4d5e6f70', auto: true }]);
  });

  it('reads Illustrator entities, the document title, and nothing from a file that is not SVG', () => {
    const read = readSvgRegions('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY ns_svg "http://www.w3.org/2000/svg">]><svg xmlns="&ns_svg;"><title>Mall</title><path id="shop_1"/></svg>');
    expect(read.documentTitle).toBe('Mall');
    expect(read.regions).toEqual([{ id: 'shop_1', title: 'Shop 1', auto: false }]);
    expect(svgRegions('<html><path id="x"/></html>')).toEqual([]);
    expect(svgRegions('not xml at all')).toEqual([]);
  });

  // How fast is a benchmark's question, not a test's (a shared machine's load made a 3 s
  // limit fail at 4.2 s); a quadratic reading would still time this test out.
  it('reads 2.5 MB, 50,000 shapes', () => {
    const shapes = Array.from({ length: 50_000 }, (_, index) => `<path id="shop_${index}" d="M${index} 0h10v10h-10z" fill="#ccc"/>`).join('\n');
    const text = svg(shapes);
    expect(text.length).toBeGreaterThan(2_500_000);
    const regions = svgRegions(text);
    expect(regions).toHaveLength(50_000);
  });
});

describe('real drawings (test/fixtures/import/svg)', () => {
  const fixture = (name: string) => readFileSync(new URL(`../fixtures/import/svg/${name}`, import.meta.url), 'utf8');

  it('a Figma-made shopping-centre floor: shops and toilets offered, Figma’s own ids unticked, route points it cannot name reported', () => {
    const read = readSvgRegions(fixture('floors-map-widget-example.svg'));
    expect(read.regions).toEqual([
      { id: 'Vector', title: 'Vector', auto: true },
      { id: 'shop-11', title: 'Shop 11', auto: false },
      { id: 'shop-6', title: 'Shop 6', auto: false },
      { id: 'toilet-male-5', title: 'Toilet male 5', auto: false },
      { id: 'stairs-elevator-6', title: 'Stairs elevator 6', auto: false },
    ]);
    expect(read.unusable).toEqual(['point1@2x 1', 'point-1=2', 'point-2=1-3-4-5', 'point-3=2-4-5', 'point-4=2-3-5', 'point-5=2-3-4-6', 'point-6=5-7', 'point-7=6']);
  });

  it('amCharts’ US map: US-XX ids named by their title attributes; the Wikimedia map’s two-letter ids as states', () => {
    expect(svgRegions(fixture('amcharts-usa-low-cut.svg')).map((region) => region.title)).toEqual([
      'Alabama', 'Arkansas', 'Arizona', 'California', 'Colorado', 'Connecticut', 'Washington, DC', 'Delaware',
    ]);
    expect(svgRegions(fixture('blank-us-map-two-letter-cut.svg'))).toEqual(
      [['HI', 'Hawaii'], ['VT', 'Vermont'], ['RI', 'Rhode Island'], ['NJ', 'New Jersey'], ['DE', 'Delaware']].map(([id, title]) => ({ id, title, auto: false })),
    );
  });
});
