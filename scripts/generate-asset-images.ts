/**
 * Draws the pictures of the case studies' link cards from the example maps themselves:
 * `npx vite build && npx tsx scripts/generate-asset-images.ts` starts a server on an in-memory
 * PGlite, seeds the demo and example maps, opens each map's public viewer in headless Chromium
 * and writes client/public/assets/img/case-{name}.webp and case-{name}@2x.webp (640×400 and
 * 1280×800). Run it again after changing an example map, and commit the pictures.
 *
 * Playwright only writes PNG and JPEG, so the screenshot is re-encoded to WebP by Chromium's
 * own canvas encoder: no image library to install.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { EXAMPLE_MAP_IDS, seedExampleMaps } from '../server/seed/example-maps.js';
import { seedDemoMap } from '../server/seed/seed-demo-map.js';
import { pgliteTarget } from '../test/support/databases.js';
import { startTestServer } from '../test/support/test-server.js';

const OUT_DIR = path.resolve(import.meta.dirname, '../client/public/assets/img');
/** PNG copies for looking at (the folder is git-ignored). */
const PREVIEW_DIR = path.resolve(import.meta.dirname, '../screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * The viewer is laid out at this size (in CSS pixels): its 340 px list beside a 960 × 600 map,
 * and only the map is pictured, drawn at the picture's size.
 */
const LAYOUT = { width: 1300, height: 600 };
const STAGE_WIDTH = 960;
const PICTURE_WIDTH = 640;
/** WebP quality: the cards sit under a dark wash, so a little loss never shows. */
const QUALITY = 0.8;

/** What each picture shows: the case study's map, opened on a place that tells its story. */
const PICTURES: { name: string; mapId: string; query?: string }[] = [
  { name: 'case-geographic', mapId: EXAMPLE_MAP_IDS.geographic },
  { name: 'case-real-estate', mapId: EXAMPLE_MAP_IDS['real-estate'] },
  { name: 'case-retail', mapId: EXAMPLE_MAP_IDS.retail },
];

async function toWebp(browser: Browser, png: Buffer): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const dataUrl = await page.evaluate(
      async ({ source, quality }) => {
        const image = new Image();
        image.src = source;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        canvas.getContext('2d')!.drawImage(image, 0, 0);
        return canvas.toDataURL('image/webp', quality);
      },
      { source: `data:image/png;base64,${png.toString('base64')}`, quality: QUALITY },
    );
    if (!dataUrl.startsWith('data:image/webp;base64,')) throw new Error('This Chromium cannot encode WebP.');
    return Buffer.from(dataUrl.slice('data:image/webp;base64,'.length), 'base64');
  } finally {
    await page.close();
  }
}

async function shoot(browser: Browser, url: string, scale: number): Promise<Buffer> {
  const context = await browser.newContext({ viewport: LAYOUT, deviceScaleFactor: scale });
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') console.error(`console: ${message.text()}`);
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
    await page.evaluate(() => document.fonts.ready);
    // Let the first frame of markers and regions settle.
    await page.waitForTimeout(600);
    return await page.locator('.mf-stage').screenshot({ type: 'png' });
  } finally {
    await context.close();
  }
}

await mkdir(OUT_DIR, { recursive: true });
await mkdir(PREVIEW_DIR, { recursive: true });
console.log('starting a server on an in-memory database…');
const server = await startTestServer(pgliteTarget);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  const demo = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
  const examples = await seedExampleMaps(server.services);
  for (const position of [demo, ...examples]) if (position) await server.runner.waitFor(position);
  console.log('maps seeded');

  for (const picture of PICTURES) {
    const url = `${server.url}/m/${picture.mapId}${picture.query ?? ''}`;
    for (const [suffix, factor] of [['', 1], ['@2x', 2]] as const) {
      const png = await shoot(browser, url, (PICTURE_WIDTH * factor) / STAGE_WIDTH);
      const file = path.join(OUT_DIR, `${picture.name}${suffix}.webp`);
      await writeFile(file, await toWebp(browser, png));
      await writeFile(path.join(PREVIEW_DIR, `asset-${picture.name}${suffix}.png`), png);
      console.log(`wrote ${path.relative(process.cwd(), file)} (${Math.round((await stat(file)).size / 1024)} KB)`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
