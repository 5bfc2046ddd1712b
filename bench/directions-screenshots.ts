/**
 * Screenshots of the viewer's directions on the demo mall, for looking at them as a visitor
 * would. Not a benchmark and not a test: `npm run build && npx tsx bench/directions-screenshots.ts
 * [out-dir]` writes directions-*.png (default: screenshots/, git-ignored) at 1280×800 and
 * 375×812: the step-free route from Urban Thread to Cinema Royale on both floors, the shortest
 * one (stairs), a kiosk, and the /wayfinding page's live demo. It runs the real server process
 * on PGlite, which seeds the demo with its path network.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './browser-profiles.js';
import { startRealServer } from './server-process.js';

const OUT_DIR = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../screenshots'));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
const ROUTE = '/m/demo?from=g-urbanthread&to=l1-cinema';

await mkdir(OUT_DIR, { recursive: true });
const server = await startRealServer('pglite', { LOG_LEVEL: 'warn' });
const browser = await launchChromium();

async function open(url: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: viewport === PHONE ? 2 : 1, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(server.url + url);
  return page;
}
async function routeDrawn(page: Page) {
  await page.waitForFunction(() => (window as { __mapfoldRouteDrawn?: number }).__mapfoldRouteDrawn, undefined, { timeout: 30_000 });
  // The camera's fit animates (and the floor's drawing arrives): let both settle.
  await page.waitForTimeout(900);
}
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(OUT_DIR, `directions-${name}.png`) });

try {
  for (const [name, viewport] of [['1280', DESKTOP], ['375', PHONE]] as const) {
    const page = await open(`${ROUTE}&stepfree=1`, viewport);
    await routeDrawn(page);
    await shot(page, `${name}-stepfree-ground`);
    await page.getByRole('button', { name: 'Go to Level 1' }).click();
    await page.waitForTimeout(900);
    await shot(page, `${name}-stepfree-level1`);
    if (viewport === PHONE) {
      await page.locator('.mf-directions-sheet').evaluate((sheet) => sheet.scrollTo(0, sheet.scrollHeight));
      await shot(page, `${name}-stepfree-steps`);
    }
    await page.context().close();
  }
  const shortest = await open(ROUTE, DESKTOP);
  await routeDrawn(shortest);
  await shot(shortest, '1280-shortest');
  await shortest.context().close();

  const kiosk = await open('/m/demo?here=g-info&to=l1-sakura', DESKTOP);
  await routeDrawn(kiosk);
  await shot(kiosk, '1280-kiosk');
  await kiosk.context().close();

  const popup = await open('/m/demo?location=g-bella', DESKTOP);
  await popup.getByRole('button', { name: 'Directions to here' }).waitFor();
  await popup.waitForTimeout(600);
  await shot(popup, '1280-popup');
  await popup.context().close();

  const picking = await open('/m/demo', DESKTOP);
  await picking.getByRole('button', { name: 'Directions', exact: true }).click();
  await picking.getByRole('combobox', { name: 'From' }).fill('cafe');
  await picking.waitForTimeout(300);
  await shot(picking, '1280-picking');
  await picking.context().close();

  const marketing = await open('/wayfinding', DESKTOP);
  await marketing.getByRole('heading', { name: 'Find your way around Riverside Mall' }).scrollIntoViewIfNeeded();
  await marketing.frameLocator('iframe[title^="Map: Riverside Mall"]').locator('.mf-route__line').waitFor({ state: 'attached', timeout: 30_000 });
  await marketing.waitForTimeout(1200);
  await shot(marketing, '1280-wayfinding-page');
  await marketing.context().close();
  console.log(`Screenshots in ${OUT_DIR}`);
} finally {
  await browser.close();
  await server.stop();
}
