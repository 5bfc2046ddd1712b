/**
 * The marketing pages prerendered at build time (scripts/prerender-pages.ts, served by
 * server/http/prerendered-pages.ts): each one's HTML holds its page, title and description
 * before any script runs (Chromium with JavaScript off shows the hero); with JavaScript on,
 * React hydrates those very nodes without a mismatch (no error, nothing rendered twice, the
 * same <h1> element) and the page works (the header learns the visitor is signed out, the
 * consent banner asks, a link navigates inside the app). Pages that are not prerendered still
 * get the app's shell.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketingPaths } from '../../client/src/lib/paths.js';
import { PRERENDERED_DIR, prerenderedPageFile } from '../../server/http/prerendered-pages.js';
import { seedDemoMap } from '../../server/seed/seed-demo-map.js';
import { startBrowserSession } from '../support/browser.js';
import type { TestServer } from '../support/test-server.js';

const TITLES: Record<string, RegExp> = {
  '/': /^Mapfold · Custom interactive maps for business$/,
  '/pricing': /^Pricing · Mapfold$/,
  '/case-study/retail': / · Example map · Mapfold$/,
  '/privacy': /^Privacy Policy · Mapfold$/,
};

/** Errors the page reports: React's hydration mismatches are reported as uncaught errors or console errors. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

describe('prerendered marketing pages', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(`dist/client/${PRERENDERED_DIR}/index.html`)) throw new Error('Build the client first: npm run build (it prerenders the pages)');
    session = await startBrowserSession();
    ({ server, browser } = session);
    // The landing and case-study pages embed the demo map.
    const demo = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
    if (demo) await server.runner.waitFor(demo);
  }, 120_000);
  afterAll(() => session?.close());

  it('every marketing page is built, with its own title and no inline script', () => {
    for (const path of marketingPaths) {
      const html = readFileSync(`dist/client/${PRERENDERED_DIR}/${prerenderedPageFile(path)}`, 'utf8');
      expect(html, path).toMatch(/<div id="root"><!--\$-->/);
      expect(html.match(/<main\b/g), path).toHaveLength(1);
      // The Content-Security-Policy allows no inline script: only the module script of the app.
      expect([...html.matchAll(/<script\b[^>]*>/g)].every(([tag]) => /\bsrc="\/assets\//.test(tag)), path).toBe(true);
      if (TITLES[path]) expect(/<title>([^<]*)<\/title>/.exec(html)?.[1], path).toMatch(TITLES[path]);
    }
  });

  it('with JavaScript off, each page is on screen with its title and description', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });
    try {
      const page = await context.newPage();
      for (const path of Object.keys(TITLES)) {
        const response = await page.goto(`${server.url}${path}`);
        expect(response?.status(), path).toBe(200);
        await expect.poll(() => page.title()).toMatch(TITLES[path]!);
        expect(await page.locator('main h1').first().isVisible(), path).toBe(true);
        expect(await page.locator('meta[name="description"]').getAttribute('content'), path).toBeTruthy();
      }
      await page.goto(`${server.url}/`);
      expect(await page.getByRole('heading', { level: 1, name: 'Custom interactive maps for business' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('with JavaScript on, React takes over the same nodes without a mismatch, and the page works', async () => {
    for (const path of ['/', '/pricing', '/privacy']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        const errors = collectErrors(page);
        // Given the page's heading as the server sent it, marked before any script ran
        // (the app's script is held back until the server's heading is parsed and marked)
        await page.route(`${server.url}/assets/main-*.js`, async (route) => {
          await page.locator('main h1').first().waitFor({ state: 'attached' });
          await page.evaluate(() => document.querySelector('main h1')?.setAttribute('data-from-server', ''));
          await route.continue();
        });
        await page.goto(`${server.url}${path}`);
        // When React has hydrated it (the header asks who is signed in, then offers Login; the banner asks for consent)
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).waitFor();
        await page.getByRole('region', { name: 'Cookie consent' }).waitFor();
        // And the live map the landing adds after its first paint has drawn, so what it could
        // report is in too (network idle never comes while a live map polls)
        await page.locator('.live-map__placeholder').first().waitFor({ state: 'detached' });
        for (const frame of await page.locator('iframe[loading="eager"]').all()) {
          await (await frame.contentFrame()).locator('.mf-map').waitFor();
        }
        // Then it is the very element the server sent, once, and nothing went wrong
        expect(await page.locator('main h1[data-from-server]').count(), path).toBe(1);
        expect(await page.locator('main').count(), path).toBe(1);
        expect(await page.locator('main').getAttribute('class'), path).not.toContain('page-fade');
        expect(errors, path).toEqual([]);
      } finally {
        await context.close();
      }
    }
    // And a hydrated link navigates inside the app (no new document)
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).waitFor();
      await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
      await page.getByRole('main').getByRole('link', { name: 'See pricing' }).click();
      await page.getByRole('heading', { level: 1, name: 'Simple pricing, per map' }).waitFor();
      expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      expect(await page.title()).toBe('Pricing · Mapfold');
      // The fade is between pages: the next page fades in, the prerendered first one showed at once.
      expect(await page.getByRole('main').getAttribute('class')).toContain('page-fade');
    } finally {
      await context.close();
    }
  });

  it('a page that is not prerendered gets the app shell', async () => {
    const response = await fetch(`${server.url}/login`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root"></div>');
  });
});
