/**
 * Nothing "Hidden from visitors" in what a visitor takes away (issue 27, item 2), in Chromium:
 * on a published map's page, signed out, the share menu's SVG picture (this view and the whole
 * floor, the hidden location's deep link tried too) holds nothing of the hidden location, nor
 * does the page the picture is made from (its markup and its data block, after hydration).
 * The picture is made in the browser from the page's data: the page is searched with it, since
 * the data is what a visitor could take the hidden text from.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser.js';
import { documentWithHiddenLocation, expectNothingHidden, HIDDEN_ID } from '../support/hidden-location-map.js';
import { call, projected, registerUser } from '../support/test-server.js';
import { until } from '../support/until.js';

const TIMEOUT = 30_000;

async function downloadedText(page: Page, button: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), page.getByRole('button', { name: button, exact: true }).click()]);
  return readFileSync(await download.path()).toString('utf8');
}

describe('a visitor’s picture of a map with a hidden location', () => {
  const session = useBrowserSession();
  let mapId: string;

  beforeAll(async () => {
    const { server } = session;
    const owner = await registerUser(server);
    const admin = await registerUser(server, 'admin@example.com');
    const made = await call(server, 'createMap', { title: 'Corner Shop', mapData: documentWithHiddenLocation() }, owner);
    expect(made.status).toBe(200);
    await projected(server, made.body.position);
    mapId = made.body.result as string;
    // Published through the log, as an admin may (a slot's publishing is another test's).
    const published = await call(server, 'adminUpdateMap', { id: mapId, state: 1 }, admin);
    expect(published.status).toBe(200);
    await projected(server, published.body.position);
    await until(() => fetch(`${server.url}/api/public/maps/${mapId}`), (response) => response.status === 200, 'published');
  }, 120_000);

  it('saves an SVG of the view and of the whole floor with nothing of it, and the page holds none either', { timeout: 120_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    for (const query of ['', `?location=${HIDDEN_ID}`]) {
      await page.goto(`/m/${mapId}${query}`);
      await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: TIMEOUT });
      // The page is the map's: the shown location is listed.
      await page.getByText('Café Noir').first().waitFor({ timeout: TIMEOUT });
      expectNothingHidden(await page.content(), `the page ${query}`);

      await page.getByRole('button', { name: 'Share' }).first().click();
      const menu = page.getByRole('dialog', { name: 'Share this map' });
      await menu.getByRole('button', { name: 'SVG', exact: true }).waitFor();
      const view = await downloadedText(page, 'SVG');
      // A real picture of the map: the shown location's marker is in it.
      expect(view).toContain('data-location="cafe"');
      expectNothingHidden(view, `the picture of the view ${query}`);
      await menu.getByRole('radio', { name: 'Whole floor' }).check();
      expectNothingHidden(await downloadedText(page, 'SVG'), `the picture of the floor ${query}`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
