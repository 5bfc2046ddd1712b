/**
 * A picture of a floor on a street basemap in Chromium (issue 29 item 1): from the viewer's share
 * menu, the PNG shows the basemap as MapLibre draws it (its land and water colours, not a blank
 * sheet), the stores' pins over it in their groups' colours, and the tiles' attribution; the SVG
 * carries the basemap as an image with the attribution's text; Print puts the basemap on the
 * page (the printed picture holds the basemap's image). And the rest of the viewer on that floor:
 * a deep link in French opens its location there, the basemap's labels asked in French, the
 * legend shown, the minimap left out (the editor's setting says a street map has none), the
 * location's opening counted by the insights beacon, and the browser's own Print puts the basemap
 * on paper (a WebGL canvas prints blank unless its picture is laid over it). WebGL runs headless through SwiftShader.
 * The pictures go to $SCREENSHOTS (when set) to be looked at.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCATION_DEFAULTS } from '../../events/compact-locations.js';
import { projectToFloor } from '../../events/geo-calibration.js';
import { emptyMapDocument, type GeoCalibration, type MapDocument } from '../../events/map-document.js';
import { startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer } from '../support/test-server.js';

const TIMEOUT = 30_000;
const shots = process.env.SCREENSHOTS ?? null;
const PIN = '#db2777';
/** Texas, in Web Mercator bounds, on a 1000 × 800 floor. */
const TEXAS: GeoCalibration = { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 };
const SIZE = { width: 1000, height: 800 };
const TOWNS = [
  { id: 'dallas', title: 'Dallas store', lat: 32.78, lng: -96.8 },
  { id: 'austin', title: 'Austin store', lat: 30.27, lng: -97.74 },
  { id: 'houston', title: 'Houston store', lat: 29.76, lng: -95.37 },
  { id: 'el-paso', title: 'El Paso store', lat: 31.76, lng: -106.45 },
];

function storesDocument(): MapDocument {
  const base = emptyMapDocument();
  return {
    ...base,
    settings: { ...base.settings, size: SIZE, defaultLayer: 'texas', features: { ...base.settings.features, minimap: true } },
    layers: [{ id: 'texas', name: 'Texas', file: null, geo: TEXAS, basemap: true }],
    groups: [{ id: 'stores', name: 'Stores', color: PIN, legend: true }],
    locations: TOWNS.map((town) => ({ ...LOCATION_DEFAULTS, id: town.id, title: town.title, groups: ['stores'], entrances: [], layer: 'texas', position: projectToFloor(TEXAS, SIZE, town)! })),
  } as MapDocument;
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

describe('a picture of a floor on a street basemap', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let mapId: string;

  beforeAll(async () => {
    session = await startBrowserSession();
    server = session.server;
    const owner = await registerUser(server);
    const answer = await call(server, 'createMap', { title: 'Texas stores', mapData: storesDocument() }, owner);
    if (answer.body.position) await projected(server, answer.body.position);
    mapId = answer.body.result as string;
    expect(mapId, JSON.stringify(answer.body)).toBeTruthy();
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);
  }, 120_000);
  afterAll(() => session?.close());

  it('downloads a PNG and an SVG with the basemap, the pins and the attribution, and prints the basemap', { timeout: 180_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`/m/${mapId}`);
    await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Share' }).first().click();
    const menu = page.getByRole('dialog', { name: 'Share this map' });
    await menu.getByRole('button', { name: 'PNG', exact: true }).waitFor();

    const download = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT * 2 }), menu.getByRole('button', { name, exact: true }).click()]);
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
    await page.waitForFunction(() => (window as { __printed?: number }).__printed === 1, undefined, { timeout: TIMEOUT * 2 });
    const printed = await page.locator('.mf-print-sheet img').getAttribute('src');
    expect(decodeURIComponent(printed ?? '')).toMatch(/<g id="mfx-floor"><image [^>]*href="data:image\/png;base64,/);
    await page.emulateMedia({ media: 'print' });
    if (shots) await page.screenshot({ path: path.join(shots, 'basemap-print.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a deep link in French on the basemap floor, with its legend, no minimap, and counts the opening', { timeout: 120_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const styles: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/basemap/style.json') styles.push(request.url());
    });
    await page.goto(`/m/${mapId}?location=austin&lang=fr`);
    await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: TIMEOUT });
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
      await server.app.insights.flush();
      const { rows } = await server.database.db.query<{ n: string }>("SELECT coalesce(sum(count), 0)::text AS n FROM map_insights WHERE map_id = $1 AND kind = 'open' AND key = 'austin'", [mapId]);
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
