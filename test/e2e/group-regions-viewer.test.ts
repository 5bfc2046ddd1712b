/**
 * Regions drawn as several shapes light whole on the map's page (/m/{id}), in Chromium against
 * the built client (issue 28):
 * - Barrio Cecotto's Mapplic plan (test/fixtures/realworld/mapplic/barrio-cecotto), whose lots
 *   are groups of three polygons (a lot's top and two sides): hovering one face lights all three,
 *   a click opens the lot and marks all three;
 * - a drawing where a region is a group of two shapes and its label, and another a `<use>` of a
 *   shape in `<defs>` with a fill of its own: the group's shapes light and its label stays
 *   readable; the `<use>` lights too (client/src/components/map/svg-layer.ts draws it in place).
 * Screenshots go to $SCREENSHOTS (when set) as group-regions-*.png, to look at.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { registerUser } from '../support/test-server.js';
import { animationsEnded } from './support/animations.js';
import { documentOf, startMapFromFiles } from './support/import-files.js';
import { lookAt } from './support/look-at.js';

const TIMEOUT = 60_000;
const CECOTTO = ['barrioCecotto.json', 'mapa-cecotto-all.svg'].map((name) => path.resolve(import.meta.dirname, '../fixtures/realworld/mapplic/barrio-cecotto', name));
const SHOPS = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 400 200" width="400" height="200">
  <defs><path id="kiosk-shape" fill="#d9d2c5" d="M0 0h80v60H0z"/></defs>
  <g id="plan">
    <rect x="0" y="0" width="400" height="200" fill="#f4f1ea"/>
    <g id="bakery"><rect x="20" y="20" width="160" height="70" fill="#c9d6c3" stroke="#555"/><rect x="20" y="90" width="70" height="60" fill="#c9d6c3" stroke="#555"/><text x="60" y="60" fill="#1a1a1a" font-size="16">Bakery</text></g>
    <use id="kiosk" href="#kiosk-shape" x="260" y="40"/>
  </g>
</svg>`;

/** The fill each shape of a location's region is painted with, each text's, and where its last shape (a lot's top face) is; null while it is not drawn. */
async function paint(page: Page, locationId: string): Promise<{ shapes: string[]; texts: string[]; centre: { x: number; y: number }; corner: { x: number; y: number } } | null> {
  return page.locator('.mf-base').first().evaluate((host, id) => {
    const region = host.shadowRoot?.querySelector(`[data-mf-loc="${CSS.escape(id)}"]`);
    if (!region) return null;
    const shapes = region.matches('use, path, rect, polygon') ? [region] : [...region.querySelectorAll('path, rect, polygon, use')];
    const rect = shapes.at(-1)!.getBoundingClientRect();
    return {
      shapes: shapes.map((shape) => getComputedStyle(shape).fill),
      texts: [...region.querySelectorAll('text')].map((text) => getComputedStyle(text).fill),
      centre: { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 },
      // Near its top left corner: clear of a name written in its middle.
      corner: { x: rect.left + rect.width * 0.1, y: rect.top + rect.height * 0.1 },
    };
  }, locationId);
}

/** Whether the region has stopped moving (the camera's zoom has ended) and is larger than at first. */
async function steadyCentre(page: Page, locationId: string): Promise<boolean> {
  const size = () => page.locator('.mf-base').first().evaluate((host, id) => {
    const box = host.shadowRoot!.querySelector(`[data-mf-loc="${CSS.escape(id)}"]`)!.getBoundingClientRect();
    return `${Math.round(box.left)},${Math.round(box.top)},${Math.round(box.width)}`;
  }, locationId);
  const first = await size();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return first === (await size()) && Number(first.split(',')[2]) > 60;
}

describe('regions of several shapes light whole', () => {
  const session = useBrowserSession();
  beforeAll(async () => {
  });

  it('a Mapplic lot of three polygons: hover lights all three, a click marks all three', { timeout: 180_000 }, async () => {
    const owner = await registerUser(session.server);
    const context = await signedInContext(session.browser, session.server, owner, { width: 1280, height: 800 });
    const page = await context.newPage();
    const mapId = await startMapFromFiles(page, CECOTTO, 'barrioCecotto.json', TIMEOUT);
    const lot = (await documentOf(page, mapId)).locations.find((location) => location.element === 'm4p14')!;
    expect(lot.title).toBe('Manzana 4, Parcela 14');

    await page.goto(`/m/${mapId}`);
    await expect.poll(() => paint(page, lot.id), { timeout: TIMEOUT }).not.toBeNull();
    await animationsEnded(page);
    // Every lot has its marker too, which the whole plan shows overlapping: zoomed in on the lot, its top face is clear of its neighbours'.
    const far = (await paint(page, lot.id))!;
    await page.mouse.move(far.centre.x, far.centre.y);
    await page.mouse.wheel(0, -1500);
    await expect.poll(async () => steadyCentre(page, lot.id), { timeout: TIMEOUT }).toBe(true);
    await page.mouse.move(5, 400);
    await animationsEnded(page);
    const still = (await paint(page, lot.id))!;
    expect(new Set(still.shapes).size).toBe(1);

    await page.mouse.move(still.centre.x, still.centre.y);
    await expect.poll(async () => (await paint(page, lot.id))!.shapes.every((fill) => fill !== still.shapes[0]), { timeout: TIMEOUT }).toBe(true);
    const hovered = (await paint(page, lot.id))!;
    expect(new Set(hovered.shapes).size, `all three faces lit alike: ${hovered.shapes.join(', ')}`).toBe(1);
    await lookAt(page, 'group-regions-cecotto-hover');

    await page.mouse.click(still.centre.x, still.centre.y);
    await page.getByRole('dialog', { name: lot.title }).waitFor({ timeout: TIMEOUT });
    await page.mouse.move(5, 400);
    await expect.poll(async () => new Set((await paint(page, lot.id))!.shapes).size, { timeout: TIMEOUT }).toBe(1);
    await expect.poll(async () => (await paint(page, lot.id))!.shapes[0], { timeout: TIMEOUT }).not.toBe(still.shapes[0]);
    await animationsEnded(page);
    await lookAt(page, 'group-regions-cecotto-open');
    await context.close();
  });

  it('a group with its label lights its shapes and keeps the label readable; a <use> lights too', { timeout: 180_000 }, async () => {
    const owner = await registerUser(session.server);
    const context = await signedInContext(session.browser, session.server, owner, { width: 1280, height: 800 });
    const page = await context.newPage();
    const mapId = await startMapFromFiles(page, [{ name: 'shops.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SHOPS) }], 'shops.svg', TIMEOUT);
    const locations = (await documentOf(page, mapId)).locations;
    const bakery = locations.find((location) => location.element === 'bakery')!;
    const kiosk = locations.find((location) => location.element === 'kiosk')!;
    expect([bakery.title, kiosk.title]).toEqual(['Bakery', 'Kiosk']);

    await page.goto(`/m/${mapId}`);
    await expect.poll(() => paint(page, bakery.id), { timeout: TIMEOUT }).not.toBeNull();
    await animationsEnded(page);
    const still = (await paint(page, bakery.id))!;
    // The label is painted as the drawing paints it, not in the region's colour.
    expect(still.texts).toEqual(['rgb(26, 26, 26)']);
    await page.mouse.move(still.centre.x, still.centre.y);
    await expect.poll(async () => (await paint(page, bakery.id))!.shapes.every((fill) => fill !== still.shapes[0]), { timeout: TIMEOUT }).toBe(true);
    expect((await paint(page, bakery.id))!.texts).toEqual(['rgb(26, 26, 26)']);
    await lookAt(page, 'group-regions-shops-hover');

    // The <use>, drawn in place as a group of what it shows: its shape lights under the pointer, though it has a fill of its own.
    await page.mouse.move(5, 400);
    const kioskStill = (await paint(page, kiosk.id))!;
    expect(kioskStill.shapes).toHaveLength(1);
    await page.mouse.move(kioskStill.corner.x, kioskStill.corner.y);
    await expect.poll(async () => (await paint(page, kiosk.id))!.shapes[0], { timeout: TIMEOUT }).not.toBe(kioskStill.shapes[0]);
    await animationsEnded(page);
    await lookAt(page, 'group-regions-shops-use-hover');
    await context.close();
  });
});
