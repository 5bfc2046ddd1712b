/**
 * A floor on a street basemap in Chromium (issue 29 item 1), one server and one browser for all
 * (each e2e file starting its own costs CI seconds). WebGL runs headless through SwiftShader with
 * the session's usual flags. Screenshots go to $SCREENSHOTS (when set) to be looked at.
 *
 * The viewer: the 102 Texas stores of the real Starbucks directory excerpt
 * (test/e2e/support/texas-stores.ts) on a floor laid on the basemap by Web Mercator bounds,
 * beside a drawn floor. At 1280 and 375 wide: MapLibre's canvas drawn, its tiles answered 206
 * (HTTP Range), nothing refused by the Content-Security-Policy; a store chosen in the directory
 * is flown to and its popup opens at its marker (a bottom sheet on a phone); a click on the
 * marker opens it too; a group filter takes the other group's pins off the map; the drawn floor
 * and back.
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
 * a click on one opens nothing; Tab from the map reaches a location's button and Enter opens it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundsAround, mercatorBoundsFor } from '../../events/basemap-bounds.js';
import { LOCATION_DEFAULTS } from '../../events/compact-locations.js';
import { projectToFloor } from '../../events/geo-calibration.js';
import { emptyMapDocument, type MapDocument } from '../../events/map-document.js';
import { startBrowserSession } from '../support/browser.js';
import { mapImports } from '../support/map-imports.js';
import { storeChainCsv } from '../support/store-chain.js';
import { call, projected, registerUser, type TestUser } from '../support/test-server.js';
import { DALLAS_PINS, ELSEWHERE_PINS, TEXAS, TEXAS_SIZE, texasBasemapDocument } from './support/texas-stores.js';

const VIEWER_TIMEOUT = 20_000;
const PICTURE_TIMEOUT = 30_000;
const REGIONS_TIMEOUT = 30_000;
const shots = process.env.SCREENSHOTS ?? null;
/** The picture map's pins. */
const PIN = '#db2777';
const TOWNS = [
  { id: 'dallas', title: 'Dallas store', lat: 32.78, lng: -96.8 },
  { id: 'austin', title: 'Austin store', lat: 30.27, lng: -97.74 },
  { id: 'houston', title: 'Houston store', lat: 29.76, lng: -95.37 },
  { id: 'el-paso', title: 'El Paso store', lat: 31.76, lng: -106.45 },
];
/** The colour given to Texas's group on the regions map (its region tinted from it, as the canvas tints). */
const LONE_STAR = '#dc2626';

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

/** A new street map, as /maps/new makes one: one floor on the basemap over the world, nothing on it. */
function streetMapDocument(): MapDocument {
  const document = emptyMapDocument();
  const geo = mercatorBoundsFor({ north: 75, south: -60, west: -170, east: 190 }, document.settings.size);
  return { ...document, settings: { ...document.settings, defaultLayer: 'map' }, layers: [{ id: 'map', name: 'Map', file: null, geo, basemap: true }] } as MapDocument;
}

/** How many of the map's pixels in a box are near a colour (the screenshot decoded in the page). */
async function pixelsOf(page: Page, colour: string, box: { x: number; y: number; width: number; height: number }): Promise<number> {
  const png = (await page.screenshot({ clip: box })).toString('base64');
  return page.evaluate(
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
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - r) < 24 && Math.abs(data[i + 1]! - g) < 24 && Math.abs(data[i + 2]! - b) < 24) count++;
      return count;
    },
    { png, colour },
  );
}

/** A PNG's pixels (decoded in the page): how many near the pin's colour, and how many distinct colours in all. */
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

const session = {} as Awaited<ReturnType<typeof startBrowserSession>>;
let owner: TestUser;
beforeAll(async () => {
  // (The large map's 3,000 stores are more than the default body limit's 64 KB.)
  Object.assign(session, await startBrowserSession({ env: { BODY_LIMIT: String(8 * 1024 * 1024) } }));
  owner = await registerUser(session.server);
}, 120_000);
afterAll(() => session.close?.());

/** A map made from a document, published (as the Content-Security-Policy test does it: publishing through slots is billing's): public, seen by anyone. */
async function publishedMap(title: string, mapData: MapDocument): Promise<string> {
  const answer = await call(session.server, 'createMap', { title, mapData }, owner);
  if (answer.body.position) await projected(session.server, answer.body.position);
  const mapId = answer.body.result as string;
  expect(mapId, JSON.stringify(answer.body)).toBeTruthy();
  await publish(mapId);
  return mapId;
}
const publish = (mapId: string) => session.server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);

describe('a floor on a street basemap in the viewer', () => {
  let mapId: string;
  const made = texasBasemapDocument();

  beforeAll(async () => {
    mapId = await publishedMap('Texas coffee stores', made.document);
  }, 120_000);

  /** The map's page, its tiles' statuses and what the policy refused, once MapLibre has drawn it. */
  async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; tiles: number[]; refused: string[] }> {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport, ...(viewport.width < 720 ? { hasTouch: true, isMobile: true } : {}) });
    const refused: string[] = [];
    context.on('console', (message) => {
      if (/content security policy|refused to/i.test(message.text())) refused.push(message.text());
    });
    context.on('weberror', (error) => refused.push(`page error: ${error.error().message}`));
    const page = await context.newPage();
    const tiles: number[] = [];
    page.on('response', (response) => {
      if (/\/basemap\/world\.[0-9a-f]+\.pmtiles$/.test(new URL(response.url()).pathname)) tiles.push(response.status());
    });
    await page.goto(`/m/${mapId}`);
    // (The first page of a run waits for MapLibre's code, the style and the first tiles on a busy machine.)
    await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: 3 * VIEWER_TIMEOUT });
    return { context, page, tiles, refused };
  }

  /** The middle of the map's area on screen. */
  const middleOf = async (page: Page) => {
    const box = (await page.locator('.mf-basemap').boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
  };

  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 740 }]) {
    const phone = viewport.width < 720;
    it(`shows the stores on MapLibre's basemap, flies to one, filters and switches floors (${viewport.width} wide)`, { timeout: 120_000 }, async () => {
      const { context, page, tiles, refused } = await open(viewport);
      // The basemap's archive is read in ranges.
      expect(tiles.length).toBeGreaterThan(0);
      expect(tiles.every((status) => status === 206), tiles.join(' ')).toBe(true);
      await expect.poll(async () => pixelsOf(page, ELSEWHERE_PINS, (await middleOf(page)).box), { timeout: VIEWER_TIMEOUT }).toBeGreaterThan(0);
      await shot(page, `basemap-texas-${viewport.width}`);

      // A store chosen in the directory: flown to, its popup at its marker (a sheet on a phone).
      if (phone) await page.getByRole('button', { name: new RegExp(`${made.count} locations`) }).click();
      await page.locator('.mf-directory__list').getByRole('button', { name: new RegExp(made.dallas) }).first().click();
      const details = page.getByRole('dialog', { name: made.dallas });
      await details.waitFor({ timeout: VIEWER_TIMEOUT });
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
          { timeout: VIEWER_TIMEOUT },
        );
      } else await page.locator('.mf-popup--sheet').waitFor({ timeout: VIEWER_TIMEOUT });
      await expect.poll(() => pixelsOf(page, DALLAS_PINS, { x: marker.x - 20, y: marker.y - 50, width: 40, height: 50 }), { timeout: VIEWER_TIMEOUT }).toBeGreaterThan(40);
      await shot(page, `basemap-store-${viewport.width}`);

      // Closed, then the marker clicked: its popup again.
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: VIEWER_TIMEOUT });
      await page.mouse.click(marker.x, marker.y - 20);
      await details.waitFor({ timeout: VIEWER_TIMEOUT });
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: VIEWER_TIMEOUT });

      // Only the stores elsewhere in Texas: Dallas's pins leave the map, a click where one was opens nothing.
      if (phone) await page.getByRole('button', { name: new RegExp(`${made.count} locations`) }).click();
      await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Elsewhere in Texas' }).click();
      if (phone) await page.locator('.mf-sheet__panel').getByRole('button', { name: 'Close the directory' }).click();
      await expect.poll(() => pixelsOf(page, DALLAS_PINS, middle.box), { timeout: VIEWER_TIMEOUT }).toBe(0);
      await page.mouse.click(marker.x, marker.y - 20);
      await shot(page, `basemap-filtered-${viewport.width}`);
      expect(await page.locator('.mf-popup').count()).toBe(0);

      // The drawn floor, and back on the basemap.
      await page.locator('.mf-layers').getByRole('button', { name: 'Head office' }).click();
      await page.locator('.mf-viewport').waitFor({ timeout: VIEWER_TIMEOUT });
      expect(await page.locator('.maplibregl-canvas').count()).toBe(0);
      await page.locator('.mf-layers').getByRole('button', { name: 'Texas' }).click();
      await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: VIEWER_TIMEOUT });
      expect(await page.locator('.mf-viewport').count()).toBe(0);
      await expect.poll(async () => pixelsOf(page, ELSEWHERE_PINS, (await middleOf(page)).box), { timeout: VIEWER_TIMEOUT }).toBeGreaterThan(0);
      expect(refused).toEqual([]);
      await context.close();
    });
  }
});

describe('a picture of a floor on a street basemap', () => {
  let mapId: string;

  beforeAll(async () => {
    mapId = await publishedMap('Texas stores', townsDocument());
  }, 120_000);

  it('downloads a PNG and an SVG with the basemap, the pins and the attribution, and prints the basemap', { timeout: 180_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`/m/${mapId}`);
    await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: PICTURE_TIMEOUT });
    await page.getByRole('button', { name: 'Share' }).first().click();
    const menu = page.getByRole('dialog', { name: 'Share this map' });
    await menu.getByRole('button', { name: 'PNG', exact: true }).waitFor();

    const download = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download', { timeout: PICTURE_TIMEOUT * 2 }), menu.getByRole('button', { name, exact: true }).click()]);
      return readFileSync(await file.path());
    };
    const png = await download('PNG');
    if (shots) {
      mkdirSync(shots, { recursive: true });
      writeFileSync(path.join(shots, 'basemap-picture.png'), png);
    }
    const stats = await pngStats(page, png);
    // The view on screen (1280 wide, less the directory) with the title band and the legend.
    expect(stats.width).toBeGreaterThan(600);
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
    await menu.getByRole('button', { name: 'Print', exact: true }).click();
    await page.waitForFunction(() => (window as { __printed?: number }).__printed === 1, undefined, { timeout: PICTURE_TIMEOUT * 2 });
    const printed = await page.locator('.mf-print-sheet img').getAttribute('src');
    expect(decodeURIComponent(printed ?? '')).toMatch(/<g id="mfx-floor"><image [^>]*href="data:image\/png;base64,/);
    await page.emulateMedia({ media: 'print' });
    if (shots) await page.screenshot({ path: path.join(shots, 'basemap-print.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a deep link in French on the basemap floor, with its legend, no minimap, and counts the opening', { timeout: 120_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const styles: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/basemap/style.json') styles.push(request.url());
    });
    await page.goto(`/m/${mapId}?location=austin&lang=fr`);
    await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: PICTURE_TIMEOUT });
    // The location's popup, at its marker on the basemap.
    await page.getByRole('dialog', { name: 'Austin store' }).waitFor({ timeout: PICTURE_TIMEOUT });
    // The basemap's labels in the viewer's language: the style asked in French names French names.
    expect(styles.length).toBeGreaterThan(0);
    expect(styles.every((url) => new URL(url).searchParams.get('lang') === 'fr'), styles.join(' ')).toBe(true);
    expect(await (await page.request.get(styles[0]!)).text()).toContain('name:fr');
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    // The legend; no minimap on a street map, though the map's setting asks for one.
    await expect.poll(() => page.locator('.mf-legend').textContent(), { timeout: PICTURE_TIMEOUT }).toContain('Stores');
    expect(await page.locator('.mf-minimap').count()).toBe(0);
    // The opening counted: the beacon goes when the page is hidden.
    const counted = async () => {
      await session.server.app.insights.flush();
      const { rows } = await session.server.database.db.query<{ n: string }>("SELECT coalesce(sum(count), 0)::text AS n FROM map_insights WHERE map_id = $1 AND kind = 'open' AND key = 'austin'", [mapId]);
      return Number(rows[0]!.n) > 0;
    };
    const until = Date.now() + PICTURE_TIMEOUT;
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
  }, 120_000);

  /** Pixels of Texas's region when it is selected (its group's colour, tinted as the canvas's active region). */
  const redPixels = async (page: Page, box: { x: number; y: number; width: number; height: number }) =>
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

  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 740 }]) {
    const phone = viewport.width < 720;
    it(`draws the imported states on the basemap, opens one chosen or clicked, fades the filtered out, and reaches them by keyboard (${viewport.width} wide)`, { timeout: 120_000 }, async () => {
      const context = await session.browser.newContext({ baseURL: session.server.url, viewport, ...(phone ? { hasTouch: true, isMobile: true } : {}) });
      const errors: string[] = [];
      context.on('weberror', (error) => errors.push(error.error().message));
      context.on('console', (message) => {
        if (/content security policy|refused to/i.test(message.text())) errors.push(message.text());
      });
      const page = await context.newPage();
      await page.goto(`/m/${mapId}`);
      // MapLibre has drawn the basemap and the states' regions (Alaska, hidden, left out).
      await page.locator(`.mf-basemap[data-ready][data-regions="${regions}"] canvas.maplibregl-canvas`).waitFor({ timeout: 2 * REGIONS_TIMEOUT });
      const map = (await page.locator('.mf-basemap').boundingBox())!;
      await shot(page, `basemap-regions-${viewport.width}`);

      // Texas chosen in the directory: shown whole, active in its group's colour, its details open.
      const sheet = async () => {
        if (phone) await page.getByRole('button', { name: /52 locations|51 locations/ }).click();
      };
      await sheet();
      await page.locator('.mf-directory__list').getByRole('button', { name: /^Texas/ }).first().click();
      const details = page.getByRole('dialog', { name: 'Texas' });
      await details.waitFor({ timeout: REGIONS_TIMEOUT });
      // Its fill at rest is lighter than selected (the active tint): a few times fewer deep red pixels once closed.
      let selected = 0;
      await expect.poll(async () => (selected = await redPixels(page, map)), { timeout: REGIONS_TIMEOUT }).toBeGreaterThan(phone ? 3_000 : 20_000);
      await shot(page, `basemap-region-texas-${viewport.width}`);

      // Closed, then Texas clicked where the flight put it (the middle, raised above the sheet on a phone): open again.
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: REGIONS_TIMEOUT });
      await expect.poll(() => redPixels(page, map), { timeout: REGIONS_TIMEOUT }).toBeLessThan(selected / 3);
      const middle = { x: map.x + map.width / 2, y: map.y + map.height / 2 - (phone ? 0.22 * map.height : 0) };
      await page.mouse.click(middle.x, middle.y);
      await details.waitFor({ timeout: REGIONS_TIMEOUT });
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: REGIONS_TIMEOUT });

      // Oklahoma chosen, it is in the middle, a click there opens it; with only the Lone Star group shown it fades and a click on it opens nothing.
      await sheet();
      await page.locator('.mf-directory__list').getByRole('button', { name: /^Oklahoma/ }).first().click();
      const oklahoma = page.getByRole('dialog', { name: 'Oklahoma' });
      await oklahoma.waitFor({ timeout: REGIONS_TIMEOUT });
      await oklahoma.getByRole('button', { name: 'Close' }).click();
      await oklahoma.waitFor({ state: 'detached', timeout: REGIONS_TIMEOUT });
      await page.mouse.click(middle.x, middle.y);
      await oklahoma.waitFor({ timeout: REGIONS_TIMEOUT });
      await oklahoma.getByRole('button', { name: 'Close' }).click();
      await oklahoma.waitFor({ state: 'detached', timeout: REGIONS_TIMEOUT });
      await sheet();
      await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Lone Star' }).click();
      if (phone) await page.locator('.mf-sheet__panel').getByRole('button', { name: 'Close the directory' }).click();
      await page.mouse.click(middle.x, middle.y);
      await shot(page, `basemap-regions-filtered-${viewport.width}`);
      expect(await page.locator('.mf-popup').count()).toBe(0);

      // By keyboard: from the map, Tab reaches a location's button (Texas, the one state the filter lets through), Enter opens it.
      // (Past MapLibre's attribution, whose links follow the map.)
      await page.locator('canvas.maplibregl-canvas').focus();
      const focused = () => page.evaluate(() => ({ label: document.activeElement?.getAttribute('aria-label') ?? null, location: document.activeElement?.getAttribute('data-location') ?? null }));
      for (let tabs = 0; tabs < 8 && (await focused()).location === null; tabs++) await page.keyboard.press('Tab');
      expect(await focused()).toEqual({ label: expect.stringMatching(/^Texas/), location: expect.any(String) });
      await page.keyboard.press('Enter');
      await details.waitFor({ timeout: REGIONS_TIMEOUT });
      expect(await details.evaluate((element) => element.contains(document.activeElement) || element === document.activeElement)).toBe(true);
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'detached', timeout: REGIONS_TIMEOUT });
      expect((await focused()).label).toMatch(/^Texas/);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('the keyboard on a large street map', () => {
  let mapId: string;
  const STORES = 3_000;

  beforeAll(async () => {
    // The chain's first stores (real GeoNames places round the world) on a basemap floor fitted to them.
    const base = emptyMapDocument();
    const size = base.settings.size;
    const rows = storeChainCsv().trim().split('\n').slice(1, STORES + 1).map((line) => line.split(','));
    const places = rows.map((cells) => ({ lat: Number(cells[4]), lng: Number(cells[5]) }));
    const geo = boundsAround(places, size);
    const document = {
      ...base,
      settings: { ...base.settings, defaultLayer: 'stores' },
      layers: [{ id: 'stores', name: 'Stores', file: null, geo, basemap: true }],
      groups: [],
      locations: rows.map((cells, index) => ({ ...LOCATION_DEFAULTS, id: cells[0]!, title: `Northwind ${cells[1]}`, groups: [], entrances: [], layer: 'stores', position: projectToFloor(geo, size, places[index]!)! })),
    } as MapDocument;
    mapId = await publishedMap('Northwind stores', document);
  }, 120_000);

  it('has buttons for the clusters and stores on screen, not one per store, and Enter on a cluster zooms in with the focus following', { timeout: 120_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`/m/${mapId}`);
    await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: REGIONS_TIMEOUT });
    const clusters = page.locator('.mf-a11y button[data-cluster]');
    await clusters.first().waitFor({ state: 'attached', timeout: REGIONS_TIMEOUT });
    const buttons = await page.locator('.mf-a11y button').count();
    expect(buttons).toBeLessThan(300);
    const counts = (await clusters.evaluateAll((found) => found.map((button) => Number(button.getAttribute('data-count'))))).filter((count) => count > 1);
    expect(counts.length).toBeGreaterThan(3);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(STORES);
    expect(await clusters.first().getAttribute('aria-label')).toMatch(/^[\d,]+ locations, zoom in$/);
    // Enter on the largest: the map zooms in, that cluster's button goes and the focus moves to one of its parts.
    const largest = await clusters.evaluateAll((found) => found.reduce((a, b) => (Number(b.getAttribute('data-count')) > Number(a.getAttribute('data-count')) ? b : a)).getAttribute('data-cluster'));
    await page.locator(`.mf-a11y button[data-cluster="${largest}"]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => document.querySelector(`button[data-cluster="${id}"]`) === null, largest, { timeout: REGIONS_TIMEOUT });
    await page.waitForFunction(() => document.activeElement?.matches('.mf-a11y button') ?? false, undefined, { timeout: REGIONS_TIMEOUT });
    // A store's button opens it.
    const store = page.locator('.mf-a11y button[data-location]').first();
    await store.waitFor({ state: 'attached', timeout: REGIONS_TIMEOUT });
    const name = (await store.getAttribute('aria-label'))!.split(',')[0]!;
    await store.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name }).waitFor({ timeout: REGIONS_TIMEOUT });
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
