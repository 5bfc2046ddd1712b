/**
 * Starting a map from files as a new user does, for the e2e tests of imports: /maps/new's
 * "Import a file", the preview, its import button, then the new map's editor.
 */
import type { Page } from 'playwright-core';
import type { MapDocument } from '../../../events/map-document.js';

/** /maps/new → "Import a file" with `files` → the preview's import button → the new map's editor; its id. */
export async function startMapFromFiles(page: Page, files: Parameters<Page['setInputFiles']>[1], previewName: string, timeout: number): Promise<string> {
  await page.goto('/maps/new');
  await page.getByRole('radio', { name: /Import a file/ }).check();
  await page.getByLabel('Choose files').setInputFiles(files);
  await page.getByRole('button', { name: 'Create map' }).click();
  const preview = page.getByRole('region', { name: previewName });
  await preview.waitFor({ timeout });
  await preview.getByRole('button', { name: /^Import \d+ locations?$/ }).click();
  await page.waitForURL((url) => /^\/maps\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.pathname !== '/maps/new', { timeout });
  await page.getByRole('textbox', { name: 'Map title' }).waitFor({ timeout });
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** The map's document as its editor reads it. */
export async function documentOf(page: Page, mapId: string): Promise<MapDocument> {
  return ((await (await page.request.get(`/api/maps/${mapId}/data`)).json()) as { result: { data: MapDocument } }).result.data;
}
