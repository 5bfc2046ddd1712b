/**
 * The product in a real Chromium: the guard sends a visitor to /login, registration signs in,
 * a map created in one tab appears in a second tab without a reload, and unknown paths get
 * the 404 page. Runs against the built client (`npm test` builds it first).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserSession } from '../support/browser.js';
import type { TestServer } from '../support/test-server.js';

describe('two tabs in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
  });
  afterAll(() => session?.close());

  it('a second tab sees a map created in the first, without reloading', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const first = await context.newPage();

    await first.goto('/maps');
    await first.waitForURL('**/login');

    await first.goto('/register');
    await first.getByLabel('Display name').fill('Ana Lima');
    await first.getByLabel('Email').fill('ana.e2e@example.com');
    await first.getByLabel('Password').fill('correct horse battery');
    await first.getByRole('button', { name: 'Create account' }).click();
    await first.waitForURL('**/maps');
    await first.goto('/dev/outbox');
    await first.getByRole('link', { name: /\/verify-email\?token=/ }).first().click();
    await first.getByText('Your email address is verified.').waitFor();
    await first.goto('/maps');

    const second = await context.newPage();
    await second.goto('/maps');
    await expect.poll(() => second.getByText('Garden level').count()).toBe(0);

    await first.getByLabel('New map').fill('Garden level');
    await first.getByRole('button', { name: 'Create' }).click();
    await first.getByRole('heading', { name: 'Garden level' }).waitFor({ timeout: 10_000 });

    // No reload in the second tab: the live socket brings it.
    await second.getByRole('heading', { name: 'Garden level' }).waitFor({ timeout: 10_000 });
    await context.close();
  });

  it('after logging in, a visitor returns to the page they asked for', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/maps/new');
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill('ana.e2e@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/maps/new');
    await context.close();
  });

  it('serves the landing page at / and the app on a direct load of any route', async () => {
    const page = await browser.newPage({ baseURL: server.url });
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.title()).toMatch(/interactive maps/i);
    expect((await page.goto('/pricing'))?.status()).toBe(200);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect((await page.request.get('/assets/missing.js')).status()).toBe(404);
    await page.close();
  });

  it('shows the 404 page for an unknown path', async () => {
    const page = await browser.newPage({ baseURL: server.url });
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Not Found' }).waitFor();
    expect(await page.getByText("The page you're looking for could not be found.").count()).toBe(1);
    await page.getByRole('link', { name: 'Back to home' }).or(page.getByRole('button', { name: 'Back to home' })).click();
    await page.waitForURL(`${server.url}/`);
    await page.close();
  });
});
