/**
 * Issue 28's Chromium subset of the real-world corpus (test/fixtures/realworld, SOURCES.md): files
 * as their authors published them, started on /maps/new's "Import a file" as a new user would,
 * then opened on the map's own page (/m/{id}, shown to its owner before it is published):
 * - a Mapplic map of a school (lycee-pierres-vives: its JSON and the two floors' SVGs, picked
 *   together), whose rooms are regions of the drawings: a room is lit and opens by click on both
 *   floors;
 * - Leaflet's US states GeoJSON (mapbox/geojson-vt), whose ids are FIPS codes ('01' to '56', the
 *   District of Columbia '11'): every state is a region (Puerto Rico, beyond Albers USA's insets, a
 *   place), and Texas opens by click; the District's link zooms in until it can be seen.
 * - Mapplic's sample mall (mapplic-demo-mall: the JSON and its three floors' drawings, picked
 *   together), whose shops are their outlines' ids: a shop is lit and opens by click, an
 *   upstairs one by its link.
 * At 1280 × 800 and 375 × 812. Screenshots go to $SCREENSHOTS (when set) as
 * realworld-{map}-{width}-{step}.png, to look at.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { registerUser } from '../support/test-server.js';
import { animationsEnded } from './support/animations.js';
import { documentOf, startMapFromFiles } from './support/import-files.js';
import { lookAt } from './support/look-at.js';

const TIMEOUT = 30_000;
const CORPUS = path.resolve(import.meta.dirname, '../fixtures/realworld');
const LYCEE = ['lycee.json', 'RDC.svg', 'etage.svg'].map((name) => path.join(CORPUS, 'mapplic/lycee-pierres-vives', name));
const MALL = ['mall.json', 'mall-underground.svg', 'mall-ground.svg', 'mall-level1.svg'].map((name) => path.join(CORPUS, 'mapplic/mapplic-demo-mall', name));
const US_STATES = path.join(CORPUS, 'geojson/us-states-geojson-vt.json');
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];

/** The centre, on the page, of the drawn region of location `locationId` (null while it is not drawn or not in view). */
async function regionCentre(page: Page, locationId: string): Promise<{ x: number; y: number } | null> {
  return page.locator('.mf-base').first().evaluate((host, id) => {
    const element = host.shadowRoot?.querySelector(`[data-mf-loc="${CSS.escape(id)}"]`);
    if (!element) return null;
    const rect = element.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    return x > 0 && y > 0 && x < innerWidth && y < innerHeight ? { x, y } : null;
  }, locationId);
}

/** The longer side (px) of the drawn region of location `locationId`, as the page shows it. */
async function sideOf(page: Page, locationId: string): Promise<number> {
  return page.locator('.mf-base').first().evaluate((host, id) => {
    const rect = host.shadowRoot!.querySelector(`[data-mf-loc="${CSS.escape(id)}"]`)!.getBoundingClientRect();
    return Math.max(rect.width, rect.height);
  }, locationId);
}

/** Clicks the region of `locationId` where the page shows it, and waits for its details. */
async function openRegion(page: Page, locationId: string, title: string): Promise<void> {
  await expect.poll(() => regionCentre(page, locationId), { timeout: TIMEOUT }).not.toBeNull();
  await animationsEnded(page);
  const centre = (await regionCentre(page, locationId))!;
  await page.mouse.click(centre.x, centre.y);
  await page.getByRole('dialog', { name: title }).waitFor({ timeout: TIMEOUT });
  const lit = await page.locator('.mf-base').first().evaluate((host, id) => host.shadowRoot!.querySelector(`[data-mf-loc="${CSS.escape(id)}"]`)!.hasAttribute('data-mf-active'), locationId);
  expect(lit).toBe(true);
}

describe('real-world files imported and clickable in Chromium', () => {
  const session = useBrowserSession();

  for (const viewport of VIEWPORTS) {
    it(`a Mapplic school on two floors, its rooms clickable (${viewport.width} px)`, { timeout: 180_000 }, async () => {
      const owner = await registerUser(session.server);
      const context = await signedInContext(session.browser, session.server, owner, viewport);
      const page = await context.newPage();
      const shot = async (step: string) => animationsEnded(page).then(() => lookAt(page, `realworld-mapplic-school-${viewport.width}-${step}`));
      const mapId = await startMapFromFiles(page, LYCEE, 'lycee.json', TIMEOUT);
      await shot('1-editor');

      // What the file says, in the map: both floors, and each room of the JSON on its floor's region.
      const document = await documentOf(page, mapId);
      expect(document.layers.map((floor) => floor.name)).toEqual(['RDC', 'Etage']);
      const byTitle = new Map(document.locations.map((location) => [location.title, location]));
      const becquerel = byTitle.get('Becquerel')!;
      expect(becquerel.element).toBe('s_0');
      const upstairs = document.locations.find((location) => location.layer === document.layers[1]!.id && location.element);
      expect(upstairs, 'a room of the upper floor linked to its region').toBeDefined();

      await page.goto(`/m/${mapId}`);
      await expect.poll(() => regionCentre(page, becquerel.id), { timeout: TIMEOUT }).not.toBeNull();
      await shot('2-overview');
      await openRegion(page, becquerel.id, 'Becquerel');
      await shot('3-ground-floor-room');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Becquerel' }).waitFor({ state: 'detached' });

      // The upper floor, by its link, and one of its rooms.
      await page.goto(`/m/${mapId}?location=${encodeURIComponent(upstairs!.id)}`);
      await page.getByRole('dialog', { name: upstairs!.title }).waitFor({ timeout: TIMEOUT });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: upstairs!.title }).waitFor({ state: 'detached' });
      await openRegion(page, upstairs!.id, upstairs!.title);
      await shot('4-upper-floor-room');
      await context.close();
    });

    it(`the US states GeoJSON with FIPS ids, every state a region (${viewport.width} px)`, { timeout: 180_000 }, async () => {
      const owner = await registerUser(session.server);
      const context = await signedInContext(session.browser, session.server, owner, viewport);
      const page = await context.newPage();
      const shot = async (step: string) => animationsEnded(page).then(() => lookAt(page, `realworld-us-states-${viewport.width}-${step}`));
      const mapId = await startMapFromFiles(page, [US_STATES], 'us-states-geojson-vt.json', TIMEOUT);
      await shot('1-editor');

      const document = await documentOf(page, mapId);
      expect(document.locations).toHaveLength(52);
      // Albers USA, the projection of US maps, has no inset for Puerto Rico: the preview says so, and it comes in as a place of the map, not a drawn state.
      expect(document.locations.filter((location) => !location.element).map((location) => location.title)).toEqual(['Puerto Rico']);
      const dc = document.locations.find((location) => location.title === 'District of Columbia')!;
      expect(dc.element).toBeDefined();
      const texas = document.locations.find((location) => location.title === 'Texas')!;

      await page.goto(`/m/${mapId}`);
      await expect.poll(() => regionCentre(page, texas.id), { timeout: TIMEOUT }).not.toBeNull();
      await shot('2-overview');
      const dcAtHome = await sideOf(page, dc.id);
      expect(dcAtHome).toBeGreaterThan(0);
      await openRegion(page, texas.id, 'Texas');
      await shot('3-texas');
      await page.keyboard.press('Escape');
      // The District of Columbia, id '11' in the file, is on the map and opens by its link.
      await page.goto(`/m/${mapId}?location=${encodeURIComponent(dc.id)}`);
      await page.getByRole('dialog', { name: 'District of Columbia' }).waitFor({ timeout: TIMEOUT });
      // A district of 177 km² on a continent's map: the link zooms in as far as the map allows
      // (8 times the whole map), not only to the twice every location gets.
      await animationsEnded(page);
      expect(await sideOf(page, dc.id)).toBeGreaterThanOrEqual(6 * dcAtHome);
      await shot('4-district-of-columbia');
      await context.close();
    });
  }

  it('Mapplic’s sample mall on three floors, its shops regions of their floors (1280 and 375 px)', { timeout: 180_000 }, async () => {
    // One import for both widths: the second is the same map on a phone.
    const owner = await registerUser(session.server);
    const context = await signedInContext(session.browser, session.server, owner, VIEWPORTS[0]);
    const page = await context.newPage();
    const shot = async (width: number, step: string) => animationsEnded(page).then(() => lookAt(page, `realworld-mapplic-mall-${width}-${step}`));
    const mapId = await startMapFromFiles(page, MALL, 'mall.json', TIMEOUT);

    // Every shop on its floor's drawing: "Ground floor" is also the name of the floor a new map
    // starts with, which takes the level's drawing and links its shops (issue 28), in the file's
    // floor order.
    const document = await documentOf(page, mapId);
    expect(document.layers.map((floor) => floor.name)).toEqual(['Basement', 'Ground floor', 'First Floor']);
    expect(document.locations).toHaveLength(22);
    expect(document.locations.filter((location) => location.element === location.id)).toHaveLength(22);
    const sears = document.locations.find((location) => location.title === 'Sears')!;
    const kfc = document.locations.find((location) => location.title === 'KFC')!;

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`/m/${mapId}`);
      await expect.poll(() => regionCentre(page, sears.id), { timeout: TIMEOUT }).not.toBeNull();
      await shot(viewport.width, '1-overview');
      await openRegion(page, sears.id, 'Sears');
      await shot(viewport.width, '2-sears');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Sears' }).waitFor({ state: 'detached' });
      // Upstairs, by the shop's link.
      await page.goto(`/m/${mapId}?location=${encodeURIComponent(kfc.id)}`);
      await page.getByRole('dialog', { name: 'KFC' }).waitFor({ timeout: TIMEOUT });
      await shot(viewport.width, '3-kfc-upstairs');
    }
    await context.close();
  });
});
