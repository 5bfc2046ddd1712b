/**
 * Importing a table through the editor's Data panel in Chromium, against the real endpoint
 * (POST /api/maps/{id}/import): a store list with its own column names is picked, its upload and
 * preview shown, one column of the guessed mapping changed (the preview follows), applied; the
 * locations appear in the Locations panel, and Undo takes the whole import back. And /maps/new's
 * "Import a file": a blank map, the same preview, then the editor with the locations in it; and
 * its "Street map" (issue 29 item 5): a floor on the street basemap, fitted to the Texas stores
 * of the real Starbucks directory excerpt imported into it, shown by MapLibre in the editor.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { projectToFloor } from '../../events/geo-calibration.js';
import type { MapDocument } from '../../events/map-document.js';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { registerUser } from '../support/test-server.js';
import { until } from '../support/until.js';

const TIMEOUT = 20_000;

/** Shops with their own column names: the guess takes "Name" for the title; the user wants the branch's name. */
const SHOPS = [
  'Name,Branch name,Latitude,Longitude,Category,Telephone',
  'Harbour Books,Harbour Books Soho,51.5136,-0.1365,Books,020 7946 0001',
  'Harbour Books,Harbour Books Camden,51.5390,-0.1426,Books,020 7946 0002',
  'Pier Café,Pier Café Greenwich,51.4826,-0.0077,Food,020 7946 0003',
  'Pier Café,Pier Café Richmond,51.4613,-0.3037,Food,020 7946 0004',
].join('\r\n');

async function listedTitles(page: Page): Promise<string[]> {
  await page.getByRole('tab', { name: 'Locations' }).click();
  const all = page.getByRole('radio', { name: 'All floors' });
  if (await all.count()) await all.check();
  const list = page.getByRole('list', { name: 'Locations' });
  if (!(await list.count())) return [];
  return (await list.locator('.ep-loc-item__title').allTextContents()).sort();
}

describe('importing a file in Chromium', () => {
  const session = useBrowserSession();

  it('imports a store list through the Data panel with one column changed, and undoes it', { timeout: 120_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    await page.goto('/maps/new');
    await page.getByLabel('Title').fill('Shops');
    await page.getByRole('button', { name: 'Create map' }).click();
    await page.waitForURL((url) => /^\/maps\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.pathname !== '/maps/new', { timeout: TIMEOUT });

    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByLabel('Choose files').setInputFiles({ name: 'shops.csv', mimeType: 'text/csv', buffer: Buffer.from(SHOPS) });
    const preview = page.getByRole('region', { name: 'shops.csv' });
    await preview.waitFor({ timeout: TIMEOUT });
    await expect.poll(() => preview.textContent()).toContain('Read as a table of locations (CSV).');
    // The server's guess, preselected.
    const name = preview.getByRole('combobox', { name: 'Name' });
    expect(await name.inputValue()).toBe('Name');
    expect(await preview.getByRole('combobox', { name: 'Latitude' }).inputValue()).toBe('Latitude');
    expect(await preview.getByRole('combobox', { name: 'Longitude' }).inputValue()).toBe('Longitude');
    await expect.poll(() => preview.getByRole('table').textContent()).toContain('Harbour Books');

    // One column changed: the preview is read again with it.
    await name.selectOption('Branch name');
    await expect.poll(() => preview.getByRole('table').textContent(), { timeout: TIMEOUT }).toContain('Harbour Books Soho');
    expect(await preview.getAttribute('aria-busy')).toBeNull();

    await preview.getByRole('button', { name: 'Import 4 locations' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 4 locations from shops.csv.' }).waitFor({ timeout: TIMEOUT });
    await expect.poll(() => page.getByRole('region', { name: 'shops.csv' }).count()).toBe(0);

    await expect.poll(() => listedTitles(page), { timeout: TIMEOUT }).toEqual(['Harbour Books Camden', 'Harbour Books Soho', 'Pier Café Greenwich', 'Pier Café Richmond']);

    // The import is one undo step of this editor's, though the server recorded it.
    const undo = page.getByRole('button', { name: 'Undo' });
    await expect.poll(() => undo.isEnabled(), { timeout: TIMEOUT }).toBe(true);
    await undo.click();
    await expect.poll(() => listedTitles(page), { timeout: TIMEOUT }).toEqual([]);
    await page.getByText('All changes saved').waitFor({ timeout: TIMEOUT });
    // Saved: a reload shows the map without them.
    await page.reload();
    await expect.poll(() => listedTitles(page), { timeout: TIMEOUT }).toEqual([]);
    await context.close();
  });

  it('says in the server’s words why a file is refused, where the user is looking', { timeout: 60_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    await page.goto('/maps/new');
    await page.getByLabel('Title').fill('Refusals');
    await page.getByRole('button', { name: 'Create map' }).click();
    await page.waitForURL((url) => /^\/maps\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.pathname !== '/maps/new', { timeout: TIMEOUT });
    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByLabel('Choose files').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') });
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: TIMEOUT });
    const text = (await alert.textContent()) ?? '';
    expect(text).toMatch(/^notes\.json: /);
    expect(text).toContain('Nothing was changed.');
    await expect.poll(() => alert.evaluate((element) => element === document.activeElement)).toBe(true);
    await context.close();
  });

  it('starts a map from a file on /maps/new', { timeout: 90_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const context = await signedInContext(browser, server, owner, { width: 375, height: 812 });
    const page = await context.newPage();
    await page.goto('/maps/new');
    await page.getByRole('radio', { name: /Import a file/ }).check();
    await page.getByLabel('Choose files').setInputFiles({ name: 'london-shops.csv', mimeType: 'text/csv', buffer: Buffer.from(SHOPS) });
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('London shops');
    await page.getByRole('button', { name: 'Create map' }).click();
    const preview = page.getByRole('region', { name: 'london-shops.csv' });
    await preview.waitFor({ timeout: TIMEOUT });
    await preview.getByRole('button', { name: 'Import 4 locations' }).click();
    await page.waitForURL((url) => /^\/maps\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.pathname !== '/maps/new', { timeout: TIMEOUT });
    await expect.poll(() => page.getByRole('textbox', { name: 'Map title' }).inputValue(), { timeout: TIMEOUT }).toBe('London shops');
    await expect.poll(() => listedTitles(page), { timeout: TIMEOUT }).toEqual(['Harbour Books', 'Harbour Books', 'Pier Café', 'Pier Café']);
    await context.close();
  });

  it('starts a street map on /maps/new and fits it to the Texas stores imported into it', { timeout: 120_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    await page.goto('/maps/new');
    await page.getByRole('radio', { name: /Street map/ }).check();
    await page.getByLabel('Title').fill('Texas coffee');
    await page.getByRole('button', { name: 'Create map' }).click();
    await page.waitForURL((url) => /^\/maps\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.pathname !== '/maps/new', { timeout: TIMEOUT });
    const mapId = new URL(page.url()).pathname.split('/').pop()!;
    // MapLibre draws the floor in the editor.
    await page.locator('.maplibregl-canvas').waitFor({ timeout: TIMEOUT });

    const lines = readFileSync('test/fixtures/import/csv/starbucks-directory-excerpt.csv', 'utf8').trim().split(/\r?\n/);
    const texas = [lines[0]!, ...lines.slice(1).filter((line) => /,TX,US,/.test(line))];
    expect(texas.length - 1).toBe(102);
    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByLabel('Choose files').setInputFiles({ name: 'texas.csv', mimeType: 'text/csv', buffer: Buffer.from(texas.join('\r\n')) });
    const preview = page.getByRole('region', { name: 'texas.csv' });
    await preview.getByRole('button', { name: 'Import 102 locations' }).click({ timeout: TIMEOUT });
    await page.getByRole('status').filter({ hasText: 'Imported 102 locations from texas.csv.' }).waitFor({ timeout: TIMEOUT });

    // Still the one floor, on the basemap, now around Texas, every store on it.
    // The status comes with the command's answer; the map's read model follows a moment later.
    const readDocument = async () => ((await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as { result: { data: MapDocument } }).result.data;
    const document = await until(readDocument, (read) => read.locations.length > 0, 'the imported stores in the map');
    expect(document.layers).toEqual([expect.objectContaining({ id: 'map', basemap: true, file: null })]);
    const geo = document.layers[0]!.geo as { north: number; south: number; west: number; east: number };
    expect(geo.north).toBeLessThan(40);
    expect(geo.south).toBeGreaterThan(20);
    expect(document.locations).toHaveLength(102);
    const { width, height } = document.settings.size;
    for (const location of document.locations) {
      expect(location.layer).toBe('map');
      expect(location.position!.x).toBeGreaterThan(0);
      expect(location.position!.x).toBeLessThan(width);
      expect(location.position!.y).toBeGreaterThan(0);
      expect(location.position!.y).toBeLessThan(height);
    }
    const [lng, lat] = texas[1]!.split(',').slice(-2).map(Number) as [number, number];
    expect(document.locations.some((l) => Math.hypot(l.position!.x - projectToFloor(geo as never, { width, height }, { lat, lng })!.x, l.position!.y - projectToFloor(geo as never, { width, height }, { lat, lng })!.y) < 0.5)).toBe(true);
    expect(await page.locator('.maplibregl-canvas').isVisible()).toBe(true);

    // Placing a location on the basemap, then dragging its pin: both go to the floor's units.
    const canvas = page.locator('.maplibregl-canvas');
    const box = (await canvas.boundingBox())!;
    // Away from the stores (south-west of them): a click there is on no marker.
    const at = { x: box.x + box.width * 0.25, y: box.y + box.height * 0.8 };
    await page.getByRole('button', { name: 'Add location' }).click();
    await page.mouse.click(at.x, at.y);
    const placed = async () => {
      const read = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } });
      return ((await read.json()) as { result: { data: MapDocument } }).result.data.locations.find((l) => l.title === 'New location')?.position ?? null;
    };
    await expect.poll(placed, { timeout: TIMEOUT }).not.toBeNull();
    const first = (await placed())!;
    await page.keyboard.press('Escape');
    // The pin is there to grab once the pointer over it turns to a hand, as a person sees it: the
    // read model may have the location before MapLibre has drawn it on a busy machine (CI once
    // pressed on the bare map, which panned it and left the location where it was).
    const grab = { x: at.x, y: at.y - 12 };
    let nudge = 0;
    await expect
      .poll(async () => {
        // A move each time: the map looks at what is under the pointer as it moves.
        await page.mouse.move(grab.x + (nudge++ % 2), grab.y);
        return canvas.evaluate((element) => (element as HTMLElement).style.cursor);
      }, { timeout: TIMEOUT })
      .toBe('pointer');
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 40, at.y - 12, { steps: 4 });
    await page.mouse.move(at.x + 80, at.y - 12, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await placed())!.x, { timeout: TIMEOUT }).toBeGreaterThan(first.x + 1);
    expect(Math.abs((await placed())!.y - first.y)).toBeLessThan(Math.abs((await placed())!.x - first.x) / 4);
    await context.close();
  });
});
