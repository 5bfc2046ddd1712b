/**
 * Numbers for the owner, end to end in Chromium (issue 19, part 4): a few visits to a
 * published map (signed out, each its own browser context: one opens a location and searches
 * for something the map has, one for something it lacks, one only looks, and one whose browser
 * sends Do Not Track), then the owner's Insights panel in the editor shows exactly those.
 *
 * A page's counters go out when it is hidden: the test hides it as a browser does (the
 * document's visibilityState to hidden, a visibilitychange) and waits for the beacon's request.
 * Publishing goes through hosting slots (another issue): the map is made public by setting
 * its state in the maps_list read model, as the viewer's e2e does.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { searchBoxHydrated } from './support/hydration.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';

const mapDocument = {
  version: 2,
  settings: { ...defaultSettings(), size: { width: 1000, height: 600 }, defaultLayer: 'ground' },
  layers: [{ id: 'ground', name: 'Ground floor', file: null }],
  groups: [{ id: 'food', name: 'Food & drink', color: '#ea580c', legend: true }],
  locations: [
    { id: 'cafe', title: 'Café Noir', layer: 'ground', groups: ['food'], marker: 'pin', position: { x: 300, y: 300 } },
    { id: 'sushi', title: 'Sakura Sushi', layer: 'ground', groups: ['food'], marker: 'pin', position: { x: 600, y: 300 } },
  ],
  styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
};

describe('insights in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  let mapId: string;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
    owner = await registerUser(server);
    const created = await call(server, 'createMap', { title: 'Harbour Market', mapData: mapDocument }, owner);
    expect(created.status).toBe(200);
    await projected(server, created.body.position);
    mapId = created.body.result as string;
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);
  }, 120_000);
  afterAll(() => session?.close());

  /** The count of one row of the read model for the map (all days), what this process counted included. */
  async function counted(kind: string, key: string): Promise<number> {
    await server.app.insights.flush();
    const { rows } = await server.database.db.query<{ n: string }>('SELECT coalesce(sum(count), 0)::text AS n FROM map_insights WHERE map_id = $1 AND kind = $2 AND key = $3', [mapId, kind, key]);
    return Number(rows[0]!.n);
  }

  /**
   * Hides the page as a browser does when the visitor leaves it (its beacon then goes out),
   * until the server has counted what `done` waits for (the search settles after a pause, the
   * beacon code arrives when the browser is idle: the state is waited for, not a time).
   */
  async function hideUntil(page: Page, done: () => Promise<boolean>): Promise<void> {
    while (!(await done())) {
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
        Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
      });
      await page.waitForTimeout(100);
    }
  }

  async function visit({ dnt = false } = {}) {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    // Chromium's Do Not Track is a setting of its profile; the page reads it as navigator.doNotTrack.
    if (dnt) await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'doNotTrack', { configurable: true, get: () => '1' }));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`/m/${mapId}`);
    await page.getByRole('heading', { level: 1, name: 'Harbour Market' }).waitFor();
    // The page is server-rendered: the heading is there before React. Typing into the search box
    // before hydration is never seen by the viewer (what hung this test on a loaded CI machine).
    await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
    return { context, page, errors };
  }

  it('counts a few visits, and the owner sees them in the Insights panel', async () => {
    // 1: opens Café Noir from the directory, searches for sushi (found).
    const first = await visit();
    // The directory hydrates after the map, from its own chunk: a click on the server's button before that opens nothing (CI once).
    await first.page.waitForFunction(searchBoxHydrated);
    await first.page.getByRole('list', { name: 'Locations', exact: true }).getByRole('button', { name: /Café Noir/ }).click();
    await first.page.getByRole('dialog', { name: 'Café Noir' }).waitFor();
    await first.page.keyboard.press('Escape');
    await first.page.getByRole('searchbox', { name: 'Search locations' }).fill('  Sushi ');
    // Kept trimmed and lower-cased.
    await hideUntil(first.page, async () => (await counted('search', 'sushi')) >= 1);
    expect(await counted('search', 'sushi')).toBe(1);
    expect(first.errors).toEqual([]);
    await first.context.close();

    // 2: searches for what the map lacks.
    const second = await visit();
    await second.page.getByRole('searchbox', { name: 'Search locations' }).fill('Toilets');
    await hideUntil(second.page, async () => (await counted('search_miss', 'toilets')) >= 1);
    expect(await counted('search_miss', 'toilets')).toBe(1);
    await second.context.close();

    // 3: only looks.
    const third = await visit();
    await hideUntil(third.page, async () => (await counted('view', '')) >= 3);
    expect(await counted('view', '')).toBe(3);
    await third.context.close();

    // 4: Do Not Track: nothing is sent (the beacon code, loaded in idle time, checks first).
    const private_ = await visit({ dnt: true });
    const insightRequests: string[] = [];
    private_.page.on('request', (request) => {
      if (request.url().endsWith('/insights')) insightRequests.push(request.url());
    });
    await private_.page.getByRole('searchbox', { name: 'Search locations' }).fill('secret');
    await private_.page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('insights-beacon')));
    await private_.page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await private_.context.close();
    expect(insightRequests).toEqual([]);
    expect(await counted('search', 'secret')).toBe(0);

    // The owner's Insights panel.
    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    await page.goto(`/maps/${mapId}`);
    await page.getByRole('tab', { name: 'Insights' }).click();
    const panel = page.getByRole('tabpanel');
    const totals = panel.locator('.ep-insights__totals');
    await expect.poll(() => totals.textContent()).toContain('Views3');
    expect(await totals.textContent()).toContain('Searches2');
    expect(await totals.textContent()).toContain('Locations opened1');
    const items = (name: string) => panel.getByRole('list', { name, exact: true }).getByRole('listitem').allTextContents();
    expect(await items('Top locations')).toEqual(['Café Noir1 opens']);
    expect((await items('Top searches')).sort()).toEqual(['“sushi”1 searches', '“toilets”1 searches']);
    expect(await items('Searches that found nothing')).toEqual(['“toilets”1 searches']);
    // The chart is drawn (a canvas), and its numbers are in a table for screen readers.
    await panel.locator('.ep-insights__chart canvas').first().waitFor();
    const today = new Date().toISOString().slice(0, 10);
    const label = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${today}T00:00:00Z`));
    const table = panel.getByRole('table', { name: /Views per day/ });
    expect(await table.getByRole('row', { name: new RegExp(`^${label} 3$`) }).count()).toBe(1);
    // The CSV, downloaded as the owner (a button: the file is fetched with the app's authentication, then saved).
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain(`${today},views,,,3`);
    expect(csv).toContain(`${today},search without results,toilets,,1`);
    await context.close();
  }, 120_000);
});
