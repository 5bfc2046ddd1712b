/**
 * Accounts in a real Chromium: register, see the verification banner, open the link from the
 * outbox page, see the banner gone; log out; a signed-out visit to /maps goes to /login and
 * back after logging in; a wrong password shows its message.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserSession } from '../support/browser.js';
import type { TestServer } from '../support/test-server.js';
const BANNER = 'Verify your email address';

describe('accounts in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
  });
  afterAll(() => session?.close());

  it('registers, verifies through the outbox link, logs out and back in', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();

    await page.goto('/register');
    await page.getByLabel('Display name').fill('Bea Santos');
    await page.getByLabel('Email').fill('bea@example.com');
    await page.getByLabel('Password').fill('tidal marble lantern');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/maps');
    await page.getByText(BANNER).first().waitFor();

    // The outbox page lists the mail; its link opens the verification page.
    await page.goto('/dev/outbox');
    await page.getByText('Verify your email address for Mapfold').waitFor();
    await page.getByRole('link', { name: /\/verify-email\?token=/ }).first().click();
    await page.waitForURL('**/verify-email?token=*');
    await page.getByText('Your email address is verified.').waitFor();

    await page.goto('/maps');
    await page.getByRole('heading', { name: 'Your maps' }).waitFor();
    expect(await page.getByText(BANNER).count()).toBe(0);
    await page.getByLabel('New map').fill('Verified map');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Verified map' }).waitFor();

    await page.getByRole('button', { name: 'Log out' }).click();
    // The session is over before the page leaves (header.tsx): opening the account at once,
    // as a person on a shared computer would, finds it signed out.
    await page.waitForURL(`${server.url}/`);
    await page.goto('/account');
    await page.waitForURL('**/login');
    // The login page (its header has no nav, so no Login link): the account page sent us here.
    await page.getByRole('button', { name: 'Log in' }).waitFor();

    await page.goto('/maps');
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill('bea@example.com');
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Incorrect email or password.').waitFor();

    await page.getByLabel('Password').fill('tidal marble lantern');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/maps');
    await page.getByRole('heading', { name: 'Verified map' }).waitFor();
    await context.close();
  });
});
