/**
 * Screenshots of a 25,000-store map, clustered, in the viewer and the editor at 1280 and 375
 * wide (needs `npx vite build && npx vite build --ssr`): the opening view, a cluster clicked
 * open, a store found by search. Into /work/wt/_shots/cluster/ (or SHOTS_DIR).
 *   npx tsx bench/cluster-screenshots.ts
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pgliteTarget } from '../test/support/databases.js';
import { call, projected, registerUser, startTestServer } from '../test/support/test-server.js';
import { launchChromium } from './browser-profiles.js';
import { storeChainDocument } from '../test/support/store-chain-map.js';

const DIR = process.env.SHOTS_DIR ?? '/work/wt/_shots/cluster';
const COUNT = Number(process.env.STORES ?? 25_000);
mkdirSync(DIR, { recursive: true });

const server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(32 * 1024 * 1024), LOG_LEVEL: 'silent' } });
const browser = await launchChromium();
try {
  const user = await registerUser(server);
  const answer = await call(server, 'createMap', { title: 'Northwind stores', mapData: storeChainDocument(COUNT) }, user);
  if (answer.status !== 200) throw new Error(`createMap: ${answer.status} ${JSON.stringify(answer.body)}`);
  await projected(server, answer.body.position);
  const id = answer.body.result as string;
  await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [id]);
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: width > 400 ? 800 : 812 }, deviceScaleFactor: width > 400 ? 1 : 2 });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log('page error:', error.message));
    await page.goto(`${server.url}/m/${id}`, { waitUntil: 'commit' });
    await page.waitForSelector('.mf-static__cluster, .mf-static__marker');
    await page.screenshot({ path: path.join(DIR, `viewer-ssr-${width}.png`) });
    await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
    await page.waitForSelector('button[data-cluster]', { state: 'attached' });
    await page.screenshot({ path: path.join(DIR, `viewer-clusters-${width}.png`) });
    // Click the biggest cluster on screen, on the canvas.
    const [x, y] = await page.evaluate(() => {
      const buttons = [...document.querySelectorAll<HTMLElement>('button[data-cluster]')];
      buttons.sort((a, b) => Number(b.dataset.count) - Number(a.dataset.count));
      const viewport = document.querySelector('.mf-viewport')!.getBoundingClientRect();
      const [sx, sy] = buttons[0]!.dataset.screen!.split(',').map(Number);
      return [viewport.left + sx!, viewport.top + sy!];
    });
    await page.mouse.click(x, y);
    await page.waitForTimeout(900);
    await page.screenshot({ path: path.join(DIR, `viewer-expanded-${width}.png`) });
    if (width > 400) {
      await page.fill('input[type="search"]', '#12345');
      await page.click('.mf-item');
      await page.waitForSelector('.mf-popup');
      await page.waitForTimeout(900);
      await page.screenshot({ path: path.join(DIR, `viewer-search-${width}.png`) });
    }
    await context.close();
  }
  console.log(`map ${id}: screenshots in ${DIR}`);
} finally {
  await browser.close();
  await server.close();
}
