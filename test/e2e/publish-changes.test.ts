/**
 * Drafts, review and publishing in Chromium (issue 27, item 3): a published map edited after
 * its publish shows "Published revision N · M changes not published" in the Publish panel with
 * what changed, and in each changed record what changed in it; "Publish changes" puts them on
 * the public JSON; a roll back to a saved version serves that version. A changed location's
 * name in the review shows it on the map, with where it stood when published. Screenshots of the panel at 1280 and 375 wide on the way.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';
import { lookAt } from './support/look-at.js';

const TIMEOUT = 20_000;

const document = {
  version: 2,
  settings: { ...defaultSettings(), size: { width: 1000, height: 600 }, defaultLayer: 'ground' },
  styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
  layers: [{ id: 'ground', name: 'Ground floor', file: null }, { id: 'first', name: 'First floor', file: null }],
  groups: [{ id: 'food', name: 'Food & drink', color: '#ea580c' }],
  locations: [
    { id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 100, y: 200 }, groups: ['food'] },
    { id: 'shoes', title: 'Shoe Corner', layer: 'ground', position: { x: 300, y: 200 } },
    { id: 'books', title: 'Book Nook', layer: 'first', position: { x: 200, y: 300 } },
  ],
};

async function ok(server: TestServer, name: string, data: unknown, user: TestUser) {
  const answer = await call(server, name, data, user);
  if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  if (answer.body.position) await projected(server, answer.body.position);
  return answer.body;
}

async function publicTitles(server: TestServer, mapId: string): Promise<string[]> {
  const response = await fetch(`${server.url}/api/public/maps/${mapId}`);
  const body = (await response.json()) as { result: { data: { locations: Array<{ title: string }> } } };
  return body.result.data.locations.map((location) => location.title);
}

async function openPublish(page: Page, mapId: string) {
  await page.goto(`/maps/${mapId}`);
  await page.getByRole('tab', { name: 'Publish' }).click();
  await page.getByTestId('publish-summary').waitFor({ timeout: TIMEOUT });
}

describe('publishing changes in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  // Chromium and a whole test server: slow to start on a machine other suites share.
  beforeAll(async () => {
    session = await startBrowserSession();
  }, 240_000);
  afterAll(() => session?.close());

  it('reviews the changes since the published revision, publishes them and rolls back', { timeout: 360_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const admin = await registerUser(server, 'admin@example.com');
    const mapId = (await ok(server, 'createMap', { title: 'Harbour Market', mapData: document }, owner)).result as string;
    await ok(server, 'saveMapHistory', { mapId, name: 'Opening day' }, owner);
    // In a slot: its first publish.
    await ok(server, 'adminUpdateMap', { id: mapId, state: 1 }, admin);
    // Edits after the publish: a draft.
    await ok(
      server,
      'editMap',
      {
        id: mapId,
        edits: [
          { type: 'LocationUpdated', id: 'cafe', changes: { title: 'Tea Room', position: { x: 160, y: 240 } } },
          { type: 'LocationAdded', location: { id: 'bank', title: 'Harbour Bank', layer: 'ground', position: { x: 500, y: 100 } } },
          { type: 'LocationRemoved', id: 'shoes' },
          { type: 'LayerRenamed', id: 'first', name: 'Gallery' },
        ],
      },
      owner,
    );
    await expect.poll(() => publicTitles(server, mapId), { timeout: TIMEOUT }).toEqual(['Café Noir', 'Shoe Corner', 'Book Nook']);

    for (const width of [1280, 375]) {
      const context = await signedInContext(browser, server, owner, { width, height: width > 500 ? 900 : 800 });
      const page = await context.newPage();
      await openPublish(page, mapId);
      await expect.poll(() => page.getByTestId('publish-summary').textContent(), { timeout: TIMEOUT }).toMatch(/^Published revision \d+ · , 4 changes not published$/);
      const review = page.locator('.pc-review');
      for (const line of ['Changed location “Tea Room”', 'Added location “Harbour Bank”', 'Removed location “Shoe Corner”', 'Changed floor “Gallery”']) {
        await expect.poll(() => review.textContent()).toContain(line);
      }
      // Each changed record says what changed in it, on a quieter line under its name (parted
      // by dots seen and by "; " heard).
      const details = (name: string) => review.locator('.pc-item', { hasText: name }).locator('.pc-details').textContent();
      await expect.poll(() => details('Tea Room')).toBe('Renamed “Café Noir” → “Tea Room” · ; moved');
      await expect.poll(() => details('Gallery')).toBe('Renamed “First floor” → “Gallery”');
      await page.getByRole('radiogroup', { name: 'Publish edits' }).scrollIntoViewIfNeeded();
      await lookAt(page.locator('.pc'), `publish-changes-${width}`);
      await lookAt(page, `publish-changes-page-${width}`);
      // A changed location's name shows it on the map, with a faint ring where it stood when
      // published (it moved); on a phone the panel gives way to the map.
      await review.getByRole('button', { name: 'location “Tea Room”' }).click();
      await page.getByTestId('published-ghost').locator('.ed-published-ghost__ring').waitFor({ timeout: TIMEOUT });
      if (width < 500) await expect.poll(() => page.locator('.pc').isVisible(), { timeout: TIMEOUT }).toBe(false);
      await lookAt(page, `publish-changes-shown-${width}`);
      await context.close();
    }

    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    await openPublish(page, mapId);
    await page.getByRole('button', { name: 'Publish changes' }).click();
    await expect.poll(() => page.getByTestId('publish-summary').textContent(), { timeout: TIMEOUT }).toMatch(/no changes to publish$/);
    await expect.poll(() => publicTitles(server, mapId), { timeout: TIMEOUT }).toEqual(['Tea Room', 'Book Nook', 'Harbour Bank']);

    // Roll back to the version saved before the edits.
    const versions = page.getByLabel('Roll back the public map to');
    const opening = await versions.locator('option', { hasText: 'Opening day' }).getAttribute('value');
    await versions.selectOption(opening!);
    await page.getByRole('button', { name: 'Roll back' }).click();
    await expect.poll(() => publicTitles(server, mapId), { timeout: TIMEOUT }).toEqual(['Café Noir', 'Shoe Corner', 'Book Nook']);
    await expect.poll(() => page.getByTestId('publish-summary').textContent(), { timeout: TIMEOUT }).toMatch(/4 changes not published$/);
    await lookAt(page.locator('.pc'), 'publish-changes-rolled-back-1280');
    await context.close();
  });
});
