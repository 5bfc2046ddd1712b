/**
 * A street map the editor's e2e tests work on (presence in collaboration.test.ts, the path tool
 * in path-tool.test.ts): three Texas stores on a floor on the street basemap, each store's pin in
 * a colour of its own so a test can find it on screen, and where a pin stands on the page.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { LOCATION_DEFAULTS } from '../../../events/compact-locations.js';
import { projectToFloor } from '../../../events/geo-calibration.js';
import { emptyMapDocument, type MapDocument } from '../../../events/map-document.js';
import { TEXAS, TEXAS_SIZE } from './texas-stores.js';

/** What MapLibre has drawn once a street map's floor is ready. */
export const READY = '.mf-basemap[data-ready] canvas.maplibregl-canvas';

/**
 * Each store's pin colour: far (over 40 in each channel's reach) from every presence colour
 * (PEER_COLORS), the accents and any of them blended with a light or a dark map, since pinAt
 * finds a pin by its colour and another editor's ring and name by it are drawn in theirs. (Austin's
 * was pink-600, which the ring of a user whose colour is pink-700 matched over the light map:
 * the pin "moved" 5 px when the map turned dark, one run in ten, as the colour goes by uid.)
 */
export const AUSTIN_PINS = '#d946ef';
export const HOUSTON_PINS = '#16a34a';
export const EL_PASO_PINS = '#eab308';

const STORES = [
  { id: 'austin', title: 'Austin store', lat: 30.27, lng: -97.74, colour: AUSTIN_PINS },
  { id: 'el-paso', title: 'El Paso store', lat: 31.76, lng: -106.45, colour: EL_PASO_PINS },
  { id: 'houston', title: 'Houston store', lat: 29.76, lng: -95.37, colour: HOUSTON_PINS },
];

/**
 * The three stores on a floor on the street basemap around Texas, its units longer down than
 * across on the basemap (1000 by 800 over Texas's Web Mercator bounds: a unit down is 1.19 of
 * one across), each store in a group of its own colour.
 */
export function streetStores(): MapDocument {
  const base = emptyMapDocument();
  return {
    ...base,
    settings: { ...base.settings, size: TEXAS_SIZE, defaultLayer: 'texas' },
    layers: [{ id: 'texas', name: 'Texas', file: null, geo: TEXAS, basemap: true }],
    groups: STORES.map(({ id, title, colour }) => ({ id, name: title, color: colour, legend: true })),
    locations: STORES.map(({ id, title, lat, lng }) => ({ ...LOCATION_DEFAULTS, id, title, groups: [id], entrances: [], layer: 'texas', position: projectToFloor(TEXAS, TEXAS_SIZE, { lat, lng })! })),
  } as MapDocument;
}

/** A store's point on the floor. */
export function storePoint(id: string): { x: number; y: number } {
  return streetStores().locations.find((location) => location.id === id)!.position!;
}

/**
 * Where the editor's pin of this colour stands on the page (the point it marks), or null when
 * none is drawn: the middle of its pixels across, and 36 px below their top
 * (basemap-marker-layers.ts draws a 40 px pin whose coloured head starts 4 px below its top; its
 * point is a thin, ringed bottom edge that a colour match would miss).
 */
export async function pinAt(page: Page, colour: string): Promise<{ x: number; y: number } | null> {
  const box = (await page.locator('.ed-canvas .mf-map').boundingBox())!;
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
      let [minX, maxX, minY, count] = [Infinity, -Infinity, Infinity, 0];
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i]! - r) >= 24 || Math.abs(data[i + 1]! - g) >= 24 || Math.abs(data[i + 2]! - b) >= 24) continue;
        const [x, y] = [(i / 4) % image.width, Math.floor(i / 4 / image.width)];
        [minX, maxX, minY, count] = [Math.min(minX, x), Math.max(maxX, x), Math.min(minY, y), count + 1];
      }
      return count < 20 ? null : { x: (minX + maxX + 1) / 2, y: minY + 36 };
    },
    { png, colour },
  );
  return found && { x: box.x + found.x, y: box.y + found.y };
}

/** Where a pin stands once the map is at rest (two readings a quarter of a second apart alike). */
export async function pinAtRest(page: Page, colour: string, timeout = 15_000): Promise<{ x: number; y: number }> {
  let last: { x: number; y: number } | null = null;
  let now: { x: number; y: number } | null = null;
  const still = () => now !== null && last !== null && Math.abs(now.x - last.x) < 0.5 && Math.abs(now.y - last.y) < 0.5;
  await expect.poll(async () => ((last = now), (now = await pinAt(page, colour)), still()), { timeout, interval: 250, message: `the pin ${colour} at rest` }).toBe(true);
  return now!;
}

/** The mean brightness (0 to 255) of the editor's map as the page shows it: a dark basemap's is low. */
export async function mapBrightness(page: Page): Promise<number> {
  const box = (await page.locator('.ed-canvas .mf-map').boundingBox())!;
  const png = (await page.screenshot({ clip: box })).toString('base64');
  return page.evaluate(async (png) => {
    const image = new Image();
    image.src = `data:image/png;base64,${png}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum += (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
    return sum / (data.length / 4);
  }, png);
}
