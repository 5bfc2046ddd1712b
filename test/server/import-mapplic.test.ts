/**
 * Mapplic imports (issue 15): real Mapplic maps and CSVs (test/fixtures/import/mapplic, see its
 * SOURCES.md) read as import plans. Counts in equal counts out, every field mapped or reported,
 * groups with their colours, levels as floors with the drawings uploaded alongside (or a problem
 * naming the file to upload), fractional positions, and geographic bounds calibrating the floor
 * exactly as Mapplic's own latlngToPos places a latitude/longitude.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectToFloor } from '../../events/geo-calibration.js';
import type { MapDocument } from '../../events/map-document.js';
import type { ImportPlan, PlannedLocation } from '../../events/map-import.js';
import { normaliseColour } from '../../server/import/css-colour.js';
import { isMapplicCsvHeader, parseMapplicCsv } from '../../server/import/mapplic-csv.js';
import { isMapplicMap, parseMapplicJson } from '../../server/import/mapplic-json.js';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const FIXTURES = new URL('../fixtures/import/mapplic/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const bytes = (name: string) => readFileSync(new URL(name, FIXTURES));

function json(name: string, attachments: Record<string, Buffer> = {}): ImportPlan {
  return parseMapplicJson({ text: text(name), filename: name, attachments: new Map(Object.entries(attachments)) });
}
function csv(name: string, attachments: Record<string, Buffer> = {}): ImportPlan {
  return parseMapplicCsv({ text: text(name), filename: name, attachments: new Map(Object.entries(attachments)) });
}
const byId = (plan: ImportPlan, id: string): PlannedLocation => plan.locations.find((location) => location.id === id)!;
const messages = (plan: ImportPlan) => plan.problems.map((problem) => problem.message).join('\n');

/** How many locations the file holds, counted on the raw JSON. */
function sourceCount(name: string): number {
  const data = JSON.parse(text(name)) as { levels: { locations?: unknown[] }[] };
  return data.levels.reduce((sum, level) => sum + (level.locations?.length ?? 0), 0);
}

/**
 * Mapplic's latlngToPos (mapplic.js 4.2–7.0, "Web Mercator (EPSG:3857) lat/lng projection"),
 * rewritten from its source: the fraction of the map a latitude/longitude falls on.
 */
function mapplicLatlngToPos(data: { mapwidth: number; mapheight: number; leftLng: number; rightLng: number; bottomLat: number }, lat: number, lng: number) {
  const deltaLng = data.rightLng - data.leftLng;
  const bottomLatDegree = (data.bottomLat * Math.PI) / 180;
  const mapWidth = ((data.mapwidth / deltaLng) * 360) / (2 * Math.PI);
  const mapOffsetY = (mapWidth / 2) * Math.log((1 + Math.sin(bottomLatDegree)) / (1 - Math.sin(bottomLatDegree)));
  const latRad = (lat * Math.PI) / 180;
  return {
    x: ((lng - data.leftLng) * (data.mapwidth / deltaLng)) / data.mapwidth,
    y: (data.mapheight - ((mapWidth / 2) * Math.log((1 + Math.sin(latRad)) / (1 - Math.sin(latRad))) - mapOffsetY)) / data.mapheight,
  };
}

describe('Mapplic JSON', () => {
  it('is told from other JSON', () => {
    expect(isMapplicMap(JSON.parse(text('usa.json')))).toBe(true);
    expect(isMapplicMap({ type: 'FeatureCollection', features: [] })).toBe(false);
    expect(isMapplicMap([{ name: 'a store' }])).toBe(false);
  });

  it('reads the Germany sample: a calibrated floor, its groups with colours, the region location, and the drawing to upload', () => {
    const plan = json('germany.json');
    expect(plan.format).toBe('mapplic');
    expect(plan.locations).toHaveLength(sourceCount('germany.json'));
    expect(plan.floors).toHaveLength(1);
    const floor = plan.floors[0]!;
    expect(floor).toMatchObject({ key: 'germany', name: 'Germany', drawing: null, size: { width: 598, height: 598 } });
    expect(floor.geo).toMatchObject({ kind: 'bounds', projection: 'mercator', south: 47.05917222342128, west: 3.8907050668630125, east: 16.983844168134127 });
    // Mapplic's sample was drawn in Web Mercator: its topLat is where the map's proportions put the top edge.
    expect(floor.geo?.kind === 'bounds' && floor.geo.north).toBeCloseTo(55.24345276412021, 9);
    expect(plan.groups).toEqual([
      { key: 'states', name: 'States', color: '#4d5e6d', legend: true },
      { key: 'cities', name: 'Cities', color: '#dd3c38', legend: true },
    ]);
    const niedersachsen = byId(plan, 'de-ni');
    expect(niedersachsen).toMatchObject({
      id: 'de-ni', floor: 'germany', groups: ['states'], element: null,
      position: { kind: 'fraction', x: 0.4049, y: 0.2675 },
      fields: { title: 'Niedersachsen', color: '#4fffff', marker: 'hidden' },
    });
    expect(niedersachsen.fields.description).toContain('<p>The only location in the JSON file.</p>');
    // On the 598 × 598 floor the fraction is a point within a pixel of where Mapplic draws it.
    expect(0.4049 * floor.size!.width).toBeCloseTo(242.13, 1);
    expect(messages(plan)).toContain('Upload germany.svg (the drawing of level “Germany”) alongside the JSON');
    expect(plan.columns.ignored).toEqual(expect.arrayContaining(['level.minimap', 'category.toggle']));
  });

  it('calibrates the floor so latitude/longitude land where Mapplic draws them (within a pixel)', () => {
    const plan = json('germany.json');
    const floor = plan.floors[0]!;
    const data = { mapwidth: 598, mapheight: 598, leftLng: 3.8907050668630125, rightLng: 16.983844168134127, bottomLat: 47.05917222342128 };
    for (const city of csv('germany-cities.csv').locations) {
      const place = city.position as { kind: 'geo'; lat: number; lng: number };
      const ours = projectToFloor(floor.geo!, floor.size!, place)!;
      const mapplic = mapplicLatlngToPos(data, place.lat, place.lng);
      expect(Math.abs(ours.x - mapplic.x * 598), city.id!).toBeLessThan(1);
      expect(Math.abs(ours.y - mapplic.y * 598), city.id!).toBeLessThan(1);
    }
    // Hamburg, in Web Mercator as Mapplic draws it: 22.2 % down; read linearly from topLat it would be 20.7 %, 9 px off.
    const hamburg = projectToFloor(floor.geo!, floor.size!, { lat: 53.551086, lng: 9.993682 })!;
    expect(hamburg.x / 598).toBeCloseTo(0.4661, 3);
    expect(hamburg.y / 598).toBeCloseTo(0.2221, 3);
  });

  it('says so when topLat disagrees with the map’s proportions, and follows Mapplic', () => {
    const plan = json('diospadre.json');
    const floor = plan.floors[0]!;
    expect(floor.geo).toMatchObject({ kind: 'bounds', projection: 'mercator', south: 20.463446, west: -99.191005, east: -99.188967 });
    expect(floor.geo?.kind === 'bounds' && floor.geo.north).toBeCloseTo(20.46483, 5);
    expect(messages(plan)).toContain('does not read topLat');
    expect(messages(plan)).toContain('Upload upper.jpg');
    expect(plan.locations).toHaveLength(sourceCount('diospadre.json'));
    expect(plan.groups.map((group) => [group.key, group.color])).toEqual([
      ['locations', '#63aa9c'], ['sanitarios', '#4cd3b8'], ['Palapas', '#4cd3b8'], ['estacionamientos', '#4cd3b8'],
    ]);
    // Custom marker classes (the site's own icons) keep a plain pin and are reported once.
    expect(byId(plan, 'E2').fields.marker).toBe('pin');
    expect(byId(plan, 'pos').fields).toMatchObject({ marker: 'label', label: 'Position' });
    const pins = plan.problems.filter((problem) => problem.field === 'pin classes');
    expect(pins).toHaveLength(1);
    expect(pins[0]!.message).toMatch(/“b”, “E”, “s”, “p”/);
  });

  it('reads the US sample: groups[], every location field, markers from pin classes, and what has no home reported once', () => {
    const plan = json('usa.json');
    expect(plan.locations).toHaveLength(sourceCount('usa.json'));
    expect(plan.locations.map((location) => location.id)).toEqual(['wa', 'ca-sanfrancisco', 'newyork', 'il', 'ny', 'ma', 'ga', 'fl', 'tx', 'houston', 'ca-losangeles', 'ca']);
    expect(plan.groups.map((group) => [group.key, group.name, group.color])).toEqual([
      ['offices', 'Offices', '#f23543'], ['test', 'Test', '#c91965'], ['states', 'States', '#495360'],
    ]);
    expect(byId(plan, 'ca-sanfrancisco')).toMatchObject({
      groups: ['offices'],
      position: { kind: 'fraction', x: 0.039, y: 0.4093 },
      fields: {
        title: 'San Francisco', about: 'Location with image', label: 'SF', marker: 'label', link: 'http://www.mapplic.com/',
        thumbnail: 'https://source.unsplash.com/o4mP43oPGHk/100x100', image: 'https://source.unsplash.com/o4mP43oPGHk/300x200',
      },
    });
    expect(byId(plan, 'fl').fields).toMatchObject({ zoom: 2, marker: 'hidden' });
    expect(byId(plan, 'ca').fields.marker).toBe('hidden');
    // A picture next to the JSON is not a web address: left out, with a problem on its row.
    const houston = byId(plan, 'houston');
    expect(houston.fields).toMatchObject({ marker: 'thumbnail' });
    expect(houston.fields.image).toBeUndefined();
    expect(plan.problems.filter((problem) => problem.row === houston.row).map((problem) => problem.field)).toEqual(['image', 'thumbnail']);
    expect(plan.columns.used).toEqual(expect.arrayContaining(['id', 'title', 'about', 'description', 'link', 'pin', 'category', 'x', 'y', 'label', 'thumbnail', 'image', 'zoom']));
    expect(plan.columns.ignored).toEqual(expect.arrayContaining(['action', 'reveal', 'pin classes']));
    for (const field of ['action', 'reveal']) expect(plan.problems.filter((problem) => problem.field === field)).toHaveLength(1);
    expect(plan.problems.find((problem) => problem.field === 'action')!.message).toContain('“image”, “reveal”');
  });

  it('makes a floor of every level, the drawing uploaded alongside (matched by file name, case ignored), and names the files still to upload', () => {
    const plan = json('bmstu-floors.json', { 'MAIN_FLOOR-2.SVG': bytes('main_floor-2.svg') });
    expect(plan.floors.map((floor) => [floor.key, floor.name, floor.drawing])).toEqual([
      ['floor-1', 'ГУК - 1 этаж', null],
      ['floor-2', 'ГУК - 2 этаж', { kind: 'attachment', name: 'MAIN_FLOOR-2.SVG' }],
      ['floor-3', 'ГУК - 3 этаж', null],
      ['floor-4', 'ГУК - 4 этаж', null],
    ]);
    for (const floor of plan.floors) expect(floor.size).toEqual({ width: 2783, height: 1285 });
    const uploads = plan.problems.filter((problem) => problem.field === 'map').map((problem) => problem.message);
    expect(uploads).toHaveLength(3);
    expect(uploads.join('\n')).toMatch(/main_floor-1\.svg[\s\S]*main_floor-3\.svg[\s\S]*main_floor-4\.svg/);
    expect(plan.locations).toHaveLength(sourceCount('bmstu-floors.json'));
    expect(plan.locations.filter((location) => location.floor === 'floor-2').map((location) => location.id)).toEqual(['room-232', 'room-227', 'room-226', 'room-213', 'room-205']);
    // Rooms are placed by their region (no x/y): no position, linked by id on the floor's drawing.
    expect(plan.locations.every((location) => location.position === null)).toBe(true);
    expect(byId(plan, 'room-331').groups).toEqual(['admin']);
    expect(plan.groups).toHaveLength(7);
    expect(plan.columns.ignored).toContain('style');
    expect(messages(plan)).toContain('display settings were not imported (defaultstyle, styles)');
  });

  it('reads Japanese titles and https pictures as they are', () => {
    const plan = json('kashiwa-mall.json');
    expect(plan.locations).toHaveLength(sourceCount('kashiwa-mall.json'));
    expect(byId(plan, 'donki')).toMatchObject({
      groups: ['shopping'],
      position: { kind: 'fraction', x: 0.4485, y: 0.7697 },
      fields: { title: 'ドンキホーテ柏駅前店', zoom: 2, image: 'https://uploads-ssl.webflow.com/5c56dde55309582adf46ba7f/5ff77290fe005531bdaa7048_donki1-m.jpeg' },
    });
    expect(plan.groups.find((group) => group.key === 'nopointer-logos')).toEqual({ key: 'nopointer-logos', name: 'Logos', color: null, legend: false });
    expect(messages(plan)).toContain('Upload mall-ground.svg');
  });

  it('reads pixels, drawings on other sites, colours, category lists and Mapplic’s map-wide locations, saying what it did', () => {
    const map = {
      mapwidth: 800, mapheight: 400,
      categories: [{ id: 'food', title: 'Food', color: 'rgb(255, 128, 0)' }, { id: 'fun', name: 'Fun', color: 'purple' }, { id: 'odd', title: 'Odd', color: 'not-a-colour' }],
      levels: [
        { id: 'ground', title: 'Ground', map: 'https://example.com/maps/Ground.SVG', locations: [
          { id: 'a', title: 'A', x: 0.25, y: '0.5', category: 'food,fun', fill: '#abc' },
          { id: 'b', title: 'B', x: 400, y: 200, category: ['fun'] },
          { id: 'c', x: '', y: '', category: 'nowhere' },
          { id: 'logo', title: 'Logo', x: 0.5, y: 0.5, pin: 'pin-label', label: 'https://example.com/logo.png' },
          { title: '', id: '' },
        ] },
        { id: 'first', title: 'First', map: 'first.png' },
      ],
      locations: [{ id: 'd', title: 'D', level: 'first', x: 0.1, y: 0.2 }, { id: 'e', title: 'E', level: 'roof' }],
    };
    const plan = parseMapplicJson({ text: JSON.stringify(map), filename: 'map.json', attachments: new Map([['first.png', Buffer.from('')]]) });
    expect(plan.floors.map((floor) => floor.drawing)).toEqual([null, { kind: 'attachment', name: 'first.png' }]);
    expect(messages(plan)).toContain('is on another site (https://example.com/maps/Ground.SVG), which the import does not fetch: download Ground.SVG');
    expect(plan.locations.map((location) => [location.id, location.floor])).toEqual([['a', 'ground'], ['b', 'ground'], ['c', 'ground'], ['logo', 'ground'], ['d', 'first'], ['e', 'ground']]);
    expect(byId(plan, 'logo').fields).toEqual({ title: 'Logo', thumbnail: 'https://example.com/logo.png', marker: 'thumbnail' });
    expect(byId(plan, 'a')).toMatchObject({ groups: ['food', 'fun'], position: { kind: 'fraction', x: 0.25, y: 0.5 }, fields: { color: '#aabbcc' } });
    expect(byId(plan, 'b').position).toEqual({ kind: 'pixel', x: 400, y: 200 });
    expect(plan.problems.filter((problem) => problem.message.includes('read as pixels'))).toHaveLength(1);
    expect(byId(plan, 'c')).toMatchObject({ fields: { title: 'c' }, position: null });
    expect(plan.groups.map((group) => [group.key, group.name, group.color])).toEqual([['food', 'Food', '#ff8000'], ['fun', 'Fun', '#800080'], ['odd', 'Odd', null], ['nowhere', 'nowhere', null]]);
    expect(messages(plan)).toContain('The colour “not-a-colour” of category “Odd”');
    expect(messages(plan)).toContain('categories the file does not define (nowhere)'.replace('categories', 'a category'));
    expect(messages(plan)).toContain('neither an id nor a title');
    expect(messages(plan)).toContain('There is no level “roof”');
  });

  it('puts latitude/longitude on a geographic floor when the map has no bounds, and refuses what is not a Mapplic map in plain words', () => {
    const plan = parseMapplicJson({ text: JSON.stringify({ mapwidth: 100, mapheight: 100, levels: [{ id: 'l', map: 'l.svg', locations: [{ id: 'p', title: 'Paris', lat: '48.8566', lng: '2.3522' }] }] }), filename: 'm.json', attachments: new Map() });
    expect(plan.locations[0]).toMatchObject({ floor: null, position: { kind: 'geo', lat: 48.8566, lng: 2.3522 } });
    expect(messages(plan)).toContain('geographic floor');
    expect(() => parseMapplicJson({ text: '{"levels": [', filename: 'm.json', attachments: new Map() })).toThrow(/^The file was read as a Mapplic map \(JSON\), but it is not valid JSON .*Export it again from Mapplic/);
    expect(() => parseMapplicJson({ text: '{"type": "FeatureCollection"}', filename: 'm.json', attachments: new Map() })).toThrow('but it has no "levels". Upload the JSON file Mapplic reads');
  });
});

describe('Mapplic CSV', () => {
  it('is told from other tables', () => {
    expect(isMapplicCsvHeader(['id', 'title', 'about', 'description', 'category', 'link', 'x', 'y', 'level', 'thumbnail'])).toBe(true);
    expect(isMapplicCsvHeader(['store_name', 'address', 'lat', 'lng'])).toBe(false);
    expect(isMapplicCsvHeader(['id', 'title', 'x', 'y'])).toBe(false);
    expect(isMapplicCsvHeader(['id', 'title', 'category', 'address', 'lat', 'lng'])).toBe(false);
    // Mapfold's own export is a table whose columns are mapped, not Mapplic's.
    expect(isMapplicCsvHeader(['id', 'title', 'about', 'description', 'floor', 'x', 'y', 'lat', 'lng', 'element', 'zoom', 'marker', 'color', 'label', 'groups'])).toBe(false);
  });

  it('reads the Germany CSV (semicolons, lat/lng only) with every column mapped', () => {
    const plan = csv('germany-cities.csv');
    expect(plan.format).toBe('mapplic-csv');
    expect(plan.locations).toHaveLength(10);
    expect(plan.floors).toEqual([]);
    expect(plan.groups).toEqual([{ key: 'cities', name: 'cities', color: null }]);
    expect(byId(plan, 'nuernberg')).toMatchObject({
      id: 'nuernberg', floor: null, groups: ['cities'],
      position: { kind: 'geo', lat: 49.460983, lng: 11.61859 },
      fields: { title: 'Nürnberg', label: 'Nürnberg', marker: 'label', color: '#4e8ec6', image: 'https://ftp.parkour.org/map/images/photos/nuernberg.jpg' },
    });
    expect(byId(plan, 'kiel').fields.description).toMatch(/^Lorem ipsum dolor sit amet/);
    expect(plan.columns).toEqual({ used: ['id', 'title', 'description', 'fill', 'category', 'lat', 'lng', 'pin', 'label', 'image'], ignored: [] });
    expect(plan.problems).toEqual([]);
  });

  it('reads a shopping centre’s CSV: every row, its three levels, a drawing named after its level, ids kept for the regions', () => {
    const plan = csv('wollongong-central.csv', { 'wol_lvl_1.svg': bytes('lvl1.svg') });
    expect(plan.locations).toHaveLength(28);
    expect(plan.floors).toEqual([
      { key: 'wol_lvl_g', name: 'wol_lvl_g', drawing: null },
      { key: 'wol_lvl', name: 'wol_lvl', drawing: null },
      { key: 'wol_lvl_1', name: 'wol_lvl_1', drawing: { kind: 'attachment', name: 'wol_lvl_1.svg' } },
    ]);
    const level1 = plan.locations.filter((location) => location.floor === 'wol_lvl_1');
    expect(level1).toHaveLength(17);
    // Illustrator's ids are kept exactly, so they meet the drawing's regions of the same id.
    const regions = new Set([...text('lvl1.svg').matchAll(/ id="([^"]+)"/g)].map((match) => match[1]));
    for (const location of level1) expect(regions.has(location.id!), location.id!).toBe(true);
    expect(byId(plan, 'W201_00000012473567040788730760000014406925100089904526_').fields.title).toBe('JB Hi-Fi Home');
    expect(byId(plan, 'CPK001')).toMatchObject({
      groups: ['6'], position: { kind: 'fraction', x: 0.666, y: 0.2032 },
      fields: { about: 'Shop: CPK001 (Crown, Level 2 parking)', description: '1800 762 792', link: 'https://www.wollongongcentral.com.au/stores/snap-car-wash' },
    });
    // Mapplic shows only the first N006; both shops come in, and the uploader is told.
    expect(plan.locations.filter((location) => location.id === 'N006').map((location) => location.fields.title)).toEqual(['Mister Minit', 'V-Box']);
    expect(messages(plan)).toContain('The id “N006” was already used on row 6');
    expect(messages(plan)).toContain('The categories are numbers');
    expect(messages(plan)).toContain('Upload its drawing named wol_lvl_g.svg');
    expect(plan.columns.used).toEqual(['id', 'title', 'about', 'description', 'category', 'link', 'x', 'y', 'level', 'thumbnail']);
  });

  it('puts a CSV with no levels on the one drawing uploaded with it, and knows the map’s floors', () => {
    const table = 'id,title,x,y,pin\nde-by,Bayern,0.6,0.75,hidden\nde-be,Berlin,0.7,0.35,circle\n';
    const alone = parseMapplicCsv({ text: table, filename: 'de.csv', attachments: new Map([['germany.svg', Buffer.from('<svg/>')]]) });
    expect(alone.floors).toEqual([{ key: 'germany', name: 'germany', drawing: { kind: 'attachment', name: 'germany.svg' } }]);
    expect(alone.locations.map((location) => [location.id, location.floor, location.fields.marker])).toEqual([['de-by', 'germany', 'hidden'], ['de-be', 'germany', 'circle']]);
    const onMap = parseMapplicCsv({ text: 'id,title,x,y,level\na,A,0.5,0.5,Ground floor\n', filename: 'a.csv', attachments: new Map(), document: { layers: [{ id: 'ground', name: 'Ground floor', file: null }] } });
    expect(onMap.floors).toEqual([{ key: 'Ground floor', name: 'Ground floor', drawing: null }]);
    expect(onMap.problems).toEqual([]);
    expect(() => parseMapplicCsv({ text: 'name;lat\nx;1\n', filename: 'x.csv', attachments: new Map() })).toThrow('The file was read as a Mapplic locations CSV, but it has neither an "id" nor a "title" column.');
    expect(() => parseMapplicCsv({ text: 'id,title,x,y,level\n', filename: 'x.csv', attachments: new Map() })).toThrow('it has a header row and no rows under it');
  });
});

describe('colours', () => {
  it('reads the ways Mapplic files write colours', () => {
    expect(['#DD3C38', 'dd3c38', '#abc', '#4d5e6dff', 'rgb(77, 94, 109)', 'rgba(77,94,109,0.5)', 'rgb(100% 0% 0%)', 'SteelBlue', ' grey ']
      .map(normaliseColour)).toEqual(['#dd3c38', '#dd3c38', '#aabbcc', '#4d5e6d', '#4d5e6d', '#4d5e6d', '#ff0000', '#4682b4', '#808080']);
    expect(['', 'blurple', 'url(#g)', '#12345', 12].map(normaliseColour)).toEqual([null, null, null, null, null]);
  });
});

describe.each(databaseTargets)('Mapplic files through POST /api/maps/{id}/import on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
  }, 60_000);
  afterAll(() => server?.close());
  // A free account holds two test maps: each test has its own.
  beforeEach(async () => {
    owner = await registerUser(server);
  });

  async function newMap(title: string): Promise<string> {
    const answer = await call(server, 'createMap', { title }, owner);
    if (answer.status !== 200) throw new Error(`createMap: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.position) await projected(server, answer.body.position);
    return answer.body.result as string;
  }
  async function mapData(mapId: string): Promise<{ revision: string; data: MapDocument }> {
    const response = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } });
    return ((await response.json()) as { result: { revision: string; data: MapDocument } }).result;
  }
  /** The file and the ones it names, as one multipart form (the way the editor sends them). */
  async function importForm(mapId: string, main: [string, Buffer, string], alongside: Array<[string, Buffer, string]>, apply: boolean) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(main[1])], { type: main[2] }), main[0]);
    for (const [name, content, type] of alongside) form.append('drawing', new Blob([new Uint8Array(content)], { type }), name);
    const response = await fetch(`${server.url}/api/maps/${mapId}/import${apply ? '?apply=1' : ''}`, { method: 'POST', headers: { cookie: owner.cookie }, body: form });
    const body = (await response.json()) as any;
    if (body.position) await projected(server, body.position);
    if (response.status !== 200) throw new Error(`import: ${response.status} ${JSON.stringify(body)}`);
    return body.result;
  }
  const SVG = 'image/svg+xml';

  it('previews a building of four levels with the one drawing uploaded alongside, changing nothing, then applies it', async () => {
    const mapId = await newMap('Building');
    const before = await mapData(mapId);
    const main: [string, Buffer, string] = ['mb-bmstu-config.json', bytes('bmstu-floors.json'), 'application/json'];
    const drawings: Array<[string, Buffer, string]> = [['main_floor-2.svg', bytes('main_floor-2.svg'), SVG]];
    const preview = await importForm(mapId, main, drawings, false);
    expect(preview).toMatchObject({ format: 'mapplic', revision: null, replaces: false, counts: { layers: 4, locations: 15, groups: 7, skipped: 0 } });
    const uploads = (preview.problems as Array<{ message: string }>).map((problem) => problem.message).join('\n');
    for (const missing of ['main_floor-1.svg', 'main_floor-3.svg', 'main_floor-4.svg']) expect(uploads).toContain(missing);
    expect(uploads).not.toMatch(/Upload main_floor-2\.svg/);
    expect(preview.columns.ignored).toContain('style');
    expect((await mapData(mapId)).revision).toBe(before.revision);

    const applied = await importForm(mapId, main, drawings, true);
    expect(applied.revision).not.toBeNull();
    const document = (await mapData(mapId)).data;
    const floors = document.layers.filter((layer) => layer.name.startsWith('ГУК'));
    expect(floors.map((layer) => layer.name)).toEqual(['ГУК - 1 этаж', 'ГУК - 2 этаж', 'ГУК - 3 этаж', 'ГУК - 4 этаж']);
    expect(floors.map((layer) => Boolean(layer.file))).toEqual([false, true, false, false]);
    expect(floors[1]!.file).toMatchObject({ kind: 'svg', url: expect.stringMatching(/^\/files\//), width: 2649.05, height: 1165.57 });
    const rooms = document.locations.filter((location) => location.id.startsWith('room-'));
    expect(rooms).toHaveLength(15);
    expect(rooms.filter((room) => room.layer === floors[1]!.id).map((room) => room.id)).toEqual(['room-232', 'room-227', 'room-226', 'room-213', 'room-205']);
    const director = rooms.find((room) => room.id === 'room-205')!;
    const admin = document.groups.find((group) => group.name === 'Администрация МФ МГТУ')!;
    expect(admin.color).toBe('#ed9337');
    expect(director).toMatchObject({ title: 'Директор', zoom: 3, groups: [admin.id], description: 'д.т.п., профессор Санаев Виктор Георгиевич' });
  });

  it('brings in a shopping centre’s CSV on its level drawing: every row, ids linked to the regions, x/y scaled to the drawing', async () => {
    const mapId = await newMap('Wollongong Central');
    const main: [string, Buffer, string] = ['location-data.csv', bytes('wollongong-central.csv'), 'text/csv'];
    const drawings: Array<[string, Buffer, string]> = [['wol_lvl_1.svg', bytes('lvl1.svg'), SVG]];
    const preview = await importForm(mapId, main, drawings, false);
    expect(preview).toMatchObject({ format: 'mapplic-csv', counts: { locations: 28, layers: 3, groups: 10, skipped: 0 } });
    expect(preview.counts.regionsLinked).toBeGreaterThanOrEqual(17);
    await importForm(mapId, main, drawings, true);
    const document = (await mapData(mapId)).data;
    expect(document.locations).toHaveLength(28);
    const level1 = document.layers.find((layer) => layer.name === 'wol_lvl_1')!;
    expect(level1.file).toMatchObject({ kind: 'svg', width: 1844.5, height: 1980.2 });
    const rows = csv('wollongong-central.csv').locations.filter((location) => location.floor === 'wol_lvl_1');
    for (const row of rows) {
      const location = document.locations.find((candidate) => candidate.id === row.id)!;
      expect(location, row.id!).toBeDefined();
      expect(location.layer).toBe(level1.id);
      expect(location.element, row.id!).toBe(row.id);
      const source = row.position as { kind: 'fraction'; x: number; y: number };
      expect(Math.abs(location.position!.x - source.x * 1844.5), row.id!).toBeLessThan(1);
      expect(Math.abs(location.position!.y - source.y * 1980.2), row.id!).toBeLessThan(1);
    }
    // Both N006 shops are there, the second under an id of its own.
    expect(document.locations.filter((location) => location.title === 'Mister Minit' || location.title === 'V-Box').map((location) => location.id)).toEqual(['N006', expect.not.stringMatching(/^N006$/)]);
    expect(document.locations.find((location) => location.id === 'CPK001')).toMatchObject({ about: 'Shop: CPK001 (Crown, Level 2 parking)', description: '1800 762 792' });
  });

  it('previews every Mapplic map with as many floors, groups and locations as the file has, and applies the US sample field by field', async () => {
    const mapId = await newMap('Every fixture');
    // New floors: one per level, but the mall's "Ground Floor", which is the new map's own Ground floor (matched by name).
    const newFloors: Record<string, number> = { 'germany.json': 1, 'usa.json': 1, 'diospadre.json': 1, 'kashiwa-mall.json': 0, 'bmstu-floors.json': 4 };
    for (const [name, layers] of Object.entries(newFloors)) {
      const data = JSON.parse(text(name)) as { levels: unknown[]; groups?: unknown[]; categories?: unknown[] };
      const preview = await importForm(mapId, [name, bytes(name), 'application/json'], [], false);
      expect(preview.format, name).toBe('mapplic');
      expect(preview.counts, name).toMatchObject({ locations: sourceCount(name), layers, groups: (data.groups ?? data.categories ?? []).length, skipped: 0, updated: 0 });
    }
    await importForm(mapId, ['usa.json', bytes('usa.json'), 'application/json'], [], true);
    const document = (await mapData(mapId)).data;
    const group = (name: string) => document.groups.find((candidate) => candidate.name === name)!;
    expect([group('Offices').color, group('Test').color, group('States').color]).toEqual(['#f23543', '#c91965', '#495360']);
    const location = (id: string) => document.locations.find((candidate) => candidate.id === id)!;
    expect(location('ca-sanfrancisco')).toMatchObject({
      title: 'San Francisco', about: 'Location with image', label: 'SF', marker: 'label', link: 'http://www.mapplic.com/', groups: [group('Offices').id],
      thumbnail: 'https://source.unsplash.com/o4mP43oPGHk/100x100', image: 'https://source.unsplash.com/o4mP43oPGHk/300x200',
    });
    expect(location('fl')).toMatchObject({ marker: 'hidden', zoom: 2, groups: [group('States').id] });
    expect(location('houston')).toMatchObject({ marker: 'thumbnail', image: null, thumbnail: null, groups: [group('Test').id] });
    // No usa.svg alongside: a floor without a drawing, its locations on it.
    const floor = document.layers.find((layer) => layer.name === 'United States')!;
    expect(floor.file).toBeNull();
    expect(location('ca-sanfrancisco').layer).toBe(floor.id);
  });

  it('refuses a Mapplic CSV with no rows in words, changing nothing', async () => {
    const mapId = await newMap('Empty');
    const response = await fetch(`${server.url}/api/maps/${mapId}/import?filename=locations.csv&apply=1`, {
      method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'text/csv' }, body: 'id,title,x,y,level,category\n',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe('The file was read as a Mapplic locations CSV, but it has a header row and no rows under it. Add one row per location under the header.');
    expect((await mapData(mapId)).data.locations).toEqual([]);
  });

  it('calibrates the Germany map from its bounds, then places the cities of its CSV where Mapplic puts them', async () => {
    const mapId = await newMap('Germany');
    const main: [string, Buffer, string] = ['germany.json', bytes('germany.json'), 'application/json'];
    const alone = await importForm(mapId, main, [], false);
    expect(alone.problems.map((problem: { message: string }) => problem.message).join('\n')).toContain('Upload germany.svg');
    // Mapplic's germany.svg is not public: a 598 × 598 stand-in with the region the JSON names.
    const standIn = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 598 598"><g id="states"><path id="de-ni" d="M200 120h90v80h-90z"/><path id="de-by" d="M300 400h120v120h-120z"/></g></svg>');
    const applied = await importForm(mapId, main, [['germany.svg', standIn, SVG]], true);
    expect(applied.counts).toMatchObject({ layers: 1, locations: 1, groups: 2, regionsLinked: 1 });
    let document = (await mapData(mapId)).data;
    const germany = document.layers.find((layer) => layer.name === 'Germany')!;
    expect(germany.file).toMatchObject({ kind: 'svg', width: 598, height: 598 });
    expect(germany.geo).toMatchObject({ kind: 'bounds', projection: 'mercator', south: 47.05917222342128, west: 3.8907050668630125, east: 16.983844168134127 });
    const niedersachsen = document.locations.find((location) => location.id === 'de-ni')!;
    expect(niedersachsen).toMatchObject({ layer: germany.id, title: 'Niedersachsen', color: '#4fffff', marker: 'hidden', element: 'de-ni' });
    expect(niedersachsen.position!.x).toBeCloseTo(0.4049 * 598, 0);
    expect(niedersachsen.position!.y).toBeCloseTo(0.2675 * 598, 0);
    expect(document.groups.map((group) => [group.name, group.color])).toEqual(expect.arrayContaining([['States', '#4d5e6d'], ['Cities', '#dd3c38']]));

    const preview = await importForm(mapId, ['example.csv', bytes('germany-cities.csv'), 'text/csv'], [], false);
    expect(preview).toMatchObject({ format: 'mapplic-csv', counts: { locations: 10, layers: 0, groups: 0 } });
    await importForm(mapId, ['example.csv', bytes('germany-cities.csv'), 'text/csv'], [], true);
    document = (await mapData(mapId)).data;
    const cities = document.locations.filter((location) => location.id !== 'de-ni');
    expect(cities).toHaveLength(10);
    const cityGroup = document.groups.find((group) => group.name === 'Cities')!;
    const data = { mapwidth: 598, mapheight: 598, leftLng: 3.8907050668630125, rightLng: 16.983844168134127, bottomLat: 47.05917222342128 };
    for (const source of csv('germany-cities.csv').locations) {
      const city = cities.find((candidate) => candidate.id === source.id)!;
      const place = source.position as { kind: 'geo'; lat: number; lng: number };
      const mapplic = mapplicLatlngToPos(data, place.lat, place.lng);
      expect(city.layer).toBe(germany.id);
      expect(city.groups).toEqual([cityGroup.id]);
      expect(Math.abs(city.position!.x - mapplic.x * 598), city.id).toBeLessThan(1);
      expect(Math.abs(city.position!.y - mapplic.y * 598), city.id).toBeLessThan(1);
    }
    expect(cities.find((city) => city.id === 'muenchen')).toMatchObject({ title: 'München', label: 'München', marker: 'label', color: '#4e8ec6' });
  });
});
