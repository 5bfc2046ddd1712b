/**
 * Accessibility of every public page in Chromium, signed out, as a first-time visitor (so the
 * consent banner is on screen too), at phone (375×812) and desktop (1280×800) sizes: axe-core
 * (injected from node_modules) finds no violation of impact serious or critical, and every page
 * has a title and a meta description. A failure prints each violation's rule, help, impact and
 * the elements it was found on.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoMap } from '../../server/seed/seed-demo-map.js';
import { startBrowserSession } from '../support/browser.js';
import { animationsEnded } from './support/animations.js';
import { projected, type TestServer } from '../support/test-server.js';
import { formatPosition } from '../../events/position.js';
import { PUBLIC_PAGES } from '../../server/routes/seo-routes.js';

/**
 * axe-core's source, run in the page through the DevTools protocol: a `<script>` tag with it
 * would be refused by the page's Content-Security-Policy (no inline script).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The public pages of spec §2, the account pages a visitor can open, the 404 page and the viewer
 * (also in Arabic: its own words, right to left).
 */
const PAGES = [...PUBLIC_PAGES, '/login', '/register', '/reset', '/no-such-page', '/m/demo', '/m/demo?lang=ar'];

const TIMEOUT = 30_000;

const VIEWPORTS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
];

interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Waits for what a visitor waits for: the viewer's drawn map, or the page's heading and the
 * consent banner (it appears once the page is hydrated, so the page is whole); every live map's
 * iframe in place (the landing adds its one after the first paint, and axe checks its title);
 * and every entrance animation ended (with reduced motion they last 0.01 ms, and the scroll-in
 * parts below the fold are shown at once, so axe reads the colours a reader sees in the end).
 */
async function settle(page: Page, path: string): Promise<void> {
  if (path.startsWith('/m/')) {
    await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: TIMEOUT });
  } else {
    await page.locator('main h1').first().waitFor({ timeout: TIMEOUT });
    await page.getByRole('region', { name: 'Cookie consent' }).waitFor({ timeout: TIMEOUT });
    await page.locator('.live-map__placeholder').first().waitFor({ state: 'detached', timeout: TIMEOUT });
  }
  await animationsEnded(page, TIMEOUT);
}

/**
 * axe on the page's own document. Not inside the live maps' iframes (`iframes: false`): axe is
 * not injected there, and looking for it cost half a second a page; the viewer they show is
 * checked on its own at /m/demo, and the iframe element itself (its title) is checked here.
 */
async function runAxe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  // A string, not a function: the TypeScript runner would wrap functions in helpers the page lacks.
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'], iframes: false }).then((r) => r.violations)`)) as AxeViolation[];
  return result;
}

function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.impact}: ${violation.id}: ${violation.help} (${violation.helpUrl})\n` +
        violation.nodes.map((node) => `    at ${JSON.stringify(node.target)}${node.failureSummary ? `\n      ${node.failureSummary.replace(/\n/g, '\n      ')}` : ''}`).join('\n'),
    )
    .join('\n');
}

describe('accessibility of the public pages (axe-core in Chromium)', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
    // The test server starts empty; /m/demo needs the demo map.
    const position = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
    if (position) await projected(server, formatPosition(position));
  }, 120_000);
  afterAll(() => session?.close());

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
      // One tab per size, going from page to page: each page is a new document, and the init
      // script empties the storage before the page's own scripts run, so every page meets a
      // first-time visitor (no consent choice, no remembered language) as in a new browser.
      let context: BrowserContext;
      let page: Page;
      beforeAll(async () => {
        context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: 'reduce' });
        await context.addInitScript(`if (window === window.top) { localStorage.clear(); sessionStorage.clear(); }`);
        page = await context.newPage();
      });
      afterAll(() => context?.close());

      it.each(PAGES)('%s has no serious or critical violation, a title and a meta description', async (path) => {
        await context.clearCookies();
        await page.goto(`${server.url}${path}`);
        await settle(page, path);

        const violations = await runAxe(page);
        const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
        expect(blocking, `${path} at ${viewport.name} size:\n${describeViolations(blocking)}`).toEqual([]);

        const title = await page.title();
        expect(title.trim(), `${path}: document.title`).not.toBe('');
        const description = await page.locator('meta[name="description"]').first().getAttribute('content').catch(() => null);
        expect(description?.trim() ?? '', `${path}: meta description`).not.toBe('');
      }, 60_000);
    });
  }
});
