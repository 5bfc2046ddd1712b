/**
 * Issue 29's leftovers on a floor on a street basemap, in Chromium (WebGL through SwiftShader
 * with the session's usual flags), one server and browser for all:
 *  - the route's overlay is drawn where MapLibre shows the floor (through MapView.screen), on a
 *    floor whose units are not square on the basemap: its ends sit on the stores' pins, at 1280
 *    and 375 wide;
 *  - the editor at 1280 and 375: MapLibre's attribution and the zoom buttons clear of each
 *    other, and the Data panel's picture has the basemap under it;
 *  - the 25,000-store chain on a phone opens on its stores, not on the middle of their bounds;
 *  - the server's page has the store locator's control ("Find the nearest") before any script,
 *    hydrates without a mismatch, and the "Mapfold" credit stays out of the phone's sheet.
 * Screenshots go to $SCREENSHOTS (when set) to be looked at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundsAround } from '../../events/basemap-bounds.js';
import { LOCATION_DEFAULTS } from '../../events/compact-locations.js';
import { projectToFloor } from '../../events/geo-calibration.js';
import { emptyMapDocument, type GeoCalibration, type MapDocument } from '../../events/map-document.js';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { storeChainCsv } from '../support/store-chain.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';

const TIMEOUT = 30_000;
const shots = process.env.SCREENSHOTS ?? null;
const PIN = '#db2777';
const ACCENT = '#4f46e5';
/** Texas in Web Mercator bounds on a square floor: its units are longer down than across on the basemap. */
const TEXAS: GeoCalibration = { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 };
const SQUARE = { width: 1000, height: 1000 };
const TOWNS = [
  { id: 'dallas', title: 'Dallas store', lat: 32.78, lng: -96.8 },
  { id: 'austin', title: 'Austin store', lat: 30.27, lng: -97.74 },
  { id: 'houston', title: 'Houston store', lat: 29.76, lng: -95.37 },
];
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };

async function shot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** Three Texas stores joined by a path (Dallas, Austin, Houston), on the basemap. */
function routeDocument(): MapDocument {
  const base = emptyMapDocument();
  const at = (town: (typeof TOWNS)[number]) => projectToFloor(TEXAS, SQUARE, town)!;
  return {
    ...base,
    settings: { ...base.settings, size: SQUARE, defaultLayer: 'texas' },
    layers: [{ id: 'texas', name: 'Texas', file: null, geo: TEXAS, basemap: true }],
    groups: [{ id: 'stores', name: 'Stores', color: PIN, legend: true }],
    locations: TOWNS.map((town) => ({ ...LOCATION_DEFAULTS, id: town.id, title: town.title, groups: ['stores'], entrances: [`n-${town.id}`], layer: 'texas', position: at(town) })),
    paths: {
      nodes: TOWNS.map((town) => ({ id: `n-${town.id}`, layer: 'texas', ...at(town) })),
      edges: [
        { id: 'e1', from: 'n-dallas', to: 'n-austin', stepFree: true, oneWay: false },
        { id: 'e2', from: 'n-austin', to: 'n-houston', stepFree: true, oneWay: false },
      ],
      connectors: [],
    },
  } as MapDocument;
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

/** The pixels near a colour in a part of the page: their count, and where they are (page CSS pixels). */
async function pixelsNear(page: Page, colour: string, box: { x: number; y: number; width: number; height: number }): Promise<{ x: number; y: number }[]> {
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

/** A PNG's colours (decoded in the page): how many distinct, and the share of near-white pixels. */
async function pngColours(page: Page, png: Buffer): Promise<{ width: number; colours: number; white: number }> {
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    const colours = new Set<number>();
    let white = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i]! > 250 && data[i + 1]! > 250 && data[i + 2]! > 250) white++;
      colours.add((data[i]! >> 3) * 1024 + (data[i + 1]! >> 3) * 32 + (data[i + 2]! >> 3));
    }
    return { width: image.width, colours: colours.size, white: white / (data.length / 4) };
  }, png.toString('base64'));
}

const overlap = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

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

describe('a floor on a street basemap: the route, the editor, a phone’s first view, the server’s page', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let owner: TestUser;
  let routeMap: string;
  let chainMap: string;

  const create = async (title: string, mapData: MapDocument, state: number) => {
    const answer = await call(server, 'createMap', { title, mapData }, owner);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    await projected(server, answer.body.position);
    const id = answer.body.result as string;
    await server.database.db.query('UPDATE maps_list SET state = $2 WHERE id = $1', [id, state]);
    return id;
  };

  beforeAll(async () => {
    session = await startBrowserSession({ env: { BODY_LIMIT: String(32 * 1024 * 1024) } });
    server = session.server;
    owner = await registerUser(server);
    // A Professional map (state 3): its viewer offers directions.
    routeMap = await create('Texas stores', routeDocument(), 3);
    chainMap = await create('Northwind stores', await chainDocument(), 1);
  }, 240_000);
  afterAll(() => session?.close());

  const open = async (viewport: { width: number; height: number }, url: string, options: { javaScript?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> => {
    const phone = viewport.width < 720;
    const context = await session.browser.newContext({ baseURL: server.url, viewport, isMobile: phone, hasTouch: phone, javaScriptEnabled: options.javaScript ?? true, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /hydrat|did not match/i.test(message.text())) errors.push(message.text());
    });
    await page.goto(url);
    return { context, page, errors };
  };

  for (const viewport of [DESKTOP, PHONE]) {
    it(`draws a route over the basemap where MapLibre shows its stores, ${viewport.width} wide`, { timeout: 90_000 }, async () => {
      const { context, page, errors } = await open(viewport, `/m/${routeMap}?from=dallas&to=houston`);
      await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: TIMEOUT });
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
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const viewport of [DESKTOP, PHONE]) {
    it(`keeps MapLibre's attribution and the editor's controls apart, and the editor's picture has the basemap, ${viewport.width} wide`, { timeout: 120_000 }, async () => {
      const context = await signedInContext(session.browser, server, owner, viewport);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`/maps/${routeMap}`);
      await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: TIMEOUT });
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
        if (shots) mkdirSync(shots, { recursive: true });
        if (shots) await import('node:fs').then(({ writeFileSync }) => writeFileSync(path.join(shots, 'basemap-editor-picture.png'), png));
        const picture = await pngColours(page, png);
        // The basemap: land, water, borders and labels, not the blank sheet of a picture without it.
        expect(picture.colours, JSON.stringify(picture)).toBeGreaterThan(200);
        expect(picture.white, JSON.stringify(picture)).toBeLessThan(0.5);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('opens the 25,000-store chain on its stores on a phone, not on the sea in the middle of their bounds', { timeout: 120_000 }, async () => {
    // The basemap's sea (its background: the embedded archive has land polygons and no sea ones).
    const style = (await (await fetch(`${server.url}/basemap/style.json?theme=light&lang=en`)).json()) as { layers: { type: string; paint?: Record<string, unknown> }[] };
    const water = String(style.layers.find((layer) => layer.type === 'background')?.paint?.['background-color']);
    expect(water).toMatch(/^#[0-9a-f]{6}$/i);
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await open(viewport, `/m/${chainMap}`);
      await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: 60_000 });
      const map = (await page.locator('.mf-basemap').boundingBox())!;
      await shot(page, `basemap-chain-${viewport.width}`);
      if (viewport === PHONE) {
        // The map's middle is among the stores (land, their clusters), not open sea.
        const middle = { x: map.x + map.width / 2 - 30, y: map.y + map.height / 2 - 30, width: 60, height: 60 };
        const sea = (await pixelsNear(page, water, middle)).length / (middle.width * middle.height);
        expect(sea, `the sea's share of the map's middle on a phone`).toBeLessThan(0.5);
      }
      // The stores' clusters and pins (the accent) on screen.
      expect((await pixelsNear(page, ACCENT, map)).length / (map.width * map.height)).toBeGreaterThan(0.02);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('has the store locator’s control in the server’s page, hydrates it, and keeps the credit out of the phone’s sheets', { timeout: 120_000 }, async () => {
    // Before any script: the server's markup.
    const bare = await open(DESKTOP, `/m/${routeMap}`, { javaScript: false });
    expect(await bare.page.getByRole('search', { name: 'Find the nearest' }).isVisible()).toBe(true);
    expect(await bare.page.getByRole('textbox', { name: 'Find the nearest' }).isVisible()).toBe(true);
    // Styled by the page's own style sheet, not waiting for the store locator's code.
    expect(await bare.page.locator('.mf-near').evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('solid');
    await shot(bare.page, 'basemap-ssr-1280');
    await bare.context.close();
    const phone = await open(PHONE, `/m/${routeMap}`, { javaScript: false });
    await shot(phone.page, 'basemap-ssr-375');
    if (shots) await phone.page.screenshot({ path: path.join(shots, 'basemap-ssr-375-page.png'), fullPage: true });
    await phone.context.close();
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, errors } = await open(viewport, `/m/${routeMap}`);
      await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: TIMEOUT });
      if (viewport === PHONE) await page.locator('.mf-topbar__list').click();
      const field = page.getByRole('textbox', { name: 'Find the nearest' });
      await field.waitFor();
      // Hydrated: it takes what is typed and searches.
      await field.fill('Austin');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByText(/Near Austin/).waitFor({ timeout: 60_000 });
      await shot(page, `basemap-near-${viewport.width}`);
      if (viewport === PHONE) {
        expect(await creditOver(page, '.mf-sheet__panel'), 'the credit over the directory’s sheet').toBe(false);
        // A store's details: the phone's bottom sheet.
        await page.locator('.mf-sheet__panel').getByRole('button', { name: /^Austin store/ }).first().click();
        await page.locator('.mf-popup--sheet').waitFor();
        await shot(page, 'basemap-details-375');
        expect(await creditOver(page, '.mf-popup--sheet'), 'the credit over the details’ sheet').toBe(false);
      } else expect(await page.locator('.mf-credit').isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
