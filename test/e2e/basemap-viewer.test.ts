/**
 * A floor on a street basemap in the public viewer, in Chromium (issue 29 item 1): the 102 US
 * (Texas) stores of the real Starbucks directory excerpt (test/fixtures/import/csv, as the store
 * locator's test reads it) on a floor laid on the basemap by Web Mercator bounds, beside a drawn
 * floor. At 1280 and 375 wide: the viewer draws MapLibre's canvas, its tiles answered 206 (HTTP
 * Range), nothing refused by the Content-Security-Policy; a store chosen in the directory is
 * flown to and its popup opens at its marker (a bottom sheet on a phone); a click on the marker
 * opens it too; a group filter takes the other group's pins off the map; the drawn floor and
 * back. WebGL runs headless through SwiftShader with the session's usual flags.
 * Screenshots go to $SCREENSHOTS (when set) to be looked at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCATION_DEFAULTS } from '../../events/compact-locations.js';
import { projectToFloor } from '../../events/geo-calibration.js';
import { emptyMapDocument, type GeoCalibration, type MapDocument } from '../../events/map-document.js';
import { startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';

const TIMEOUT = 20_000;
const shots = process.env.SCREENSHOTS ?? null;
/** Dallas's stores' pins, and the others'. */
const DALLAS = '#db2777';
const ELSEWHERE = '#16a34a';
/** Texas, in Web Mercator bounds, on a 1000 × 800 floor. */
const TEXAS: GeoCalibration = { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 };
const SIZE = { width: 1000, height: 800 };

async function shot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** The CSV's rows (quoted fields with commas), as records by header. */
function readCsv(file: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const text = readFileSync(file, 'utf8');
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',' || char === '\n') {
      row.push(field);
      field = '';
      if (char === '\n') {
        rows.push(row);
        row = [];
      }
    } else if (char !== '\r') field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

/** The stores on a basemap floor of Texas, and a drawn floor (the head office). */
function storesDocument(): { document: MapDocument; count: number; dallas: string } {
  const rows = readCsv('test/fixtures/import/csv/starbucks-directory-excerpt.csv').filter((row) => row.Country === 'US');
  const base = emptyMapDocument();
  const locations = rows.map((row, index) => ({
    ...LOCATION_DEFAULTS,
    id: `store-${index + 1}`,
    title: row['Store Name']!,
    about: `${row['Street Address']}, ${row.City}, ${row['State/Province']}`,
    phone: row['Phone Number']!,
    groups: [row.City === 'Dallas' ? 'dallas' : 'elsewhere'],
    entrances: [],
    layer: 'texas',
    position: projectToFloor(TEXAS, SIZE, { lat: Number(row.Latitude), lng: Number(row.Longitude) })!,
  }));
  const document = {
    ...base,
    settings: { ...base.settings, size: SIZE, defaultLayer: 'texas' },
    layers: [
      { id: 'texas', name: 'Texas', file: null, geo: TEXAS, basemap: true },
      { id: 'office', name: 'Head office', file: null },
    ],
    groups: [
      { id: 'dallas', name: 'Dallas', color: DALLAS, legend: true },
      { id: 'elsewhere', name: 'Elsewhere in Texas', color: ELSEWHERE, legend: true },
    ],
    locations: [...locations, { ...LOCATION_DEFAULTS, id: 'desk', title: 'Reception', groups: [], entrances: [], layer: 'office', position: { x: 500, y: 400 } }],
  } as MapDocument;
  const dallas = rows.find((row) => row.City === 'Dallas')!['Store Name']!;
  return { document, count: rows.length + 1, dallas };
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

describe('a floor on a street basemap in the viewer', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let owner: TestUser;
  let mapId: string;
  let made: ReturnType<typeof storesDocument>;

  beforeAll(async () => {
    session = await startBrowserSession();
    server = session.server;
    owner = await registerUser(server);
    made = storesDocument();
    const answer = await call(server, 'createMap', { title: 'Texas coffee stores', mapData: made.document }, owner);
    if (answer.body.position) await projected(server, answer.body.position);
    mapId = answer.body.result as string;
    expect(mapId, JSON.stringify(answer.body)).toBeTruthy();
    // Published (as the Content-Security-Policy test does it: publishing through slots is billing's): public, seen by anyone.
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);
  }, 120_000);
  afterAll(() => session?.close());

  /** The map's page, its tiles' statuses and what the policy refused, once MapLibre has drawn it. */
  async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; tiles: number[]; refused: string[] }> {
    const context = await session.browser.newContext({ baseURL: server.url, viewport, ...(viewport.width < 720 ? { hasTouch: true, isMobile: true } : {}) });
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
    await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: TIMEOUT });
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
      await expect.poll(async () => pixelsOf(page, ELSEWHERE, (await middleOf(page)).box), { timeout: TIMEOUT }).toBeGreaterThan(0);
      await shot(page, `basemap-texas-${viewport.width}`);

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
      await expect.poll(() => pixelsOf(page, DALLAS, { x: marker.x - 20, y: marker.y - 50, width: 40, height: 50 }), { timeout: TIMEOUT }).toBeGreaterThan(40);
      await shot(page, `basemap-store-${viewport.width}`);

      // Closed, then the marker clicked: its popup again.
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: TIMEOUT });
      await page.mouse.click(marker.x, marker.y - 20);
      await details.waitFor({ timeout: TIMEOUT });
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached', timeout: TIMEOUT });

      // Only the stores elsewhere in Texas: Dallas's pins leave the map, a click where one was opens nothing.
      if (phone) await page.getByRole('button', { name: new RegExp(`${made.count} locations`) }).click();
      await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Elsewhere in Texas' }).click();
      if (phone) await page.locator('.mf-sheet__panel').getByRole('button', { name: 'Close the directory' }).click();
      await expect.poll(() => pixelsOf(page, DALLAS, middle.box), { timeout: TIMEOUT }).toBe(0);
      await page.mouse.click(marker.x, marker.y - 20);
      await shot(page, `basemap-filtered-${viewport.width}`);
      expect(await page.locator('.mf-popup').count()).toBe(0);

      // The drawn floor, and back on the basemap.
      await page.locator('.mf-layers').getByRole('button', { name: 'Head office' }).click();
      await page.locator('.mf-viewport').waitFor({ timeout: TIMEOUT });
      expect(await page.locator('.maplibregl-canvas').count()).toBe(0);
      await page.locator('.mf-layers').getByRole('button', { name: 'Texas' }).click();
      await page.locator('.mf-basemap[data-ready] canvas.maplibregl-canvas').waitFor({ timeout: TIMEOUT });
      expect(await page.locator('.mf-viewport').count()).toBe(0);
      await expect.poll(async () => pixelsOf(page, ELSEWHERE, (await middleOf(page)).box), { timeout: TIMEOUT }).toBeGreaterThan(0);
      expect(refused).toEqual([]);
      await context.close();
    });
  }
});
