/**
 * Screenshots of the main pages at a phone and a desktop size, for looking at the UI as a
 * person would. Not a test: run it against a running server with a built client.
 *
 *   npm run build && PORT=3100 DATA_DIR=/tmp/mapfold-ui PUBLIC_URL=http://localhost:3100 npx tsx server/main.ts &
 *   npx tsx test/client/screenshots.script.ts            # BASE_URL=http://localhost:3100
 *
 * The server must keep mail in its local outbox (no SMTP_URL): the script reads the
 * verification links from /dev/outbox. Writes screenshots/{page}-{width}x{height}.png (the
 * folder is git-ignored).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

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

/** The newest link of a kind (`/verify-email` or `/reset`) mailed to `email`, read from the local outbox page. */
async function mailedLink(context: BrowserContext, email: string, route: '/verify-email' | '/reset'): Promise<string> {
  const html = await (await context.request.get(`${BASE_URL}/dev/outbox`)).text();
  for (const article of html.split('<article>').slice(1)) {
    if (!article.includes(`to ${email}`)) continue;
    const match = new RegExp(`https?://[^\\s<"]+${route}\\?token=[A-Za-z0-9_-]+`).exec(article);
    if (match) return new URL(match[0]).pathname + new URL(match[0]).search;
  }
  throw new Error(`No ${route} link for ${email} in the outbox (is SMTP_URL unset?)`);
}

/** Registers a new (unverified) account on a fresh context; returns the context, signed in. */
async function registeredContext(browser: Browser, email: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const response = await context.request.post(`${BASE_URL}/api/auth/register`, {
    data: { data: { email, password: 'screenshots only', displayName: 'Avery Quinn' } },
  });
  if (!response.ok()) throw new Error(`register failed: ${response.status()} ${await response.text()}`);
  return context;
}

/** A verified account with two maps, signed in on a fresh context; returns its storage state. */
async function signedInState(browser: Browser) {
  const email = `screens-${Date.now()}@example.com`;
  const context = await registeredContext(browser, email);
  const verify = await context.request.post(`${BASE_URL}/api/auth/verify-email`, {
    data: { data: { token: new URLSearchParams((await mailedLink(context, email, '/verify-email')).split('?')[1]).get('token') } },
  });
  if (!verify.ok()) throw new Error(`verify failed: ${verify.status()} ${await verify.text()}`);
  const post = async (url: string, data: unknown) => {
    const response = await context.request.post(`${BASE_URL}${url}`, { data: { data } });
    if (!response.ok()) throw new Error(`${url} failed: ${response.status()} ${await response.text()}`);
    return response.json() as Promise<{ result: unknown }>;
  };
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
      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByLabel('Password').fill('not a real one');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      await shoot(page, 'login-error');
      await visit(page, '/register');
      await shoot(page, 'register');
      await visit(page, '/reset');
      await shoot(page, 'reset-request');
      await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      // The neutral answer, or (after many runs against one server) the rate limit's alert.
      await page.getByRole('status').filter({ hasText: 'If an account exists' }).or(page.getByRole('alert')).waitFor();
      await shoot(page, 'reset-requested');
      await visit(page, '/reset?token=not-a-real-token');
      await shoot(page, 'reset-new-password');
      await visit(page, '/verify-email?token=not-a-real-token');
      await page.getByRole('alert').waitFor();
      await shoot(page, 'verify-email-invalid');
      await visit(page, '/no-such-page');
      await shoot(page, 'not-found');
      await visit(page, '/pricing');
      await shoot(page, 'pricing');
      await page.locator('footer').screenshot({ path: path.join(OUT_DIR, `footer-extended-${viewport.width}x${viewport.height}.png`) });
      if (viewport.width < 768) {
        await visit(page, '/');
        await page.getByRole('button', { name: 'Open menu' }).click();
        await shoot(page, 'menu-open', false);
      }
      await anonymous.close();

      // A new account: not verified yet, so every page shows the banner.
      const email = `banner-${viewport.width}-${Date.now()}@example.com`;
      const fresh = await registeredContext(browser, email, { viewport, deviceScaleFactor: 1 });
      const freshPage = await fresh.newPage();
      await visit(freshPage, '/maps');
      await freshPage.getByRole('region', { name: 'Verify your email address' }).waitFor();
      await shoot(freshPage, 'verify-banner', false);
      await freshPage.getByRole('button', { name: 'Resend' }).click();
      await freshPage.getByText('Verification email sent, please check your inbox and spam folder.').waitFor();
      await shoot(freshPage, 'verify-banner-sent', false);
      await visit(freshPage, await mailedLink(fresh, email, '/verify-email'));
      await freshPage.getByText('Your email address is verified.').waitFor();
      await shoot(freshPage, 'verify-email-done', false);
      await fresh.close();

      const signedIn = await browser.newContext({ viewport, deviceScaleFactor: 1, storageState });
      const userPage = await signedIn.newPage();
      await visit(userPage, '/');
      await shoot(userPage, 'header-signed-in', false);
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
      await userPage.getByRole('button', { name: 'Delete account' }).click();
      await userPage.getByRole('dialog').waitFor();
      await shoot(userPage, 'account-delete-dialog', false);
      await userPage.keyboard.press('Escape');
      await signedIn.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
