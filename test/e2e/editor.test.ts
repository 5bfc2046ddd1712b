/**
 * The map builder in Chromium, as its users go through it: a map made from the built-in world
 * map, two groups and three locations added in the editor (placed with the mouse, one dragged),
 * a second browser (another context of the same owner) on the same editor seeing every edit
 * appear without reloading, undo; then the published look at /m/{id}: search, a group filter, a
 * popup opened with the keyboard and closed with Esc, a deep link and the back button. And the
 * demo map explored signed out: edits work and stay in the tab.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoMap } from '../../server/seed/seed-demo-map.js';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { projected, registerUser, type TestServer } from '../support/test-server.js';
import { formatPosition } from '../../events/position.js';

const TIMEOUT = 15_000;

/** Clicks the map at a fraction of its viewport (the canvas: no element to aim at). */
async function clickMap(page: Page, fx: number, fy: number) {
  const box = (await page.locator('.ed-canvas .mf-viewport').boundingBox())!;
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
}

/** The canvas's "Add location" tool (the locations panel has a button of that name too). */
const addTool = (page: Page) => page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Add location' });

/** The name the canvas gives a location's hidden button, for every location on the floor. */
const locationButton = (page: Page, title: string) => page.locator('.ed-canvas .mf-a11y').getByRole('button', { name: title, exact: true });

async function addLocationAt(page: Page, fx: number, fy: number, title: string, group: string) {
  await addTool(page).click();
  await clickMap(page, fx, fy);
  const titleField = page.getByLabel('Title', { exact: true });
  await titleField.waitFor({ timeout: TIMEOUT });
  await titleField.fill(title);
  await page.getByRole('checkbox', { name: group }).check();
  await page.getByRole('button', { name: 'All locations' }).click();
}

describe('the map editor in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // The product's own body limit (the test servers' 64 KB is smaller than a world map).
    session = await startBrowserSession({ env: { BODY_LIMIT: String(2 * 1024 * 1024) } });
    ({ server, browser } = session);
    // As on a first start: the demo map behind /demo.
    const seeded = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
    if (seeded) await projected(server, formatPosition(seeded));
  });
  afterAll(() => session?.close());

  it('builds a map from the world map, live in a second editor, and publishes a preview', { timeout: 180_000 }, async () => {
    const owner = await registerUser(server);
    const first = await signedInContext(browser, server, owner);
    const page = await first.newPage();

    // /maps/new: a title and the world map as the starting point.
    await page.goto('/maps/new');
    await page.getByLabel('Title').fill('Coffee atlas');
    await page.getByRole('radio', { name: /World countries/ }).check();
    await page.getByRole('button', { name: 'Create map' }).click();
    await page.waitForURL((url) => /^\/maps\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.pathname !== '/maps/new', { timeout: TIMEOUT });
    const mapId = new URL(page.url()).pathname.split('/').pop()!;
    await expect.poll(() => page.getByRole('textbox', { name: 'Map title' }).inputValue()).toBe('Coffee atlas');
    // Every country is a location of its own, named after it.
    await locationButton(page, 'France').waitFor({ state: 'attached', timeout: TIMEOUT });

    // A second browser of the same owner on the same editor.
    const second = await signedInContext(browser, server, owner);
    const other = await second.newPage();
    await other.goto(`/maps/${mapId}`);
    await locationButton(other, 'France').waitFor({ state: 'attached', timeout: TIMEOUT });

    // Two groups.
    await page.getByRole('tab', { name: 'Groups' }).click();
    for (const name of ['Roasters', 'Cafés']) {
      await page.getByRole('button', { name: 'Add group' }).click();
      const field = page.getByRole('textbox', { name: /Name of/ }).last();
      await field.fill(name);
      await field.press('Enter');
    }
    await page.getByRole('tab', { name: 'Locations' }).click();

    // Three locations, placed with the mouse, in the two groups.
    await addLocationAt(page, 0.3, 0.45, 'Blue Harbour Roastery', 'Roasters');
    await addLocationAt(page, 0.55, 0.35, 'Café Lumière', 'Cafés');
    await addLocationAt(page, 0.7, 0.6, 'Kopi Corner', 'Cafés');
    await page.getByText('All changes saved').waitFor({ timeout: TIMEOUT });

    // The second editor sees them appear, without reloading.
    for (const title of ['Blue Harbour Roastery', 'Café Lumière', 'Kopi Corner']) {
      await locationButton(other, title).waitFor({ state: 'attached', timeout: TIMEOUT });
    }

    // A drag moves a marker; undo takes the move back, in both editors.
    const box = (await page.locator('.ed-canvas .mf-viewport').boundingBox())!;
    const from = { x: box.x + box.width * 0.7, y: box.y + box.height * 0.6 };
    await addTool(page).click();
    await clickMap(page, 0.85, 0.2);
    await page.getByLabel('Title', { exact: true }).fill('Temporary');
    await page.getByText('All changes saved').waitFor({ timeout: TIMEOUT });
    await locationButton(other, 'Temporary').waitFor({ state: 'attached', timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Undo' }).click();
    await locationButton(other, 'Temporary').waitFor({ state: 'detached', timeout: TIMEOUT });
    const positionOf = async (title: string) => {
      const data = (await (await page.request.get(`/api/maps/${mapId}/data`)).json()) as { result: { data: { locations: Array<{ title: string; position: { x: number; y: number } | null }> } } };
      return data.result.data.locations.find((location) => location.title === title)!.position!;
    };
    const before = await positionOf('Kopi Corner');
    // The pin's point is its tip: press a little above it, on the pin's head.
    await page.mouse.move(from.x, from.y - 12);
    await page.mouse.down();
    await page.mouse.move(from.x + 60, from.y + 18, { steps: 8 });
    await page.mouse.up();
    await page.getByText('All changes saved').waitFor({ timeout: TIMEOUT });
    await expect.poll(async () => (await positionOf('Kopi Corner')).x, { timeout: TIMEOUT }).toBeGreaterThan(before.x);
    expect((await positionOf('Kopi Corner')).y).toBeGreaterThan(before.y);

    // The published look, with the latest edits (a test map: its owner sees it).
    await page.goto(`/m/${mapId}`);
    const search = page.getByRole('searchbox', { name: 'Search locations' }).or(page.getByLabel('Search locations'));
    await search.first().fill('lumiere');
    const results = page.getByRole('list', { name: 'Locations' }).first();
    await results.getByRole('button', { name: /Café Lumière/ }).waitFor({ timeout: TIMEOUT });
    expect(await results.getByRole('button', { name: /Kopi Corner/ }).count()).toBe(0);
    await search.first().fill('');
    await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: /Roasters/ }).click();
    await results.getByRole('button', { name: /Blue Harbour Roastery/ }).waitFor({ timeout: TIMEOUT });
    expect(await results.getByRole('button', { name: /Kopi Corner/ }).count()).toBe(0);
    await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: /Roasters/ }).click();

    // The popup by keyboard: focus a location's button on the map, Enter, Esc.
    const kopi = page.locator('.mf-map .mf-a11y').getByRole('button', { name: /Kopi Corner/ });
    await kopi.focus();
    await page.keyboard.press('Enter');
    const popup = page.getByRole('dialog', { name: /Kopi Corner/ });
    await popup.waitFor({ timeout: TIMEOUT });
    await expect.poll(() => popup.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
    // The focus comes back once the closed popup's render has been committed (an effect, after the removal).
    await expect.poll(() => kopi.evaluate((element) => element === document.activeElement)).toBe(true);

    // A deep link opens the location; the back button closes it.
    const locationId = await page.locator('.mf-map .mf-a11y').getByRole('button', { name: /Café Lumière/ }).getAttribute('data-location');
    await page.goto(`/m/${mapId}`);
    await page.goto(`/m/${mapId}?location=${locationId}`);
    await page.getByRole('dialog', { name: /Café Lumière/ }).waitFor({ timeout: TIMEOUT });
    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe('');

    await first.close();
    await second.close();
  });

  it('the demo map opens for exploring when signed out: edits stay in the tab', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto('/demo');
    await page.waitForURL(/\/maps\/demo$/, { timeout: TIMEOUT });
    await page.getByText(/You are exploring/).waitFor({ timeout: TIMEOUT });
    // On a phone the status is short ("Not saved"); its title says it whole.
    await page.getByTitle('Changes stay in this tab').waitFor();
    const count = await page.locator('.ed-canvas .mf-a11y button').count();
    expect(count).toBeGreaterThan(5);
    await addTool(page).click();
    await clickMap(page, 0.5, 0.5);
    await page.getByLabel('Title', { exact: true }).waitFor({ timeout: TIMEOUT });
    expect(await page.locator('.ed-canvas .mf-a11y button').count()).toBe(count + 1);
    await page.getByRole('link', { name: 'Sign up to save your own maps' }).waitFor();
    await context.close();
  });
});
