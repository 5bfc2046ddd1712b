/**
 * The public viewer's directions in Chromium: a viewer opened in a context of its own, and the
 * route's steps as the Directions list shows them.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from '../../support/test-server.js';

/** The sentences of the Directions list, in order. */
export const stepTexts = (page: Page) => page.getByRole('list', { name: 'Directions', exact: true }).locator('.mf-step__sentence').allTextContents();

/** The directions' live region (the step being followed is announced there). */
export const directionsStatus = (page: Page) => page.locator('.mf-directions [role="status"]');

/**
 * `path` opened in a fresh browser context (nothing shared with other pages), once the map named
 * `title` is shown; `errors` collects the page's uncaught errors.
 */
export async function openViewer(browser: Browser, server: TestServer, path: string, title: string, viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: server.url, viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(path);
  await page.getByRole('region', { name: new RegExp(`^Map: ${title}`) }).waitFor();
  // The page is server-rendered: its buttons are there before React, and a click before hydration is lost.
  await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
  return { context, page, errors };
}

/** The route is drawn: its line has a path on the floor shown. */
export const routeDrawn = (page: Page) => page.waitForFunction(() => (document.querySelector('.mf-route__line')?.getAttribute('d') ?? '').length > 0);

/**
 * The camera has come to rest with the route's line inside the map (for screenshots: the view
 * moves to the route after the steps change).
 */
export const routeInView = (page: Page) =>
  page.waitForFunction(() => {
    const line = document.querySelector('.mf-route__line')?.getBoundingClientRect();
    const stage = document.querySelector('.mf-stage')?.getBoundingClientRect();
    const world = document.querySelector<HTMLElement>('.mf-stage .mf-world');
    if (!line || !stage || !world || line.width === 0 || world.style.willChange === 'transform') return false;
    return line.left >= stage.left && line.right <= stage.right && line.top >= stage.top && line.bottom <= stage.bottom;
  });
