/**
 * SVG regions in the editor, in Chromium against the built client: an amCharts map (width
 * 100%, no viewBox) uploaded on the Floors panel is measured and drawn, its regions are offered
 * in a dialog by themselves beside the map, and confirming makes a location of each, linked to
 * its region (as the server then has it). At a phone's width the dialog is used with the keyboard alone.
 * Screenshots of the dialog at 1280 and 375 wide go to $SCREENSHOTS (when set) to look at.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapDocument } from '../../events/map-document.js';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { call, registerUser, type TestServer, type TestUser } from '../support/test-server.js';
import { lookAt } from './support/look-at.js';

const TIMEOUT = 30_000;
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import/svg');

describe('SVG regions in the editor', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
  }, 120_000);
  afterAll(() => session?.close());

  async function newMap(owner: TestUser, title: string): Promise<string> {
    const answer = await call(server, 'createMap', { title }, owner);
    expect(answer.status).toBe(200);
    return answer.body.result as string;
  }
  async function documentOf(page: Page, mapId: string): Promise<MapDocument> {
    return ((await (await page.request.get(`/api/maps/${mapId}/data`)).json()) as { result: { data: MapDocument } }).result.data;
  }
  async function openFloors(page: Page, mapId: string) {
    await page.goto(`/maps/${mapId}`);
    await page.getByRole('tab', { name: 'Floors' }).click();
    await page.getByRole('list', { name: 'Floors' }).waitFor({ timeout: TIMEOUT });
  }

  it('offers the regions of an uploaded amCharts map and makes them locations', { timeout: 120_000 }, async () => {
    const owner = await registerUser(server);
    const mapId = await newMap(owner, 'States');
    const context = await signedInContext(browser, server, owner, { width: 1280, height: 800 });
    const page = await context.newPage();
    await openFloors(page, mapId);

    await page.getByLabel('Drawing file for Ground floor').setInputFiles(path.join(FIXTURES, 'amcharts-usa-low-cut.svg'));
    const dialog = page.getByRole('dialog', { name: 'Make locations from the regions of Ground floor' });
    await dialog.waitFor({ timeout: TIMEOUT });
    await expect.poll(() => dialog.getByRole('checkbox').count()).toBe(8);
    await expect.poll(() => dialog.getByRole('status').textContent()).toContain('8 regions of 8 ticked');
    await dialog.getByRole('checkbox', { name: /California/ }).uncheck();
    await lookAt(page, 'svg-regions-dialog-1280x800');

    await dialog.getByRole('button', { name: 'Make 7 locations' }).click();
    await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });
    await page.getByText(/7 locations made from the regions of Ground floor/).waitFor({ timeout: TIMEOUT });

    // Made as one edit of the editor, saved as edits are.
    await expect.poll(async () => (await documentOf(page, mapId)).locations.length, { timeout: TIMEOUT }).toBe(7);
    const map = await documentOf(page, mapId);
    const ground = map.layers[0]!;
    // Measured by what it draws: the box of the 8 states.
    expect(ground.file).toMatchObject({ kind: 'svg' });
    expect(ground.file!.width).toBeCloseTo(1038.24 - 144.55, 1);
    expect(map.locations.map((location) => [location.title, location.element]).sort()).toEqual(
      [['Alabama', 'US-AL'], ['Arizona', 'US-AZ'], ['Arkansas', 'US-AR'], ['Colorado', 'US-CO'], ['Connecticut', 'US-CT'], ['Delaware', 'US-DE'], ['Washington, DC', 'US-DC']].sort(),
    );
    // The regions are drawn and linked on the canvas (inside the drawing's shadow root).
    const linked = () =>
      page.evaluate(() => {
        const hosts = [...document.querySelectorAll('*')].filter((element) => element.shadowRoot);
        return hosts.reduce((sum, host) => sum + host.shadowRoot!.querySelectorAll('[data-mf-loc]').length, 0);
      });
    await expect.poll(linked, { timeout: TIMEOUT }).toBe(7);
    await lookAt(page, 'svg-regions-after-1280x800');

    // On demand later: California is still offered, the others are locations already.
    await page.getByRole('button', { name: 'Make locations from the regions of Ground floor' }).click();
    await dialog.waitFor({ timeout: TIMEOUT });
    await expect.poll(() => dialog.getByRole('status').textContent()).toContain('1 region of 1 ticked · 7 are locations already');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });
    await context.close();
  });

  it('is used with the keyboard at a phone’s width', { timeout: 120_000 }, async () => {
    const owner = await registerUser(server);
    const mapId = await newMap(owner, 'Blank US');
    const context = await signedInContext(browser, server, owner, { width: 375, height: 812 });
    const page = await context.newPage();
    await openFloors(page, mapId);
    await page.getByLabel('Drawing file for Ground floor').setInputFiles(path.join(FIXTURES, 'blank-us-map-two-letter-cut.svg'));
    // What the sanitiser took out is said on the floor.
    await page.getByText('1 script was removed: a drawing on a map cannot run code.').waitFor({ timeout: TIMEOUT });
    const dialog = page.getByRole('dialog', { name: 'Make locations from the regions of Ground floor' });
    await dialog.waitFor({ timeout: TIMEOUT });
    await expect.poll(() => dialog.getByRole('checkbox').count()).toBe(5);
    // The filter has the focus: type, Tab to "Clear shown", Enter.
    await page.keyboard.type('new');
    await expect.poll(() => dialog.getByRole('checkbox').count()).toBe(1);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Clear shown');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByRole('status').textContent()).toContain('4 regions of 5 ticked');
    // Back to the filter, and empty it.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('search');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await expect.poll(() => dialog.getByRole('checkbox').count()).toBe(5);
    await lookAt(page, 'svg-regions-dialog-375x812');
    const make = dialog.getByRole('button', { name: 'Make 4 locations' });
    const box = (await make.boundingBox())!;
    // The action is on the screen, inside the phone's width.
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(box.y + box.height).toBeLessThanOrEqual(812);
    await make.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });
    await expect.poll(async () => (await documentOf(page, mapId)).locations.length, { timeout: TIMEOUT }).toBe(4);
    const map = await documentOf(page, mapId);
    expect(map.locations.map((location) => location.title).sort()).toEqual(['Delaware', 'Hawaii', 'Rhode Island', 'Vermont']);
    await context.close();
  });
});
