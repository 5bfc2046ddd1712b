/**
 * Regions named by the text written inside them (server/import/svg-text-labels.ts, through
 * svg-regions.ts): shapes a drawing program gave made-up ids (`rect3781`) take the room number
 * written over them as their title and are ticked; people's ids, titles and labels stay.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planImport } from '../../events/import-planner.js';
import { emptyMapDocument } from '../../events/map-document.js';
import { isGeneratedId, readSvgRegions, svgRegions } from '../../server/import/svg-regions.js';
import { applied, plan } from '../support/import-plans.js';

const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 1000 1000">${body}</svg>`;
const byId = (body: string) => new Map(svgRegions(svg(body)).map((region) => [region.id, region]));
const REALWORLD = path.resolve(import.meta.dirname, '../fixtures/realworld');

describe('regions named by the text inside them', () => {
  it('names a made-up id by the text beside it in the file but inside it on the floor, transforms applied, and ticks it', () => {
    const regions = byId(`
      <g id="layer1" inkscape:groupmode="layer" transform="translate(0,-30)">
        <g id="g10" transform="matrix(2,0,0,2,10,10)">
          <rect id="rect1" x="0" y="20" width="100" height="50"/>
          <path id="path2" d="M 100 20 H 200 V 70 H 100 Z"/>
          <rect id="rect3" x="200" y="20" width="100" height="50"/>
        </g>
        <text x="40" y="120" style="font-size:12px">A101</text>
        <text transform="scale(2)" x="160" y="53"><tspan x="160" y="53" style="font-size:8px">A102</tspan><tspan x="160" y="63"> </tspan></text>
      </g>`);
    expect(regions.get('rect1')).toMatchObject({ title: 'A101', auto: false, fromText: true });
    expect(regions.get('path2')).toMatchObject({ title: 'A102', auto: false, fromText: true });
    // No text on it: the made-up id stays unticked.
    expect(regions.get('rect3')).toMatchObject({ title: 'rect3', auto: true });
    expect(regions.get('rect3')!.fromText).toBeUndefined();
    // The group of rooms and the layer are named by none of their texts.
    expect(regions.get('g10')).toMatchObject({ auto: true, title: 'G10' });
    expect(regions.get('g10')!.fromText).toBeUndefined();
    expect(regions.get('layer1')!.auto).toBe(true);
  });

  it('gives a text to the smallest shape its middle lies in, as text-anchor places it, and lines of one text together', () => {
    const regions = byId(`
      <rect id="rect1" x="0" y="0" width="400" height="400"/>
      <rect id="rect2" x="0" y="0" width="100" height="100"/>
      <rect id="rect3" x="100" y="0" width="100" height="100"/>
      <text x="95" y="50" text-anchor="end" font-size="10">Office</text>
      <text x="150" y="200" text-anchor="middle" font-size="10"><tspan x="150" y="195">Meeting</tspan><tspan x="150" y="207">room</tspan></text>`);
    expect(regions.get('rect2')!.title).toBe('Office');
    expect(regions.get('rect1')!.title).toBe('Meeting room');
    expect(regions.get('rect3')!.title).toBe('rect3');
  });

  it('names no background (a shape with more than two texts in it), and reads no gauge’s reading, switch state or hidden text as a name', () => {
    const regions = byId(`
      <defs><text id="t" x="550" y="550">Hidden</text></defs>
      <rect id="rect1" x="0" y="0" width="1000" height="300"/>
      <text x="10" y="20">A</text><text x="500" y="20">B</text><text x="900" y="20">C</text>
      <rect id="rect2" x="0" y="400" width="100" height="100"/><text x="20" y="450">50%</text>
      <rect id="rect3" x="500" y="500" width="100" height="100"/>
      <rect id="rect4" x="700" y="400" width="100" height="100"/><text x="720" y="450">OFF</text>`);
    expect(['rect1', 'rect2', 'rect3', 'rect4'].map((id) => [regions.get(id)!.title, regions.get(id)!.auto])).toEqual([['rect1', true], ['rect2', true], ['rect3', true], ['rect4', true]]);
  });

  it('leaves a person’s id, a <title>, data-name and inkscape:label as they are, text or not', () => {
    const regions = byId(`
      <rect id="shop-12" x="0" y="0" width="100" height="100"/><text x="10" y="50">Boots</text>
      <rect id="rect2" x="100" y="0" width="100" height="100"><title>Café Nero</title></rect><text x="110" y="50">C2</text>
      <rect id="XMLID_3_" data-name="Zara" x="200" y="0" width="100" height="100"/><text x="210" y="50">C3</text>
      <path id="path4" inkscape:label="H&amp;M" d="M300 0h100v100h-100z"/><text x="310" y="50">C4</text>`);
    expect([...regions.values()].map((region) => [region.id, region.title, region.auto, region.fromText ?? false])).toEqual([
      ['shop-12', 'Shop 12', false, false],
      ['rect2', 'Café Nero', false, false],
      ['XMLID_3_', 'Zara', false, false],
      ['path4', 'H&M', false, false],
    ]);
  });

  it('measures a <use> region by what it draws, its target before or after it, and a group of several shapes by all of them', () => {
    const regions = byId(`
      <defs><rect id="room" width="100" height="100"/></defs>
      <use id="use1" href="#room" x="0" y="0"/><text x="20" y="50">U1</text>
      <use id="use2" xlink:href="#later" transform="translate(500 0)"/><text x="520" y="50">U2</text>
      <g><g id="g7"><rect x="0" y="300" width="100" height="100"/><rect x="100" y="300" width="100" height="100"/></g><text x="120" y="350">Two-part room</text></g>
      <defs><rect id="later" width="100" height="100"/></defs>`);
    expect(regions.get('use1')).toMatchObject({ title: 'U1', auto: false });
    expect(regions.get('use2')).toMatchObject({ title: 'U2', auto: false });
    expect(regions.get('g7')).toMatchObject({ title: 'Two-part room', auto: false });
  });

  it('reads an SVG without texts as before, without measuring anything', () => {
    const read = readSvgRegions(svg('<rect id="rect1" width="10" height="10"/><rect id="shop-1" width="10" height="10"/>'));
    expect(read.regions.map((region) => [region.id, region.auto])).toEqual([['rect1', true], ['shop-1', false]]);
  });
});

describe('locations of a file linked to the regions of its drawing', () => {
  const drawing = svg(`
    <g id="plan">
      <g id="zara" data-name="Zara"><g id="zara-shop" data-name="Zara"><path d="M0 0h100v100H0z"/><path d="M100 0h50v50h-50z"/></g><text x="10" y="50">Zara</text></g>
      <g id="g120" inkscape:label="Boots"><g id="g121" inkscape:label="Boots"><rect width="10" height="10" x="300"/></g></g>
      <rect id="rect5" x="500" y="0" width="100" height="100"/><text x="510" y="50">H12</text>
    </g>`);
  const regions = new Map(svgRegions(drawing).map((region) => [region.id, region.title]));
  const linked = (rows: Parameters<typeof plan>[0]) => {
    const document = { ...emptyMapDocument(), layers: [{ id: 'ground', name: 'Ground', file: { kind: 'svg' as const, url: '/files/AAAAAAAAAAAAAAAAAAAAAA', width: 1000, height: 1000 } }] };
    const result = planImport(document, plan(rows.map((row) => ({ ...row, floor: 'ground' }))), { sourceName: 'mall.json', regionsOf: () => regions });
    return applied(document, result.edits).locations.map((location) => location.element);
  };

  it('by id, or by title to the outermost group of that name (a shop of several shapes in groups within groups), or to the room its text names', () => {
    expect(linked([
      { row: 1, id: 'zara', fields: { title: 'Zara' } },
      { row: 2, id: null, fields: { title: 'Boots' } },
      { row: 3, id: null, fields: { title: 'H12' } },
    ])).toEqual(['zara', 'g120', 'rect5']);
  });
});

describe('real Inkscape floor plans (test/fixtures/realworld)', () => {
  const read = (name: string) => readSvgRegions(readFileSync(path.join(REALWORLD, name), 'utf8')).regions;

  it('floor 8 of Concordia’s Hall building: its rooms named by their numbers and ticked, the floor’s outline and the groups not', () => {
    const regions = read('concordia-hall-floor8-inkscape.svg');
    const ticked = regions.filter((region) => !region.auto);
    expect(ticked.length).toBe(75);
    expect(ticked.every((region) => region.fromText)).toBe(true);
    expect(ticked.find((region) => region.title === 'H865')?.id).toMatch(/^(rect|path)\d+/);
    expect(ticked.find((region) => region.id === 'rect3781')?.title).toBe('H867');
    // The floor's outline (rect3007) holds every number: a background, named by none.
    expect(regions.find((region) => region.id === 'rect3007')).toMatchObject({ title: 'rect3007', auto: true });
    expect(regions.filter((region) => ['layer2', 'g3987'].includes(region.id)).every((region) => region.auto)).toBe(true);
    // A made-up id is never a ticked region's name.
    expect(ticked.filter((region) => isGeneratedId(region.title.replace(/\s+/g, '_'))).map((region) => region.title)).toEqual([]);
  });

  it('floor 9 and MB-1: rooms named by their numbers; MB-1’s text groups (g2…, a UUID id) are not rooms', () => {
    const floor9 = read('svg/concordia-hall-floor9-inkscape.svg').filter((region) => !region.auto);
    expect(floor9.length).toBe(89);
    expect(floor9.every((region) => /^H\d|^[A-Z]/.test(region.title))).toBe(true);
    const mb1 = read('svg/concordia-mb1-inkscape.svg');
    const rooms = mb1.filter((region) => !region.auto);
    expect(rooms.length).toBe(22);
    expect(rooms.every((region) => /^1\.\d{3}( 1\.\d{3})?$/.test(region.title) && /^(rect|path)\d+$/.test(region.id))).toBe(true);
    expect(mb1.find((region) => region.source === '6a8b4b96-59e3-4025-995a-54dd43176189')).toMatchObject({ id: 'id-6a8b4b96-59e3-4025-995a-54dd43176189', auto: true });
  });
});
