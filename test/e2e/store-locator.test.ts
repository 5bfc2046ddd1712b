/**
 * The store locator in Chromium (issue 29 item 4): a map of real US stores (the Texas rows of
 * test/fixtures/import/csv/starbucks-directory-excerpt.csv, a public Starbucks directory) on the
 * built-in United States map, a geographic floor (Albers USA). At 1280 and 375 wide a visitor
 * searches a postcode (80202, Denver: the nearest list in miles), changes to 75201 (Dallas) and
 * a 10-mile radius (fewer, all within it, the count says so; on a drawn floor the map's markers
 * are those within it too, and the map zoomed in to them), uses their position (granted:
 * "Near your location", the nearest Dallas store first), opens a store (Directions to Google
 * Maps, phone as a tel: link); and with the position denied reads why. Screenshots go to
 * $SCREENSHOTS (when set) to be looked at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapDocument } from '../../events/map-document.js';
import { builtInMap } from '../../server/templates/built-in-maps.js';
import { startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';
import { texasStores } from './support/texas-stores.js';

const TIMEOUT = 15_000;
/** axe-core, run in the page through the DevTools protocol (the page's CSP refuses an inline script). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's violations in the store locator's control and the list it sorts. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(['.mf-near', '.mf-directory__list'], { resultTypes: ['violations'], iframes: false }).then((r) => r.violations)`)) as { id: string; nodes: { target: unknown[] }[] }[];
  return violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(' ')}`);
}
const shots = process.env.SCREENSHOTS ?? null;

async function shot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** The stores on the United States template's drawing (its states left as a plain drawing). */
function storesDocument(template: MapDocument): { document: MapDocument; count: number } {
  const usa = builtInMap('us-states');
  const locations = texasStores({ layer: template.layers[0]!.id, geo: usa.geo, size: { width: usa.width, height: usa.height }, extra: { hours: 'Mon–Sun 5:30–21:00' } });
  const document = { ...template, groups: [], locations } as MapDocument;
  return { document, count: locations.length };
}

describe('the store locator in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let owner: TestUser;
  let mapId: string;
  let count: number;

  beforeAll(async () => {
    session = await startBrowserSession({ env: { BODY_LIMIT: String(8 * 1024 * 1024) } });
    server = session.server;
    owner = await registerUser(server);
    const response = await fetch(`${server.url}/api/templates/us-states/instantiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookie },
      body: JSON.stringify({ data: {} }),
    });
    const template = ((await response.json()) as { result: MapDocument }).result;
    expect(template.layers[0]?.geo).toBeTruthy();
    const made = storesDocument(template);
    count = made.count;
    const answer = await call(server, 'createMap', { title: 'Texas coffee stores', mapData: made.document }, owner);
    if (answer.body.position) await projected(server, answer.body.position);
    mapId = answer.body.result as string;
    expect(mapId, JSON.stringify(answer.body)).toBeTruthy();
  }, 120_000);
  afterAll(() => session?.close());

  async function open(browser: Browser, viewport: { width: number; height: number }, options: BrowserContextOptions = {}) {
    const context = await browser.newContext({ baseURL: server.url, viewport, ...(viewport.width < 720 ? { hasTouch: true, isMobile: true } : {}), ...options });
    const [name, value] = owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`/m/${mapId}`);
    if (viewport.width < 720) await page.getByRole('button', { name: new RegExp(`${count} locations`) }).click();
    const finder = page.getByRole('search', { name: 'Find the nearest' });
    await finder.waitFor({ timeout: TIMEOUT });
    return { context, page, finder };
  }

  /** The drawn floor's zoom (its world's scale; null on a basemap floor, which MapLibre draws). */
  const scaleOf = async (page: Page) => {
    const transform = await page.locator('.mf-world').first().evaluate((world) => (world as HTMLElement).style.transform).catch(() => null);
    const match = transform?.match(/scale\(([\d.]+)\)/);
    return match ? Number(match[1]) : null;
  };
  /** The map's buttons for the keyboard, one per marker a drawn floor shows. */
  const markerButtons = (page: Page) => page.locator('ul.mf-a11y button[data-location]');
  const drawn = async (page: Page) => (await page.locator('.mf-basemap').count()) === 0;

  const distances = async (page: Page) => (await page.locator('.mf-item__distance').allTextContents()).map((text) => Number.parseFloat(text.replace(/,/g, '')));

  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 740 }]) {
    it(`finds the nearest stores to a postcode, within a radius, and to the visitor (${viewport.width} wide)`, { timeout: 120_000 }, async () => {
      const { context, page, finder } = await open(session.browser, viewport, { permissions: ['geolocation'], geolocation: { latitude: 32.7767, longitude: -96.797 } });
      const onDrawnFloor = await drawn(page);
      if (onDrawnFloor) await expect.poll(() => markerButtons(page).count(), { timeout: TIMEOUT }).toBe(count);
      const home = await scaleOf(page);
      await finder.getByLabel('Find the nearest').fill('80202');
      await finder.getByRole('button', { name: 'Search' }).click();
      // The first search loads the embedded geocoder's data on the server (seconds on a busy machine).
      await page.getByText('Near 80202').waitFor({ timeout: 60_000 });
      await expect.poll(() => page.locator('.mf-item__distance').count(), { timeout: TIMEOUT }).toBeGreaterThan(0);
      const first = await page.locator('.mf-item__distance').first().textContent();
      expect(first).toMatch(/^[\d,.]+ mi$/);
      const fromDenver = await distances(page);
      expect(fromDenver).toEqual([...fromDenver].sort((a, b) => a - b));
      // Denver to the nearest Texas store (El Paso or the Dallas area) is hundreds of miles.
      expect(fromDenver[0]).toBeGreaterThan(400);
      await page.getByText(`${count} locations, nearest first`).waitFor({ timeout: TIMEOUT });
      await shot(page, `store-locator-80202-${viewport.width}`);

      await page.getByRole('button', { name: 'Change' }).click();
      await finder.getByLabel('Find the nearest').fill('75201');
      await finder.getByRole('button', { name: 'Search' }).click();
      await page.getByText('Near 75201').waitFor({ timeout: TIMEOUT });
      await page.getByLabel('Within').selectOption({ label: '10 mi' });
      const within = page.getByText(/^\d+ locations? within 10 mi$/);
      await within.waitFor({ timeout: TIMEOUT });
      const inRadius = Number.parseInt((await within.textContent())!, 10);
      expect(inRadius).toBeGreaterThan(0);
      expect(inRadius).toBeLessThan(count);
      await expect.poll(() => page.locator('.mf-item__distance').count(), { timeout: TIMEOUT }).toBeLessThanOrEqual(inRadius);
      for (const miles of await distances(page)) expect(miles).toBeLessThanOrEqual(10);
      if (onDrawnFloor) {
        // The map's markers are the radius's too, and the map zoomed in to them (Dallas, from all of the United States).
        await expect.poll(() => markerButtons(page).count(), { timeout: TIMEOUT }).toBe(inRadius);
        await expect.poll(async () => (await scaleOf(page))! / home!, { timeout: TIMEOUT }).toBeGreaterThan(4);
      }
      await shot(page, `store-locator-75201-10mi-${viewport.width}`);
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Change' }).click();
      await finder.getByRole('button', { name: 'Use my location' }).click();
      await page.getByText('Near your location').waitFor({ timeout: TIMEOUT });
      if (onDrawnFloor) {
        // Back to any distance (the radius kept, 10 mi): the map still shows the nearest around the visitor, zoomed in.
        await expect.poll(() => markerButtons(page).count(), { timeout: TIMEOUT }).toBeGreaterThan(0);
        await expect.poll(async () => (await scaleOf(page))! / home!, { timeout: TIMEOUT }).toBeGreaterThan(4);
      }
      const nearest = page.getByRole('list', { name: 'Locations', exact: true }).getByRole('button').first();
      const title = (await nearest.locator('.mf-item__title').textContent())!;
      expect((await distances(page))[0]).toBeLessThan(10);
      await nearest.click();
      const details = page.getByRole('dialog', { name: title });
      await details.waitFor({ timeout: TIMEOUT });
      const directions = details.getByRole('link', { name: /Directions/ });
      await directions.waitFor({ timeout: TIMEOUT });
      expect(await directions.getAttribute('href')).toMatch(/^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=32\.\d+,-9[67]\.\d+$/);
      expect(await details.locator('a[href^="tel:"]').count()).toBe(1);
      await shot(page, `store-locator-details-${viewport.width}`);
      await context.close();
    });

    it(`says why when the visitor’s position is denied (${viewport.width} wide)`, { timeout: 60_000 }, async () => {
      const { context, page, finder } = await open(session.browser, viewport);
      await finder.getByRole('button', { name: 'Use my location' }).click();
      await page.getByText(/Your location isn’t shared with this page/).waitFor({ timeout: TIMEOUT });
      expect(await page.locator('.mf-item__distance').count()).toBe(0);
      await shot(page, `store-locator-denied-${viewport.width}`);
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  }
});
