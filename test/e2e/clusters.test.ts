/**
 * Many points in Chromium (issue 19 part 2): the 25,000-store chain (the real fixture,
 * test/support/store-chain-map.ts) published, then
 *  - the viewer shows it as clusters with counts that add up to every store, each a button
 *    with a name ("1,234 locations, zoom in");
 *  - a click on a cluster's badge on the canvas zooms in and splits it; Enter on a cluster's
 *    button does too, and the focus follows into it;
 *  - search finds one store among the 25,000 and opens it, its address naming it;
 *  - the editor opens the same map, clustered.
 * Screenshots at 1280 and 375 with SCREENSHOTS=dir.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { KNOWN_STORES, STORE_CHAIN_ROWS } from '../support/store-chain.js';
import { storeChainFixtureDocument } from '../support/store-chain-map.js';
import { call, projected, registerUser, type TestUser } from '../support/test-server.js';

const SHOTS = process.env.SCREENSHOTS ?? '';
const TIMEOUT = 60_000;

interface ClusterButton {
  id: string;
  count: number;
  label: string;
  x: number;
  y: number;
}

/** The clusters' buttons on screen, with where their badges are drawn (page coordinates). */
function clusterButtons(page: Page): Promise<ClusterButton[]> {
  return page.evaluate(() => {
    const viewport = document.querySelector('.mf-viewport')!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLElement>('button[data-cluster]')].map((button) => {
      const [sx, sy] = (button.dataset.screen ?? '0,0').split(',').map(Number);
      return { id: button.dataset.cluster!, count: Number(button.dataset.count), label: button.getAttribute('aria-label') ?? '', x: viewport.left + sx!, y: viewport.top + sy! };
    });
  });
}

const loneButtons = (page: Page) => page.locator('.mf-a11y button[data-location]').count();

describe('a 25,000-store map, clustered, in Chromium', () => {
  const session = useBrowserSession({ env: { BODY_LIMIT: String(32 * 1024 * 1024) } });
  let owner: TestUser;
  let mapId: string;

  beforeAll(async () => {
    owner = await registerUser(session.server);
    const created = await call(session.server, 'createMap', { title: 'Northwind stores', mapData: await storeChainFixtureDocument() }, owner);
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(200);
    await projected(session.server, created.body.position);
    mapId = created.body.result as string;
    // Publishing goes through hosting slots (tested elsewhere): public in the read model.
    await session.server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  const shoot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };

  it('shows clusters with counts, splits one when clicked or opened by keyboard, and finds one store by search', { timeout: 240_000 }, async () => {
    for (const width of [1280, 375]) {
      const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width, height: width < 500 ? 812 : 800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // Given the published map opened in the viewer
      await page.goto(`/m/${mapId}`);
      await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: TIMEOUT });
      await page.locator('button[data-cluster]').first().waitFor({ state: 'attached', timeout: TIMEOUT });
      await shoot(page, `clusters-${width}`);

      // Then the whole chain is on screen as clusters, their counts and the lone stores adding up to every store
      const clusters = await clusterButtons(page);
      expect(clusters.length).toBeGreaterThan(3);
      expect(clusters.reduce((sum, cluster) => sum + cluster.count, 0) + (await loneButtons(page))).toBe(STORE_CHAIN_ROWS);
      for (const cluster of clusters) expect(cluster.label).toBe(`${cluster.count.toLocaleString('en')} locations, zoom in`);

      // When the largest cluster's badge is clicked on the map
      const largest = clusters.reduce((a, b) => (b.count > a.count ? b : a));
      await page.mouse.click(largest.x, largest.y);
      // Then the map zooms in and the cluster is split into smaller ones and stores
      await page.waitForFunction((id) => document.querySelector(`button[data-cluster="${id}"]`) === null && document.querySelectorAll('.mf-a11y button').length > 1, largest.id, { timeout: TIMEOUT });
      const after = await clusterButtons(page);
      expect(after.every((cluster) => cluster.count < largest.count)).toBe(true);
      await shoot(page, `clusters-split-${width}`);

      // And a cluster opened by keyboard zooms in too, the focus moving into it
      const next = (await clusterButtons(page))[0];
      if (next) {
        await page.locator(`button[data-cluster="${next.id}"]`).focus();
        await page.keyboard.press('Enter');
        await page.waitForFunction((id) => document.querySelector(`button[data-cluster="${id}"]`) === null, next.id, { timeout: TIMEOUT });
        await page.waitForFunction(() => document.activeElement?.matches('.mf-a11y button') ?? false, undefined, { timeout: TIMEOUT });
      }

      if (width > 500) {
        // When one store is searched for among the 25,000 and opened from the list
        const store = KNOWN_STORES.find((candidate) => candidate.id === 'S03736')!;
        await page.getByRole('searchbox', { name: 'Search locations' }).fill('reykjav');
        await expect.poll(() => page.locator('.mf-directory__count').textContent(), { timeout: TIMEOUT }).toMatch(/^1 of /);
        await page.locator('.mf-item', { hasText: `Northwind ${store.name}` }).click();
        // Then its details open and the address names it
        await expect.poll(() => page.locator('.mf-popup').textContent(), { timeout: TIMEOUT }).toContain(`Northwind ${store.name}`);
        expect(new URL(page.url()).searchParams.get('location')).toBe(store.id);
        await shoot(page, `clusters-search-${width}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('opens in the editor, clustered too', { timeout: 180_000 }, async () => {
    const context = await signedInContext(session.browser, session.server, owner);
    const page = await context.newPage();
    await page.goto(`/maps/${mapId}`);
    await page.locator('.mf-a11y button[data-cluster]').first().waitFor({ state: 'attached', timeout: 120_000 });
    const clusters = await clusterButtons(page);
    expect(clusters.reduce((sum, cluster) => sum + cluster.count, 0) + (await loneButtons(page))).toBeGreaterThan(1000);
    await shoot(page, 'clusters-editor-1280');
    await context.close();
  });
});
