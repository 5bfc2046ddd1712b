/**
 * Screenshots of the main pages at a phone and a desktop size, for looking at the UI as a
 * person would. Not a test: run it against a running server with a built client.
 *
 *   npm run build && PORT=3100 DATA_DIR=/tmp/mapfold-ui npx tsx server/main.ts &
 *   npx tsx test/client/screenshots.script.ts            # BASE_URL=http://localhost:3100
 *
 * Writes screenshots/{page}-{width}x{height}.png (the folder is git-ignored).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:3100';
const OUT_DIR = path.resolve(import.meta.dirname, '../../screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

async function shoot(page: Page, name: string, fullPage = true) {
  const { width, height } = page.viewportSize()!;
  const file = path.join(OUT_DIR, `${name}-${width}x${height}.png`);
  // Let the page fade and fonts settle.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(350);
  await page.screenshot({ path: file, fullPage });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

async function visit(page: Page, route: string) {
  await page.goto(`${BASE_URL}${route}`, { waitUntil: 'networkidle' });
}

/** A new account with two maps, signed in on a fresh context; returns its storage state. */
async function signedInState(browser: Browser) {
  const context = await browser.newContext();
  const email = `screens-${Date.now()}@example.com`;
  const post = async (url: string, data: unknown) => {
    const response = await context.request.post(`${BASE_URL}${url}`, { data: { data } });
    if (!response.ok()) throw new Error(`${url} failed: ${response.status()} ${await response.text()}`);
    return response.json() as Promise<{ result: unknown }>;
  };
  await post('/api/auth/register', { email, password: 'screenshots only', displayName: 'Avery Quinn' });
  await post('/api/fn/createMap', { title: 'Riverside Mall, level 1' });
  await post('/api/fn/createMap', {
    title: 'Head office: floor 2 and meeting rooms',
    mapData: {
      version: 1,
      layers: [
        { id: 'l1', name: 'Floor 2' },
        { id: 'l2', name: 'Rooms' },
      ],
      locations: Array.from({ length: 14 }, (_, i) => ({ id: `loc${i}`, title: `Room ${i + 1}`, layer: 'l2' })),
    },
  });
  const state = await context.storageState();
  await context.close();
  return state;
}

async function main() {
  await mkdir(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const storageState = await signedInState(browser);
    for (const viewport of VIEWPORTS) {
      const anonymous: BrowserContext = await browser.newContext({ viewport, deviceScaleFactor: 1 });
      const page = await anonymous.newPage();
      await visit(page, '/');
      await shoot(page, 'landing');
      await shoot(page, 'landing-fold', false);
      await visit(page, '/login');
      await shoot(page, 'login');
      await visit(page, '/register');
      await shoot(page, 'register');
      await visit(page, '/no-such-page');
      await shoot(page, 'not-found');
      await visit(page, '/pricing');
      await shoot(page, 'pricing');
      if (viewport.width < 768) {
        await visit(page, '/');
        await page.getByRole('button', { name: 'Open menu' }).click();
        await shoot(page, 'menu-open', false);
      }
      await anonymous.close();

      const signedIn = await browser.newContext({ viewport, deviceScaleFactor: 1, storageState });
      const userPage = await signedIn.newPage();
      await visit(userPage, '/maps');
      await userPage.getByRole('list', { name: 'Your maps' }).waitFor();
      await shoot(userPage, 'maps');
      await userPage.getByRole('button', { name: /^Delete / }).first().click();
      await userPage.getByRole('dialog').waitFor();
      await shoot(userPage, 'maps-delete-dialog', false);
      await userPage.keyboard.press('Escape');
      if (viewport.width < 768) {
        await userPage.getByRole('button', { name: 'Open menu' }).click();
        await shoot(userPage, 'maps-menu-open', false);
      }
      await visit(userPage, '/account');
      await shoot(userPage, 'account');
      await signedIn.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
