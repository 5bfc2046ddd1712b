/**
 * Screenshots of the public viewer, for looking at it as a visitor would. Not a benchmark and
 * not a test: `npm run build && npx tsx bench/viewer-screenshots.ts` writes
 * screenshots/viewer-*.png (the folder is git-ignored) at 1280×800 and 375×812. It starts its
 * own server on an in-memory PGlite with the demo mall (SVG floor plans, regions; also with
 * JavaScript off: the server-rendered page alone), a dark map on an image layer, and a page
 * that embeds the mall.
 */
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser-profiles.js';
import { embedSnippet } from '../client/src/utils/embed.js';
import { demoMallDocument } from '../server/seed/demo-mall.js';
import { pgliteTarget } from '../test/support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../test/support/test-server.js';

const OUT_DIR = path.resolve(import.meta.dirname, '../screenshots');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

async function publish(server: TestServer, user: TestUser, title: string, mapData: unknown): Promise<string> {
  const answer = await call(server, 'createMap', { title, mapData }, user);
  if (answer.status !== 200) throw new Error(`createMap: ${answer.status} ${JSON.stringify(answer.body)}`);
  await projected(server, answer.body.position);
  // Publishing goes through hosting slots (another issue): make it public in the read model.
  await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [answer.body.result]);
  return answer.body.result as string;
}

/** A dark map on an image layer, with pins, circles, thumbnails and a label. */
function darkImageDocument() {
  const mall = demoMallDocument();
  const ground = mall.locations.filter((location) => location.layer === 'ground');
  return {
    ...mall,
    settings: { ...mall.settings, theme: { mode: 'dark', accent: '#22d3ee', background: '#0b1120' }, defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: { kind: 'image', url: '/assets/demo/riverside-ground.svg', width: 1200, height: 800 } }],
    locations: ground.map((location, i) => ({
      ...location,
      element: null,
      marker: i % 4 === 0 ? 'thumbnail' : i % 4 === 1 ? 'pin' : i % 4 === 2 ? 'circle' : 'label',
      label: i % 4 === 2 ? String(i + 1) : location.label,
      thumbnail: i % 4 === 0 ? '/assets/demo/riverside-level-1.svg' : null,
    })),
  };
}

async function shoot(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(450);
  const { width, height } = page.viewportSize()!;
  const file = path.join(OUT_DIR, `viewer-${name}-${width}x${height}.png`);
  await page.screenshot({ path: file });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

async function open(browser: Browser, url: string, viewport: { width: number; height: number }) {
  const phone = viewport.width < 500;
  const context = await browser.newContext({ viewport, deviceScaleFactor: 2, hasTouch: phone, isMobile: phone });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
  return { page, close: () => context.close() };
}

await mkdir(OUT_DIR, { recursive: true });
const server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(4 * 1024 * 1024) } });
const browser = await launchChromium();
const blog = createServer();
try {
  const user = await registerUser(server);
  const mall = await publish(server, user, 'Riverside Mall', demoMallDocument());
  const dark = await publish(server, user, 'Riverside Mall at night', darkImageDocument());
  const at = (id: string, query = '') => `${server.url}/m/${id}${query}`;

  for (const viewport of [DESKTOP, PHONE]) {
    const phone = viewport === PHONE;
    let view = await open(browser, at(mall), viewport);
    await shoot(view.page, 'mall');
    if (phone) {
      await view.page.getByRole('button', { name: /Search \d+ locations/ }).click();
      await view.page.getByRole('dialog', { name: 'Directory' }).getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Food & drink' }).click();
      await shoot(view.page, 'directory');
    } else {
      await view.page.getByRole('searchbox', { name: 'Search locations' }).fill('cafe');
      await shoot(view.page, 'search');
      await view.page.getByRole('searchbox', { name: 'Search locations' }).fill('');
      await view.page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Food & drink' }).click();
      await view.page.mouse.move(820, 420);
      await shoot(view.page, 'filter');
      await view.page.getByRole('button', { name: 'Share' }).click();
      await shoot(view.page, 'share');
    }
    await view.close();

    view = await open(browser, at(mall, '?location=g-lumiere'), viewport);
    await shoot(view.page, 'popup');
    await view.close();

    view = await open(browser, at(dark, '?location=g-sunrise'), viewport);
    await shoot(view.page, 'dark-image');
    await view.close();
  }

  // The server-rendered page without JavaScript: the floor, the markers and the directory.
  for (const viewport of [DESKTOP, PHONE]) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 2, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(at(mall), { waitUntil: 'networkidle' });
    await shoot(page, 'mall-no-js');
    await context.close();
  }

  // A customer's page with the embed.
  const snippet = embedSnippet({ mapId: mall, publicUrl: server.url, title: 'Riverside Mall', aspectRatio: 16 / 10 });
  blog.on('request', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Riverside Mall</title></head>
      <body style="margin:0;font:16px/1.6 Georgia,serif;color:#1f2937;background:#fffdf8">
        <main style="max-width:860px;margin:0 auto;padding:32px 20px">
          <h1 style="font-size:32px;margin:0 0 8px">Find your way around</h1>
          <p style="margin:0 0 24px;color:#4b5563">Sixty shops, restaurants and a cinema under one roof. Search the directory or tap a shop on the plan.</p>
          ${snippet}
          <p style="margin-top:24px;color:#4b5563">Open every day from 9:00. Free parking for three hours.</p>
        </main>
      </body></html>`);
  });
  await new Promise<void>((resolve) => blog.listen(0, '127.0.0.1', resolve));
  const address = blog.address();
  const blogUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  for (const viewport of [DESKTOP, PHONE]) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(blogUrl, { waitUntil: 'networkidle' });
    await page.frameLocator('iframe').getByRole('region', { name: /Map: Riverside Mall/ }).waitFor();
    await shoot(page, 'embed');
    await context.close();
  }
} finally {
  blog.close();
  await browser.close();
  await server.close();
}
