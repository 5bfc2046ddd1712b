/**
 * A floor on a street basemap in Chromium (issue 29 item 1 and its leftovers), one server and one
 * browser for all (each e2e file starting its own costs CI seconds; this file was two). WebGL
 * runs headless through SwiftShader with the session's usual flags. Every page is opened by
 * `open` below (a context of the viewport's kind, what the page refuses or throws collected,
 * MapLibre's first drawing waited for); each costs some seconds of CPU, so checks that start from
 * the same page share one (run before the view is moved, or after the page is gone to again).
 * Screenshots go to $SCREENSHOTS (when set) to be looked at.
 *
 * The viewer: the 102 Texas stores of the real Starbucks directory excerpt
 * (test/e2e/support/texas-stores.ts) on a floor laid on the basemap by Web Mercator bounds,
 * beside a drawn floor. At 1280 and 375 wide: MapLibre's canvas drawn, its tiles answered 206
 * (HTTP Range), nothing refused by the Content-Security-Policy; a store chosen in the directory
 * is flown to and its popup opens at its marker (a bottom sheet on a phone); a click on the
 * marker opens it too; a group filter takes the other group's pins off the map; the drawn floor
 * and back. MapLibre's attribution: open on a desktop, folded behind its (i) on a phone.
 *
 * Pictures: from the viewer's share menu, the PNG shows the basemap as MapLibre draws it (its
 * land and water colours, not a blank sheet), the stores' pins over it in their groups' colours,
 * and the tiles' attribution; the SVG carries the basemap as an image with the attribution's
 * text; Print puts the basemap on the page. And the rest of the viewer on that floor: a deep
 * link in French opens its location there, the basemap's labels asked in French, the legend
 * shown, the minimap left out (a street map has none), the location's opening counted by the
 * insights beacon, and the browser's own Print puts the basemap on paper.
 *
 * Regions: the real US states GeoJSON (test/fixtures/realworld/geojson, mapbox/geojson-vt's)
 * imported into a new street map lands on its basemap floor as its regions, drawn by MapLibre
 * (a hidden state left out); at 1280 and 375 wide a state chosen in the directory is shown whole,
 * active in its colour, and a click on it opens it; with a group filter the other states fade and
 * a click on one opens nothing; Tab from the map reaches a location's button first (MapLibre's
 * attribution links come after them) and Enter opens it. In the editor, with a state's location
 * removed, the place tool over that state shows a pointer and a click links the new location to
 * its region, as on a drawn floor.
 *
 * Issue 29's leftovers:
 *  - the route's overlay is drawn where MapLibre shows the floor (through MapView.screen), on a
 *    floor whose units are not square on the basemap: its ends sit on the stores' pins, at 1280
 *    and 375 wide;
 *  - the editor at 1280 and 375: MapLibre's attribution and the zoom buttons clear of each
 *    other, and the Data panel's picture has the basemap under it;
 *  - the 25,000-store chain opens on its stores on a phone, not on the middle of their bounds;
 *    on a desktop its keyboard buttons are for the clusters and stores on screen, not one per
 *    store, and Enter on a cluster zooms in with the focus following;
 *  - the server's page has the store locator's control ("Find the nearest") before any script,
 *    hydrates without a mismatch, and the "Mapfold" credit stays out of the phone's sheet; its
 *    zoom buttons are disabled until the map is drawn, and the first press then zooms;
 *  - a store's pin hides the basemap's place name under it (its town's), rather than covering
 *    half of it;
 *  - an imported line (a route's LineString) is drawn on the basemap in the theme's accent, as a
 *    drawn floor draws it in its drawing, at 1280 and 375 wide.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundsAround, mercatorBoundsFor } from '../../events/basemap-bounds.js';
import { LOCATION_DEFAULTS } from '../../events/compact-locations.js';
import { projectToFloor } from '../../events/geo-calibration.js';
import { emptyMapDocument, type GeoCalibration, type MapDocument } from '../../events/map-document.js';
import { startBrowserSession } from '../support/browser.js';
import { mapImports } from '../support/map-imports.js';
import { STORE_CHAIN_ROWS, storeChainCsv } from '../support/store-chain.js';
import { call, projected, registerUser, type TestUser } from '../support/test-server.js';
import { DALLAS_PINS, ELSEWHERE_PINS, TEXAS, TEXAS_SIZE, texasBasemapDocument } from './support/texas-stores.js';

/** How long a step may wait (a first page of a run waits for MapLibre's code, the style and the first tiles on a busy machine). */
const TIMEOUT = 30_000;
const shots = process.env.SCREENSHOTS ?? null;
/** The pictures' and the route's pins. */
const PIN = '#db2777';
/** The theme's accent: the chain's clusters and pins. */
const ACCENT = '#4f46e5';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };
/** The pictures' window: a desktop's layout, its map some 680 CSS pixels wide. */
const PICTURE_WINDOW = { width: 1024, height: 640 };
const TOWNS = [
  { id: 'dallas', title: 'Dallas store', lat: 32.78, lng: -96.8 },
  { id: 'austin', title: 'Austin store', lat: 30.27, lng: -97.74 },
  { id: 'houston', title: 'Houston store', lat: 29.76, lng: -95.37 },
  { id: 'el-paso', title: 'El Paso store', lat: 31.76, lng: -106.45 },
];
/** The colour given to Texas's group on the regions map (its region tinted from it, as the canvas tints). */
const LONE_STAR = '#dc2626';
/** The route's map: Texas in Web Mercator bounds on a square floor (its units are longer down than across on the basemap). */
const SQUARE_TEXAS: GeoCalibration = { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 };
const SQUARE = { width: 1000, height: 1000 };
/** What MapLibre has drawn once a basemap floor is ready. */
const READY = '.mf-basemap[data-ready] canvas.maplibregl-canvas';

/** Phase timings (E2E_LAPS=1): where a run's seconds go. */
const t0 = Date.now();
const lap = process.env.E2E_LAPS ? (label: string) => console.log(`[lap] ${((Date.now() - t0) / 1000).toFixed(1)} s ${label}`) : () => undefined;

async function shot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** Four towns' stores on a floor on the basemap around Texas (the pictures' map; its setting asks for a minimap). */
function townsDocument(): MapDocument {
  const base = emptyMapDocument();
  return {
    ...base,
    settings: { ...base.settings, size: TEXAS_SIZE, defaultLayer: 'texas', features: { ...base.settings.features, minimap: true } },
    layers: [{ id: 'texas', name: 'Texas', file: null, geo: TEXAS, basemap: true }],
    groups: [{ id: 'stores', name: 'Stores', color: PIN, legend: true }],
    locations: TOWNS.map((town) => ({ ...LOCATION_DEFAULTS, id: town.id, title: town.title, groups: ['stores'], entrances: [], layer: 'texas', position: projectToFloor(TEXAS, TEXAS_SIZE, town)! })),
  } as MapDocument;
}

/** Three Texas stores joined by a path (Dallas, Austin, Houston), on the basemap on a square floor. */
function routeDocument(): MapDocument {
  const base = emptyMapDocument();
  const towns = TOWNS.slice(0, 3);
  const at = (town: (typeof TOWNS)[number]) => projectToFloor(SQUARE_TEXAS, SQUARE, town)!;
  return {
    ...base,
    settings: { ...base.settings, size: SQUARE, defaultLayer: 'texas' },
    layers: [{ id: 'texas', name: 'Texas', file: null, geo: SQUARE_TEXAS, basemap: true }],
    groups: [{ id: 'stores', name: 'Stores', color: PIN, legend: true }],
    locations: towns.map((town) => ({ ...LOCATION_DEFAULTS, id: town.id, title: town.title, groups: ['stores'], entrances: [`n-${town.id}`], layer: 'texas', position: at(town) })),
    paths: {
      nodes: towns.map((town) => ({ id: `n-${town.id}`, layer: 'texas', ...at(town) })),
      edges: [
        { id: 'e1', from: 'n-dallas', to: 'n-austin', stepFree: true, oneWay: false },
        { id: 'e2', from: 'n-austin', to: 'n-houston', stepFree: true, oneWay: false },
      ],
      connectors: [],
    },
  } as MapDocument;
}

/** A new street map, as /maps/new makes one: one floor on the basemap over the world, nothing on it. */
function streetMapDocument(): MapDocument {
  const document = emptyMapDocument();
  const geo = mercatorBoundsFor({ north: 75, south: -60, west: -170, east: 190 }, document.settings.size);
  return { ...document, settings: { ...document.settings, defaultLayer: 'map' }, layers: [{ id: 'map', name: 'Map', file: null, geo, basemap: true }] } as MapDocument;
}

/** The 25,000-store chain (GeoNames places round the world) on a basemap floor fitted to it, as an import lays it. */
async function chainDocument(): Promise<MapDocument> {
  const { default: Papa } = await import('papaparse');
  const rows = Papa.parse<Record<string, string>>(storeChainCsv(), { header: true, skipEmptyLines: true }).data;
  const base = emptyMapDocument();
  const size = base.settings.size;
  const places = rows.map((row) => ({ lat: Number(row.latitude), lng: Number(row.longitude) }));
  const geo = boundsAround(places, size);
  return {
    ...base,
    settings: { ...base.settings, defaultLayer: 'stores' },
    layers: [{ id: 'stores', name: 'Stores', file: null, geo, basemap: true }],
    groups: [],
    locations: rows.map((row, index) => ({ ...LOCATION_DEFAULTS, id: row.store_id!, title: `Northwind ${row.name}`, groups: [], entrances: [], layer: 'stores', position: projectToFloor(geo, size, places[index]!)! })),
  } as MapDocument;
}

type Box = { x: number; y: number; width: number; height: number };

/** The pixels near a colour in a part of the page (the screenshot decoded in the page): where they are, in page CSS pixels. */
async function pixelsNear(page: Page, colour: string, box: Box): Promise<{ x: number; y: number }[]> {
  const png = (await page.screenshot({ clip: box })).toString('base64');
  const found = await page.evaluate(
    async ({ png, colour }) => {
      // (An image, not fetch: the page's policy lets it read data: images, not connect to them.)
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16)) as [number, number, number];
      const points: number[] = [];
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i]! - r) < 24 && Math.abs(data[i + 1]! - g) < 24 && Math.abs(data[i + 2]! - b) < 24) points.push((i / 4) % image.width, Math.floor(i / 4 / image.width));
      }
      return points;
    },
    { png, colour },
  );
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < found.length; i += 2) points.push({ x: box.x + found[i]!, y: box.y + found[i + 1]! });
  return points;
}

/** How many of the page's pixels in a box are near a colour. */
/**
 * Where Oklahoma is on the editor's street map: selected from the Locations list, its outline in the
 * accent (below the tools and their hint, which are in the accent too), then the selection cleared.
 */
async function outlineOfOklahoma(page: Page, map: Box): Promise<{ left: number; right: number; top: number; bottom: number }> {
  await page.getByRole('tab', { name: 'Locations' }).click();
  await page.getByRole('list', { name: 'Locations', exact: true }).getByRole('button', { name: 'Oklahoma', exact: true }).click();
  let outline: { x: number; y: number }[] = [];
  const below = { ...map, y: map.y + 110, height: map.height - 110 };
  await expect.poll(async () => (outline = await pixelsNear(page, ACCENT, below)).length, { timeout: TIMEOUT, message: 'Oklahoma outlined' }).toBeGreaterThan(30);
  const xs = outline.map((point) => point.x);
  const ys = outline.map((point) => point.y);
  await page.getByRole('button', { name: 'All locations' }).click();
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

const pixelsOf = async (page: Page, colour: string, box: Box) => (await pixelsNear(page, colour, box)).length;

/** A PNG's pixels (decoded in the page): how many near the pin's colour, how many distinct colours in all, and the share of near-white ones. */
async function pngStats(page: Page, png: Buffer): Promise<{ width: number; height: number; pin: number; colours: number; background: number }> {
  return page.evaluate(
    async ({ base64, pin }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(pin.slice(at, at + 2), 16)) as [number, number, number];
      const colours = new Set<number>();
      let near = 0;
      let white = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i]! - r) < 24 && Math.abs(data[i + 1]! - g) < 24 && Math.abs(data[i + 2]! - b) < 24) near++;
        if (data[i]! > 250 && data[i + 1]! > 250 && data[i + 2]! > 250) white++;
        colours.add((data[i]! >> 3) * 1024 + (data[i + 1]! >> 3) * 32 + (data[i + 2]! >> 3));
      }
      return { width: image.width, height: image.height, pin: near, colours: colours.size, background: white / (data.length / 4) };
    },
    { base64: png.toString('base64'), pin: PIN },
  );
}

/** Pixels of Texas's region when it is selected (its group's colour, tinted as the canvas's active region). */
const redPixels = async (page: Page, box: Box) =>
  page.evaluate(
    async (png) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! > 180 && data[i]! - data[i + 1]! > 70 && data[i]! - data[i + 2]! > 70) count++;
      return count;
    },
    (await page.screenshot({ clip: box })).toString('base64'),
  );

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Whether the "Mapfold" credit is drawn over a sheet: its middle inside the sheet, and the credit on top there. */
function creditOver(page: Page, sheet: string): Promise<boolean> {
  return page.evaluate((selector) => {
    const credit = document.querySelector('.mf-credit');
    const panel = document.querySelector(selector);
    if (!credit || !panel) return false;
    const box = credit.getBoundingClientRect();
    const area = panel.getBoundingClientRect();
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    const inside = x >= area.left && x <= area.right && y >= area.top && y <= area.bottom;
    const top = document.elementFromPoint(x, y);
    return inside && top !== null && credit.contains(top);
  }, sheet);
}

/** Where an element of the route's overlay is placed (its translate), in page pixels. */
async function placed(page: Page, selector: string, origin: { x: number; y: number }): Promise<{ x: number; y: number }> {
  const transform = (await page.locator(selector).evaluate((element) => (element as HTMLElement).style.transform)) ?? '';
  const [, x, y] = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(transform) ?? [];
  return { x: origin.x + Number(x), y: origin.y + Number(y) };
}

/** The map's area on screen, and its middle. */
const middleOf = async (page: Page) => {
  const box = (await page.locator('.mf-basemap').boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
};

const session = {} as Awaited<ReturnType<typeof startBrowserSession>>;
let owner: TestUser;
beforeAll(async () => {
  lap('file start');
  // (The 25,000-store chain is more than the default body limit's 64 KB.)
  Object.assign(session, await startBrowserSession({ env: { BODY_LIMIT: String(32 * 1024 * 1024) } }));
  lap('server and browser started');
  owner = await registerUser(session.server);
}, 120_000);
afterAll(() => session.close?.());

/** A map made from a document, in a state of maps_list (1: published, 3: published on Professional, as publishing through slots is billing's). */
async function createdMap(title: string, mapData: MapDocument, state = 1): Promise<string> {
  const answer = await call(session.server, 'createMap', { title, mapData }, owner);
  expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
  await projected(session.server, answer.body.position);
  const mapId = answer.body.result as string;
  await publish(mapId, state);
  return mapId;
}
const publish = (mapId: string, state = 1) => session.server.database.db.query('UPDATE maps_list SET state = $2 WHERE id = $1', [mapId, state]);

interface Opened {
  context: BrowserContext;
  page: Page;
  /** What the page threw, what its Content-Security-Policy refused, and hydration's mismatches. */
  errors: string[];
  /** The statuses of the basemap archive's answers. */
  tiles: number[];
}

/**
 * A page of the test server in a context of its own (a phone's touch screen under 720 wide, as
 * the viewer's layout tells them apart), what goes wrong in it collected; by default once
 * MapLibre has drawn the basemap (`ready`: another selector to wait for, or null for none;
 * `before`: what to do with the page before it is opened).
 */
async function open(
  viewport: { width: number; height: number },
  url: string,
  options: { ready?: string | null; javaScript?: boolean; downloads?: boolean; signedIn?: boolean; touch?: boolean; before?: (page: Page) => void } = {},
): Promise<Opened> {
  const touch = options.touch ?? viewport.width < 720;
  const context = await session.browser.newContext({ baseURL: session.server.url, viewport, isMobile: touch, hasTouch: touch, javaScriptEnabled: options.javaScript ?? true, acceptDownloads: options.downloads ?? false });
  if (options.signedIn) {
    const [name, value] = owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: session.server.url }]);
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/content security policy|refused to/i.test(message.text()) || (message.type() === 'error' && /hydrat|did not match/i.test(message.text()))) errors.push(message.text());
  });
  const tiles: number[] = [];
  page.on('response', (response) => {
    if (/\/basemap\/world\.[0-9a-f]+\.pmtiles$/.test(new URL(response.url()).pathname)) tiles.push(response.status());
  });
  options.before?.(page);
  const started = Date.now();
  await page.goto(url);
  const ready = options.ready === undefined ? READY : options.ready;
  if (ready) await page.locator(ready).waitFor({ timeout: 2 * TIMEOUT });
  lap(`  opened ${url} at ${viewport.width} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { context, page, errors, tiles };
}

/**
 * No basemap place name cut by a cluster's disc on the Texas stores' map as it opens: the names go
 * around the clusters or give way (the view as first drawn, before anything moves it).
 */
async function expectNoPlaceNameCutByClusters(page: Page, viewport: { width: number }) {
  await expect.poll(async () => pixelsOf(page, ELSEWHERE_PINS, (await middleOf(page)).box), { timeout: TIMEOUT }).toBeGreaterThan(0);
  const map = (await page.locator('.mf-basemap').boundingBox())!;
  const credit = (await page.locator('.maplibregl-ctrl-attrib').boundingBox())!;
  // The clusters' discs (the accent; below the floor switcher, which is in the accent too), grouped by nearness.
  const below = { ...map, y: map.y + 120, height: map.height - 120 };
  const discs: { x: number; y: number }[][] = [];
  for (const point of await pixelsNear(page, ACCENT, below)) {
    const near = discs.find((disc) => Math.abs(disc[0]!.x - point.x) < 60 && Math.abs(disc[0]!.y - point.y) < 60);
    if (near) near.push(point);
    else discs.push([point]);
  }
  const clusters = discs
    .filter((disc) => disc.length > 300)
    .map((disc) => {
      const xs = disc.map((point) => point.x);
      const ys = disc.map((point) => point.y);
      return { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2, r: (Math.max(...xs) - Math.min(...xs)) / 2 };
    })
    .filter((disc) => disc.x - disc.r - 12 > map.x && disc.x + disc.r + 12 < map.x + map.width && disc.y + disc.r + 12 < map.y + map.height)
    // (Not one by MapLibre's attribution, whose text is over the map.)
    .filter((disc) => !(disc.x + disc.r + 12 > credit.x && disc.y + disc.r + 12 > credit.y));
  expect(clusters.length, 'clusters on screen').toBeGreaterThan(1);
  // A place name's dark grey letters in a thin ring just outside each disc's white edge: a name cut by the disc runs
  // through it ('llas' beside Dallas's cluster); a whole name beside the disc stays outside its square.
  const letters = async (disc: { x: number; y: number; r: number }) => {
    const half = Math.ceil(disc.r + 10);
    const png = (await page.screenshot({ clip: { x: disc.x - half, y: disc.y - half, width: 2 * half, height: 2 * half } })).toString('base64');
    return page.evaluate(
      async ({ png, r }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        const { data } = context.getImageData(0, 0, image.width, image.height);
        const [cx, cy] = [image.width / 2, image.height / 2];
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) {
          const d = Math.hypot(((i / 4) % image.width) + 0.5 - cx, Math.floor(i / 4 / image.width) + 0.5 - cy);
          if (d < r + 4 || d > r + 7) continue;
          const [red, green, blue] = [data[i]!, data[i + 1]!, data[i + 2]!];
          if (Math.max(red, green, blue) < 130 && Math.max(red, green, blue) - Math.min(red, green, blue) < 30) dark++;
        }
        return dark;
      },
      { png, r: disc.r },
    );
  };
  await expect.poll(async () => Promise.all(clusters.map(letters)), { timeout: TIMEOUT, message: `letters around the clusters ${JSON.stringify(clusters)}` }).toEqual(clusters.map(() => 0));
  await shot(page, `basemap-clusters-names-${viewport.width}`);
}

describe('a floor on a street basemap in the viewer', () => {
  let mapId: string;
  const made = texasBasemapDocument();

  beforeAll(async () => {
    mapId = await createdMap('Texas coffee stores', made.document);
    lap('texas map made');
  }, 120_000);

  for (const viewport of [DESKTOP, PHONE]) {
    const phone = viewport === PHONE;
    it(`shows the stores on MapLibre's basemap, leaves no basemap place name cut by a cluster's disc (the names go around the clusters or give way), flies to one, filters and switches floors (${viewport.width} wide)`, { timeout: 180_000 }, async () => {
      const { context, page, tiles, errors } = await open(viewport, `/m/${mapId}`);
      // The basemap's archive is read in ranges.
      expect(tiles.length).toBeGreaterThan(0);
      expect(tiles.every((status) => status === 206), tiles.join(' ')).toBe(true);
      await expect.poll(async () => pixelsOf(page, ELSEWHERE_PINS, (await middleOf(page)).box), { timeout: TIMEOUT }).toBeGreaterThan(0);
      await shot(page, `basemap-texas-${viewport.width}`);
      // Before anything moves the view: no basemap place name cut by a cluster's disc.
      await expectNoPlaceNameCutByClusters(page, viewport);
      // MapLibre's attribution: open on a desktop; on a phone folded behind its (i), not over the map, and opened by it.
      const attribution = page.locator('.maplibregl-ctrl-attrib');
      await page.waitForFunction(() => document.querySelector('.maplibregl-ctrl-attrib:not(.maplibregl-attrib-empty)') !== null, undefined, { timeout: TIMEOUT });
      const links = attribution.locator('.maplibregl-ctrl-attrib-inner');
      if (phone) {
        expect(await attribution.getAttribute('class')).toMatch(/\bmaplibregl-compact\b/);
        expect(await attribution.getAttribute('class')).not.toMatch(/maplibregl-compact-show/);
        expect(await links.isVisible()).toBe(false);
        await attribution.locator('summary').click();
        await links.waitFor({ timeout: TIMEOUT });
        await shot(page, `basemap-attribution-open-${viewport.width}`);
        await attribution.locator('summary').click();
        await links.waitFor({ state: 'hidden', timeout: TIMEOUT });
      } else {
        expect(await attribution.getAttribute('class')).not.toMatch(/maplibregl-compact/);
        expect(await links.isVisible()).toBe(true);
      }

      // A store chosen in the directory: flown to, its popup at its marker (a sheet on a phone).
      if (phone) await page.getByRole('button', { name: new RegExp(`${made.count} locations`) }).click();
      await page.locator('.mf-directory__list').getByRole('button', { name: new RegExp(made.dallas) }).first().click();
      const details = page.getByRole('dialog', { name: made.dallas });
      await details.waitFor({ timeout: TIMEOUT });
      const middle = await middleOf(page);
      // Where the flight ends: the store in the middle (raised above the sheet on a phone), its pin above it.
      const marker = { x: middle.x, y: middle.y - (phone ? 0.22 * middle.box.height : 0) };
      if (!phone) {
        await page.waitForFunction(
          ({ x, y }) => {
            const popup = document.querySelector<HTMLElement>('.mf-popup');
            if (!popup || popup.dataset.placement !== 'above') return false;
            const box = popup.getBoundingClientRect();
            const arrow = box.left + Number.parseFloat(popup.style.getPropertyValue('--mf-arrow'));
            return Math.abs(arrow - x) < 3 && Math.abs(box.bottom + 40 - y) < 8;
          },
          marker,
          { timeout: TIMEOUT },
        );
      } else await page.locator('.mf-popup--sheet').waitFor({ timeout: TIMEOUT });
      const pinBox = { x: marker.x - 20, y: marker.y - 50, width: 40, height: 50 };
      await expect.poll(() => pixelsOf(page, DALLAS_PINS, pinBox), { timeout: TIMEOUT }).toBeGreaterThan(40);
      await shot(page, `basemap-store-${viewport.width}`);

      // Closed, then the marker clicked (once the map is still with the pin there again): its popup again.
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: TIMEOUT });
      await expect.poll(() => pixelsOf(page, DALLAS_PINS, pinBox), { timeout: TIMEOUT }).toBeGreaterThan(40);
      await page.mouse.click(marker.x, marker.y - 20);
      await details.waitFor({ timeout: TIMEOUT });
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: TIMEOUT });

      // Only the stores elsewhere in Texas: Dallas's pins leave the map, a click where one was opens nothing.
      if (phone) await page.getByRole('button', { name: new RegExp(`${made.count} locations`) }).click();
      await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Elsewhere in Texas' }).click();
      if (phone) await page.locator('.mf-sheet__panel').getByRole('button', { name: 'Close the directory' }).click();
      await expect.poll(() => pixelsOf(page, DALLAS_PINS, middle.box), { timeout: TIMEOUT }).toBe(0);
      await page.mouse.click(marker.x, marker.y - 20);
      await shot(page, `basemap-filtered-${viewport.width}`);
      expect(await page.locator('.mf-popup').count()).toBe(0);

      // The drawn floor, and back on the basemap.
      await page.locator('.mf-layers').getByRole('button', { name: 'Head office' }).click();
      await page.locator('.mf-viewport').waitFor({ timeout: TIMEOUT });
      expect(await page.locator('.maplibregl-canvas').count()).toBe(0);
      await page.locator('.mf-layers').getByRole('button', { name: 'Texas' }).click();
      await page.locator(READY).waitFor({ timeout: TIMEOUT });
      expect(await page.locator('.mf-viewport').count()).toBe(0);
      await expect.poll(async () => pixelsOf(page, ELSEWHERE_PINS, (await middleOf(page)).box), { timeout: TIMEOUT }).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('a picture of a floor on a street basemap', () => {
  let mapId: string;

  beforeAll(async () => {
    mapId = await createdMap('Texas stores', townsDocument());
  }, 120_000);

  it('downloads a PNG and an SVG with the basemap, the pins and the attribution, and prints the basemap', { timeout: 180_000 }, async () => {
    // A desktop's layout in a smaller window than the other tests': MapLibre draws each picture of the
    // view again off screen (twice the pixels for the 2× PNG and the SVG), on the CPU here, and the
    // seconds go with the pixels (1280 × 800 took twice as long and proved nothing more).
    const { context, page, errors } = await open(PICTURE_WINDOW, `/m/${mapId}`, { downloads: true });
    const map = (await page.locator('.mf-basemap').boundingBox())!;
    await page.getByRole('button', { name: 'Share' }).first().click();
    const menu = page.getByRole('dialog', { name: 'Share this map' });
    await menu.getByRole('button', { name: 'PNG', exact: true }).waitFor();

    const download = async (name: string) => {
      const started = Date.now();
      const [file] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT * 2 }), menu.getByRole('button', { name, exact: true }).click()]);
      const bytes = readFileSync(await file.path());
      lap(`  ${name} downloaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return bytes;
    };
    const png = await download('PNG');
    if (shots) {
      mkdirSync(shots, { recursive: true });
      writeFileSync(path.join(shots, 'basemap-picture.png'), png);
    }
    const stats = await pngStats(page, png);
    // The view on screen (the window less the directory) with the title band and the legend.
    expect(stats.width).toBeGreaterThan(600);
    expect(Math.abs(stats.width - map.width), `the picture ${stats.width} wide, the map ${map.width}`).toBeLessThan(2);
    // The basemap: many colours (land, water, borders, labels), not a blank sheet.
    expect(stats.colours, JSON.stringify(stats)).toBeGreaterThan(200);
    expect(stats.background, JSON.stringify(stats)).toBeLessThan(0.5);
    // The four pins.
    expect(stats.pin, JSON.stringify(stats)).toBeGreaterThan(4 * 100);
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await page.getByRole('status').textContent()).not.toMatch(/could not|missing/i);

    // 2×: twice the pixels.
    const twice = await pngStats(page, await download('PNG 2×'));
    expect(twice.width).toBe(stats.width * 2);
    expect(twice.colours).toBeGreaterThan(200);

    // The whole floor: the basemap fitted to it, the pins on it.
    await menu.getByRole('radio', { name: 'Whole floor' }).check();
    const whole = await download('PNG');
    if (shots) writeFileSync(path.join(shots, 'basemap-picture-floor.png'), whole);
    const floor = await pngStats(page, whole);
    expect(floor.colours, JSON.stringify(floor)).toBeGreaterThan(200);
    expect(floor.pin, JSON.stringify(floor)).toBeGreaterThan(4 * 100);
    await menu.getByRole('radio', { name: 'This view' }).check();

    const svg = (await download('SVG')).toString('utf8');
    expect(svg).toMatch(/<g id="mfx-floor"><image [^>]*href="data:image\/png;base64,/);
    expect(svg).toMatch(/id="mfx-attribution"[^]*Natural Earth/);
    expect((svg.match(/data-location="/g) ?? []).length).toBe(TOWNS.length);

    // Print: the page's picture holds the basemap's image.
    await page.evaluate(() => {
      window.print = () => {
        (window as { __printed?: number }).__printed = ((window as { __printed?: number }).__printed ?? 0) + 1;
      };
    });
    const started = Date.now();
    await menu.getByRole('button', { name: 'Print', exact: true }).click();
    await page.waitForFunction(() => (window as { __printed?: number }).__printed === 1, undefined, { timeout: TIMEOUT * 2 });
    lap(`  printed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const printed = await page.locator('.mf-print-sheet img').getAttribute('src');
    expect(decodeURIComponent(printed ?? '')).toMatch(/<g id="mfx-floor"><image [^>]*href="data:image\/png;base64,/);
    await page.emulateMedia({ media: 'print' });
    if (shots) await page.screenshot({ path: path.join(shots, 'basemap-print.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a deep link in French on the basemap floor, with its legend, no minimap, and counts the opening', { timeout: 120_000 }, async () => {
    const styles: string[] = [];
    const { context, page, errors } = await open(DESKTOP, `/m/${mapId}?location=austin&lang=fr`, {
      before: (page) =>
        page.on('request', (request) => {
          if (new URL(request.url()).pathname === '/basemap/style.json') styles.push(request.url());
        }),
    });
    // The location's popup, at its marker on the basemap.
    await page.getByRole('dialog', { name: 'Austin store' }).waitFor({ timeout: TIMEOUT });
    // The basemap's labels in the viewer's language: the style asked in French names French names.
    expect(styles.length).toBeGreaterThan(0);
    expect(styles.every((url) => new URL(url).searchParams.get('lang') === 'fr'), styles.join(' ')).toBe(true);
    expect(await (await page.request.get(styles[0]!)).text()).toContain('name:fr');
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    // The legend; no minimap on a street map, though the map's setting asks for one.
    await expect.poll(() => page.locator('.mf-legend').textContent(), { timeout: TIMEOUT }).toContain('Stores');
    expect(await page.locator('.mf-minimap').count()).toBe(0);
    // The opening counted: the beacon goes when the page is hidden.
    const counted = async () => {
      await session.server.app.insights.flush();
      const { rows } = await session.server.database.db.query<{ n: string }>("SELECT coalesce(sum(count), 0)::text AS n FROM map_insights WHERE map_id = $1 AND kind = 'open' AND key = 'austin'", [mapId]);
      return Number(rows[0]!.n) > 0;
    };
    const until = Date.now() + TIMEOUT;
    while (!(await counted())) {
      expect(Date.now()).toBeLessThan(until);
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
        Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
      });
      await page.waitForTimeout(200);
    }
    // The browser's own Print: the PDF's picture of the map is the basemap, not one flat colour.
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    if (shots) writeFileSync(path.join(shots, 'basemap-ctrl-p.pdf'), pdf);
    expect(Math.max(...pdfImageColours(pdf))).toBeGreaterThan(50);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('regions on a street map', () => {
  let mapId: string;
  let regions: number;

  beforeAll(async () => {
    // A new street map, the real US states file imported into it (as the editor's Data panel sends it).
    const { createMap, documentOf, importFile } = mapImports(() => session.server, () => owner);
    mapId = await createMap('United States', streetMapDocument());
    const preview = await importFile(mapId, readFileSync('test/fixtures/realworld/geojson/us-states-geojson-vt.json', 'utf8'), 'us-states.json', 'application/geo+json');
    expect(preview.counts.locations).toBe(52);
    const document = await documentOf(mapId);
    // One floor still, on the basemap, with the states' drawing as its regions.
    expect(document.layers).toEqual([expect.objectContaining({ id: 'map', basemap: true, file: expect.objectContaining({ kind: 'svg' }) })]);
    const texas = document.locations.find((location) => location.title === 'Texas')!;
    const alaska = document.locations.find((location) => location.title === 'Alaska')!;
    expect(texas).toMatchObject({ layer: 'map', element: expect.any(String) });
    // Texas in a group of its own colour; Alaska hidden (its region is then not drawn).
    const edited = await call(
      session.server,
      'editMap',
      {
        id: mapId,
        edits: [
          { type: 'GroupAdded', group: { id: 'lone-star', name: 'Lone Star', color: LONE_STAR, legend: true } },
          { type: 'LocationUpdated', id: texas.id, changes: { groups: ['lone-star'] } },
          { type: 'LocationUpdated', id: alaska.id, changes: { hidden: true } },
        ],
      },
      owner,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await projected(session.server, edited.body.position);
    regions = 51;
    await publish(mapId);
    lap('states imported');
  }, 120_000);

  for (const viewport of [DESKTOP, PHONE]) {
    const phone = viewport === PHONE;
    it(`draws the imported states on the basemap, opens one chosen or clicked, fades the filtered out, and reaches them by keyboard (${viewport.width} wide)`, { timeout: 120_000 }, async () => {
      // MapLibre has drawn the basemap and the states' regions (Alaska, hidden, left out).
      const { context, page, errors } = await open(viewport, `/m/${mapId}`, { ready: `.mf-basemap[data-ready][data-regions="${regions}"] canvas.maplibregl-canvas` });
      const map = (await page.locator('.mf-basemap').boundingBox())!;
      await shot(page, `basemap-regions-${viewport.width}`);

      // Texas chosen in the directory: shown whole, active in its group's colour, its details open.
      const sheet = async () => {
        if (phone) await page.getByRole('button', { name: /52 locations|51 locations/ }).click();
      };
      await sheet();
      await page.locator('.mf-directory__list').getByRole('button', { name: /^Texas/ }).first().click();
      const details = page.getByRole('dialog', { name: 'Texas' });
      await details.waitFor({ timeout: TIMEOUT });
      // Its fill at rest is lighter than selected (the active tint): a few times fewer deep red pixels once closed.
      let selected = 0;
      await expect.poll(async () => (selected = await redPixels(page, map)), { timeout: TIMEOUT }).toBeGreaterThan(phone ? 3_000 : 20_000);
      await shot(page, `basemap-region-texas-${viewport.width}`);

      // Closed, then Texas clicked where the flight put it (the middle, raised above the sheet on a phone): open again.
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: TIMEOUT });
      await expect.poll(() => redPixels(page, map), { timeout: TIMEOUT }).toBeLessThan(selected / 3);
      const middle = { x: map.x + map.width / 2, y: map.y + map.height / 2 - (phone ? 0.22 * map.height : 0) };
      await page.mouse.click(middle.x, middle.y);
      await details.waitFor({ timeout: TIMEOUT });
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: TIMEOUT });

      // Oklahoma chosen, it is in the middle, a click there opens it; with only the Lone Star group shown it fades and a click on it opens nothing.
      await sheet();
      await page.locator('.mf-directory__list').getByRole('button', { name: /^Oklahoma/ }).first().click();
      const oklahoma = page.getByRole('dialog', { name: 'Oklahoma' });
      await oklahoma.waitFor({ timeout: TIMEOUT });
      await oklahoma.getByRole('button', { name: 'Close' }).click();
      await oklahoma.waitFor({ state: 'detached', timeout: TIMEOUT });
      await page.mouse.click(middle.x, middle.y);
      await oklahoma.waitFor({ timeout: TIMEOUT });
      await oklahoma.getByRole('button', { name: 'Close' }).click();
      await oklahoma.waitFor({ state: 'detached', timeout: TIMEOUT });
      await sheet();
      await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Lone Star' }).click();
      if (phone) await page.locator('.mf-sheet__panel').getByRole('button', { name: 'Close the directory' }).click();
      await page.mouse.click(middle.x, middle.y);
      await shot(page, `basemap-regions-filtered-${viewport.width}`);
      expect(await page.locator('.mf-popup').count()).toBe(0);

      // By keyboard: from the map, the first Tab reaches a location's button (Texas, the one state the filter
      // lets through), before MapLibre's attribution links (which follow the location buttons); Enter opens it.
      expect(
        await page.evaluate(() => {
          const buttons = document.querySelector('.mf-map--basemap .mf-a11y');
          const attribution = document.querySelector('.mf-map--basemap .maplibregl-ctrl-attrib');
          return buttons !== null && attribution !== null && (buttons.compareDocumentPosition(attribution) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
        }),
        'the attribution after the location buttons',
      ).toBe(true);
      await page.locator('canvas.maplibregl-canvas').focus();
      const focused = () => page.evaluate(() => ({ label: document.activeElement?.getAttribute('aria-label') ?? null, location: document.activeElement?.getAttribute('data-location') ?? null }));
      await page.keyboard.press('Tab');
      expect(await focused()).toEqual({ label: expect.stringMatching(/^Texas/), location: expect.any(String) });
      await page.keyboard.press('Enter');
      await details.waitFor({ timeout: TIMEOUT });
      await expect.poll(() => details.evaluate((element) => element.contains(document.activeElement) || element === document.activeElement), { timeout: TIMEOUT }).toBe(true);
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'detached', timeout: TIMEOUT });
      // The focus comes back once the closed details' render has been committed (an effect, after the removal).
      await expect.poll(async () => (await focused()).label, { timeout: TIMEOUT }).toMatch(/^Texas/);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('links a state no location stands for when the editor places on it, and places a new location inside a state a location stands for, as on a drawn floor (1280 wide)', { timeout: 180_000 }, async () => {
    // Kansas's location removed: its region is in the drawing, no location stands for it.
    const { documentOf } = mapImports(() => session.server, () => owner);
    const kansas = (await documentOf(mapId)).locations.find((location) => location.title === 'Kansas')!;
    const removed = await call(session.server, 'editMap', { id: mapId, edits: [{ type: 'LocationRemoved', id: kansas.id }] }, owner);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await projected(session.server, removed.body.position);
    const { context, page, errors } = await open(DESKTOP, `/maps/${mapId}`, { signedIn: true, touch: false, ready: `.mf-basemap[data-ready][data-regions="${regions - 1}"] canvas.maplibregl-canvas` });
    const map = (await page.locator('.mf-basemap').boundingBox())!;
    // Oklahoma's outline tells where it is; Kansas lies north of it, across its width.
    const { left, right, top, bottom } = await outlineOfOklahoma(page, map);
    const target = { x: (left + right) / 2, y: top - (bottom - top) * 0.4 };

    // The place tool: over Kansas a pointer, then a click links the new location to Kansas's region.
    await page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Add location' }).click();
    await page.mouse.move(target.x, target.y);
    await expect.poll(() => page.locator('canvas.maplibregl-canvas').evaluate((canvas) => (canvas as HTMLElement).style.cursor), { timeout: TIMEOUT }).toBe('pointer');
    await shot(page, 'basemap-editor-pick-kansas-1280');
    await page.mouse.click(target.x, target.y);
    await page.getByLabel('Title', { exact: true }).waitFor({ timeout: TIMEOUT });
    await expect
      .poll(async () => (await documentOf(mapId)).locations.filter((location) => location.element === kansas.element).map((location) => location.id !== kansas.id), { timeout: TIMEOUT })
      .toEqual([true]);
    // Then, the same editor opened again: a new location placed inside Oklahoma.
    await placesInsideOklahoma(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  /**
   * In the editor's page (opened again on the same URL, a fresh view): the place tool over Oklahoma,
   * whose location stands for it, places a new location inside it, as on a drawn floor.
   */
  async function placesInsideOklahoma(page: Page) {
    const { documentOf } = mapImports(() => session.server, () => owner);
    const before = await documentOf(mapId);
    const oklahoma = before.locations.find((location) => location.title === 'Oklahoma')!;
    await page.goto(`/maps/${mapId}`);
    await page.locator(`.mf-basemap[data-ready][data-regions] canvas.maplibregl-canvas`).waitFor({ timeout: 2 * TIMEOUT });
    const map = (await page.locator('.mf-basemap').boundingBox())!;
    // Oklahoma's outline tells where it is; a point inside its eastern part (clear of the panhandle).
    const { left, right, top, bottom } = await outlineOfOklahoma(page, map);
    const target = { x: left + (right - left) * 0.65, y: top + (bottom - top) * 0.55 };

    // The place tool over Oklahoma: the crosshair (a click places there), not the pointer that chooses it.
    await page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Add location' }).click();
    await page.mouse.move(target.x, target.y);
    await page.mouse.move(target.x + 2, target.y + 1);
    await expect.poll(() => page.locator('canvas.maplibregl-canvas').evaluate((canvas) => getComputedStyle(canvas).cursor), { timeout: TIMEOUT }).toBe('crosshair');
    await page.mouse.click(target.x, target.y);
    // A new location at that point, in no region, is made and chosen; Oklahoma is not chosen, nor linked again.
    const title = page.getByLabel('Title', { exact: true });
    await title.waitFor({ timeout: TIMEOUT });
    await expect.poll(() => title.inputValue(), { timeout: TIMEOUT }).toBe('New location');
    let added: Array<{ element: string | null; position: unknown }> = [];
    await expect
      .poll(async () => (added = (await documentOf(mapId)).locations.filter((location) => !before.locations.some((old) => old.id === location.id))).length, { timeout: TIMEOUT })
      .toBe(1);
    expect(added[0]).toMatchObject({ element: null, position: { x: expect.any(Number), y: expect.any(Number) } });
    expect((await documentOf(mapId)).locations.filter((location) => location.element === oklahoma.element)).toHaveLength(1);
    await shot(page, 'basemap-editor-place-in-oklahoma-1280');
  }
});

describe('lines on a street map', () => {
  let mapId: string;
  /** The map's accent (the theme's): the lines' colour on the basemap. */
  const LINE = '#0d9488';

  beforeAll(async () => {
    // A route (a LineString: Dallas, Austin, Houston) and a store imported into a new street map;
    // the store's pin in a colour of its own, the theme's accent teal, so the accent's pixels are the line's.
    const { createMap, documentOf, importFile } = mapImports(() => session.server, () => owner);
    mapId = await createMap('Texas route', streetMapDocument());
    const file = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { name: 'Interstate route' }, geometry: { type: 'LineString', coordinates: [[-96.8, 32.78], [-97.74, 30.27], [-95.37, 29.76]] } },
        { type: 'Feature', properties: { name: 'El Paso store' }, geometry: { type: 'Point', coordinates: [-106.45, 31.76] } },
      ],
    };
    await importFile(mapId, JSON.stringify(file), 'route.geojson', 'application/geo+json');
    const document = await documentOf(mapId);
    expect(document.layers).toEqual([expect.objectContaining({ basemap: true, file: expect.objectContaining({ kind: 'svg' }) })]);
    const store = document.locations.find((location) => location.title === 'El Paso store')!;
    const edited = await call(
      session.server,
      'editMap',
      {
        id: mapId,
        edits: [
          { type: 'LocationUpdated', id: store.id, changes: { color: PIN } },
          { type: 'SettingsChanged', settings: { ...document.settings, theme: { ...document.settings.theme, accent: LINE } } },
        ],
      },
      owner,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await projected(session.server, edited.body.position);
    await publish(mapId);
  }, 120_000);

  it('draws an imported line on the basemap in the theme’s accent, at 1280 and 375 wide', { timeout: 120_000 }, async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, errors } = await open(viewport, `/m/${mapId}`);
      const map = (await page.locator('.mf-basemap').boundingBox())!;
      // The route drawn from Dallas down to Houston: a few hundred pixels of the accent at least, a phone's map too.
      await expect.poll(() => pixelsOf(page, LINE, map), { timeout: TIMEOUT, message: `the line on the map, ${viewport.width} wide` }).toBeGreaterThan(250);
      await shot(page, `basemap-line-${viewport.width}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe('a route, the editor and the server’s page on a street basemap', () => {
  let routeMap: string;

  beforeAll(async () => {
    // A Professional map (state 3): its viewer offers directions.
    routeMap = await createdMap('Texas stores', routeDocument(), 3);
    lap('route map made');
  }, 120_000);

  /**
   * The route over the basemap where MapLibre shows its stores: the page gone to again with a route
   * asked for (from Dallas to Houston), its overlay's ends on the stores' pins.
   */
  async function drawsTheRouteOverThePins(page: Page, viewport: typeof DESKTOP) {
    await page.goto(`/m/${routeMap}?from=dallas&to=houston`);
    await page.locator(READY).waitFor({ timeout: 2 * TIMEOUT });
    await page.waitForFunction(() => (document.querySelector('.mf-route__line')?.getAttribute('d') ?? '').length > 0, undefined, { timeout: TIMEOUT });
    const map = (await page.locator('.mf-basemap').boundingBox())!;
    await shot(page, `basemap-route-${viewport.width}`);
    // The stores' pins as MapLibre draws them, with the overlay's marks hidden.
    // (Through the element's style: the page's policy refuses a style sheet of the test's.)
    await page.locator('.mf-route').evaluate((element) => void ((element as HTMLElement).style.visibility = 'hidden'));
    for (const [end, town] of [
      ['.mf-route__start', 'Dallas'],
      ['.mf-route__end', 'Houston'],
    ] as const) {
      const at = await placed(page, end, map);
      expect(at.x, `${town}: the route's end inside the map`).toBeGreaterThan(map.x);
      expect(at.x).toBeLessThan(map.x + map.width);
      expect(at.y).toBeGreaterThan(map.y);
      expect(at.y).toBeLessThan(map.y + map.height);
      // The pin stands on its point: its coloured body just above the route's end, its tip on it.
      const around = { x: Math.max(map.x, at.x - 30), y: Math.max(map.y, at.y - 50), width: 60, height: 60 };
      let pin: { x: number; y: number }[] = [];
      await expect
        .poll(async () => (pin = await pixelsNear(page, PIN, around)).length, { timeout: TIMEOUT, message: `${town}'s pin by the route's end (${JSON.stringify(at)})` })
        .toBeGreaterThan(30);
      const tip = Math.max(...pin.map((point) => point.y));
      const middle = pin.reduce((sum, point) => sum + point.x, 0) / pin.length;
      expect(Math.abs(middle - at.x), `${town}: pin ${middle} across, route ${at.x}`).toBeLessThan(4);
      expect(Math.abs(tip - at.y), `${town}: pin's tip ${tip} down, route ${at.y}`).toBeLessThan(8);
    }
  }

  /** No basemap place name half under a store's pin (the pin hides it), on the route's map as it opens (1280 wide). */
  async function expectNoPlaceNameHalfUnderAPin(page: Page) {
    const map = (await page.locator('.mf-basemap').boundingBox())!;
    // Each pin's tip (the bottom of its coloured pixels), the three stores being far apart.
    const pins = await pixelsNear(page, PIN, map);
    const groups: { x: number; y: number }[][] = [];
    for (const point of pins) {
      const near = groups.find((group) => Math.abs(group[0]!.x - point.x) < 30 && Math.abs(group[0]!.y - point.y) < 45);
      if (near) near.push(point);
      else groups.push([point]);
    }
    expect(groups.length, 'three pins').toBe(3);
    const tips = groups.map((own) => ({ x: own.reduce((sum, point) => sum + point.x, 0) / own.length, y: Math.max(...own.map((point) => point.y)) }));
    // A place name's dark grey letters across the pin's tip (each store is in its town, whose name the basemap writes there).
    const letters = async (tip: { x: number; y: number }) => {
      const png = (await page.screenshot({ clip: { x: tip.x - 40, y: tip.y - 12, width: 80, height: 20 } })).toString('base64');
      return page.evaluate(async (png) => {
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        const { data } = context.getImageData(0, 0, image.width, image.height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) {
          const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
          if (Math.max(r, g, b) < 130 && Math.max(r, g, b) - Math.min(r, g, b) < 30) dark++;
        }
        return dark;
      }, png);
    };
    // (67, 29 and 95 such pixels when the pins let the names through, the pin over 'Austin' leaving 'A tin'.)
    await expect.poll(async () => Promise.all(tips.map(letters)), { timeout: TIMEOUT, message: `place names' letters at the pins' tips ${JSON.stringify(tips)}` }).toEqual([0, 0, 0]);
    await shot(page, 'basemap-pins-over-names-1280');
  }

  for (const viewport of [DESKTOP, PHONE]) {
    it(`keeps MapLibre's attribution and the editor's controls apart, and the editor's picture has the basemap, ${viewport.width} wide`, { timeout: 120_000 }, async () => {
      // (The editor's own layout at 375: a signed-in window that narrow, not a phone's touch screen.)
      const { context, page, errors } = await open(viewport, `/maps/${routeMap}`, { signedIn: true, touch: false, downloads: true });
      const attribution = page.locator('.maplibregl-ctrl-attrib');
      await attribution.waitFor();
      await shot(page, `basemap-editor-${viewport.width}`);
      const credit = (await attribution.boundingBox())!;
      const map = (await page.locator('.mf-basemap').boundingBox())!;
      // On screen, inside the map.
      expect(credit.x).toBeGreaterThanOrEqual(map.x);
      expect(credit.y + credit.height).toBeLessThanOrEqual(map.y + map.height + 0.5);
      for (const selector of ['.ed-canvas__zoom', '.ed-canvas__tools', '.ed-canvas__floors', '.ed-canvas__hint']) {
        for (const control of await page.locator(selector).all()) {
          const box = await control.boundingBox();
          if (box) expect.soft(overlap(credit, box), `${selector} ${JSON.stringify(box)} over the attribution ${JSON.stringify(credit)}`).toBe(false);
        }
      }
      if (viewport === DESKTOP) {
        await page.getByRole('tab', { name: 'Data' }).click();
        const [file] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT * 2 }), page.getByRole('button', { name: 'PNG', exact: true }).click()]);
        const png = readFileSync(await file.path());
        if (shots) {
          mkdirSync(shots, { recursive: true });
          writeFileSync(path.join(shots, 'basemap-editor-picture.png'), png);
        }
        const picture = await pngStats(page, png);
        // The basemap: land, water, borders and labels, not the blank sheet of a picture without it.
        expect(picture.colours, JSON.stringify(picture)).toBeGreaterThan(200);
        expect(picture.background, JSON.stringify(picture)).toBeLessThan(0.5);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  /** The store locator hydrated: it takes what is typed and searches; the "Mapfold" credit shown, out of the phone's sheets. */
  async function searchesNearAustin(page: Page, viewport: typeof DESKTOP) {
    if (viewport === PHONE) await page.locator('.mf-topbar__list').click();
    const field = page.getByRole('textbox', { name: 'Find the nearest' });
    await field.waitFor();
    // Hydrated: it takes what is typed and searches.
    await field.fill('Austin');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText(/Near Austin/).waitFor({ timeout: 2 * TIMEOUT });
    await shot(page, `basemap-near-${viewport.width}`);
    if (viewport === PHONE) {
      expect(await creditOver(page, '.mf-sheet__panel'), 'the credit over the directory’s sheet').toBe(false);
      // A store's details: the phone's bottom sheet.
      await page.locator('.mf-sheet__panel').getByRole('button', { name: /^Austin store/ }).first().click();
      await page.locator('.mf-popup--sheet').waitFor();
      await shot(page, 'basemap-details-375');
      expect(await creditOver(page, '.mf-popup--sheet'), 'the credit over the details’ sheet').toBe(false);
    } else expect(await page.locator('.mf-credit').isVisible()).toBe(true);
  }

  it('has the store locator’s control in the server’s page, hydrates it, leaves no basemap place name half under a store’s pin (the pin hides it, 1280 wide), keeps the credit out of the phone’s sheets, and draws a route over the basemap where MapLibre shows its stores, 1280 and 375 wide', { timeout: 240_000 }, async () => {
    // Before any script: the server's markup.
    const bare = await open(DESKTOP, `/m/${routeMap}`, { javaScript: false, ready: null });
    expect(await bare.page.getByRole('search', { name: 'Find the nearest' }).isVisible()).toBe(true);
    expect(await bare.page.getByRole('textbox', { name: 'Find the nearest' }).isVisible()).toBe(true);
    // Styled by the page's own style sheet, not waiting for the store locator's code.
    expect(await bare.page.locator('.mf-near').evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('solid');
    // The zoom buttons are there, disabled: nothing could answer them yet.
    const zoom = (page: Page, name: string) => page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name, exact: true });
    for (const name of ['Zoom in', 'Zoom out', 'Reset view']) expect(await zoom(bare.page, name).isDisabled(), `${name} before any script`).toBe(true);
    await shot(bare.page, 'basemap-ssr-1280');
    await bare.context.close();
    {
      // Hydrated, they are enabled once the map is drawn, and the first press zooms it (the pins further apart).
      const { context, page, errors } = await open(DESKTOP, `/m/${routeMap}`, { ready: null });
      const zoomIn = zoom(page, 'Zoom in');
      await expect.poll(() => zoomIn.isEnabled(), { timeout: 2 * TIMEOUT }).toBe(true);
      const map = (await page.locator('.mf-basemap').boundingBox())!;
      const spread = async () => {
        const xs = (await pixelsNear(page, PIN, map)).map((point) => point.x);
        return xs.length > 0 ? Math.max(...xs) - Math.min(...xs) : 0;
      };
      const before = await spread();
      expect(before, 'the pins drawn when the zoom buttons are enabled').toBeGreaterThan(50);
      // Before the first press, the view as it opens, once MapLibre has drawn it: no place name half under a pin.
      await page.locator(READY).waitFor({ timeout: 2 * TIMEOUT });
      await expectNoPlaceNameHalfUnderAPin(page);
      await zoomIn.click();
      await expect.poll(spread, { timeout: TIMEOUT, message: `the pins further apart than ${before} px` }).toBeGreaterThan(before * 1.3);
      // The store locator in the same page (its search does not depend on the view).
      await searchesNearAustin(page, DESKTOP);
      // Then a route asked for in the same page.
      await drawsTheRouteOverThePins(page, DESKTOP);
      expect(errors).toEqual([]);
      await context.close();
    }
    if (shots) {
      const phone = await open(PHONE, `/m/${routeMap}`, { javaScript: false, ready: null });
      await shot(phone.page, 'basemap-ssr-375');
      await phone.page.screenshot({ path: path.join(shots, 'basemap-ssr-375-page.png'), fullPage: true });
      await phone.context.close();
    }
    {
      const { context, page, errors } = await open(PHONE, `/m/${routeMap}`);
      await searchesNearAustin(page, PHONE);
      await drawsTheRouteOverThePins(page, PHONE);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe('the 25,000-store chain on a street basemap', () => {
  let chainMap: string;

  beforeAll(async () => {
    chainMap = await createdMap('Northwind stores', await chainDocument());
    lap('chain map made');
  }, 240_000);

  it('opens the chain on its stores on a phone, not on the sea in the middle of their bounds', { timeout: 120_000 }, async () => {
    // The basemap's sea (its background: the embedded archive has land polygons and no sea ones).
    const style = (await (await fetch(`${session.server.url}/basemap/style.json?theme=light&lang=en`)).json()) as { layers: { type: string; paint?: Record<string, unknown> }[] };
    const water = String(style.layers.find((layer) => layer.type === 'background')?.paint?.['background-color']);
    expect(water).toMatch(/^#[0-9a-f]{6}$/i);
    const { context, page, errors } = await open(PHONE, `/m/${chainMap}`);
    const map = (await page.locator('.mf-basemap').boundingBox())!;
    await shot(page, 'basemap-chain-375');
    // The map's middle is among the stores (land, their clusters), not open sea.
    const middle = { x: map.x + map.width / 2 - 30, y: map.y + map.height / 2 - 30, width: 60, height: 60 };
    const sea = (await pixelsNear(page, water, middle)).length / (middle.width * middle.height);
    expect(sea, `the sea's share of the map's middle on a phone`).toBeLessThan(0.5);
    // The stores' clusters and pins (the accent) on screen.
    expect((await pixelsNear(page, ACCENT, map)).length / (map.width * map.height)).toBeGreaterThan(0.02);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows its clusters on a desktop, has buttons for the clusters and stores on screen, not one per store, and Enter on a cluster zooms in with the focus following', { timeout: 120_000 }, async () => {
    const { context, page, errors } = await open(DESKTOP, `/m/${chainMap}`);
    const map = (await page.locator('.mf-basemap').boundingBox())!;
    await shot(page, 'basemap-chain-1280');
    // The stores' clusters and pins (the accent) on screen.
    expect((await pixelsNear(page, ACCENT, map)).length / (map.width * map.height)).toBeGreaterThan(0.02);
    const clusters = page.locator('.mf-a11y button[data-cluster]');
    await clusters.first().waitFor({ state: 'attached', timeout: TIMEOUT });
    const buttons = await page.locator('.mf-a11y button').count();
    expect(buttons).toBeLessThan(300);
    const counts = (await clusters.evaluateAll((found) => found.map((button) => Number(button.getAttribute('data-count'))))).filter((count) => count > 1);
    expect(counts.length).toBeGreaterThan(3);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(STORE_CHAIN_ROWS);
    expect(await clusters.first().getAttribute('aria-label')).toMatch(/^[\d,]+ locations, zoom in$/);
    // Enter on the largest: the map zooms in, that cluster's button goes and the focus moves to one of its parts.
    const largest = await clusters.evaluateAll((found) => found.reduce((a, b) => (Number(b.getAttribute('data-count')) > Number(a.getAttribute('data-count')) ? b : a)).getAttribute('data-cluster'));
    await page.locator(`.mf-a11y button[data-cluster="${largest}"]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => document.querySelector(`button[data-cluster="${id}"]`) === null, largest, { timeout: TIMEOUT });
    await page.waitForFunction(() => document.activeElement?.matches('.mf-a11y button') ?? false, undefined, { timeout: TIMEOUT });
    // A store's button opens it.
    const store = page.locator('.mf-a11y button[data-location]').first();
    await store.waitFor({ state: 'attached', timeout: TIMEOUT });
    const name = (await store.getAttribute('aria-label'))!.split(',')[0]!;
    await store.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name }).waitFor({ timeout: TIMEOUT });
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Per large Flate-compressed image of a PDF, how many distinct byte values its pixels have (1: a flat colour). */
function pdfImageColours(pdf: Buffer): number[] {
  const text = pdf.toString('latin1');
  const found: number[] = [];
  for (const match of text.matchAll(/<<([^>]*?\/Subtype\s*\/Image[^>]*?)>>\s*stream\r?\n/g)) {
    const head = match[1]!;
    const width = Number(/\/Width (\d+)/.exec(head)?.[1]);
    if (!/FlateDecode/.test(head) || width < 300) continue;
    const start = match.index! + match[0].length;
    const data = inflateSync(pdf.subarray(start, text.indexOf('endstream', start)));
    found.push(new Set(data).size);
  }
  return found;
}
