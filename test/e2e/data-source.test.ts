/**
 * The editor's "Data source" section (issue 30 item 4) in Chromium, against a local HTTP
 * server serving a real CSV (test/fixtures/realworld/csv's airports; ALLOW_LOOPBACK_TARGETS=1):
 * the address, key column and schedule saved; the first sync previewed, then applied; the sheet
 * changed and "Sync now" says what it did ("Sync from … : 3 added, 2 changed, 1 removed"); Undo
 * takes the whole sync back, so the next sync finds those titles overridden and lists them;
 * "Use the source for all" takes the source's, undone as one step. Screenshots of the section
 * at 1280 and 375 px wide.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { createMapAs, registerUser } from '../support/test-server.js';
import { lookAt } from './support/look-at.js';

const TIMEOUT = 20_000;
const airports = readFileSync(path.join(import.meta.dirname, '../fixtures/realworld/csv/vega-airports.csv'), 'utf8').split('\n');
const first = [airports[0], ...airports.slice(1, 11)].join('\n');
const later = [airports[0], ...airports.slice(2, 11).map((line, index) => (index < 2 ? line.replace(/^([^,]+),([^,]+),/, '$1,$2 (renamed),') : line)), ...airports.slice(11, 14)].join('\n');

describe('a map’s data source in the editor', () => {
  const session = useBrowserSession({ env: { ALLOW_LOOPBACK_TARGETS: '1' } });
  let source: Server;
  let sourceUrl: string;
  let sheet = first;

  beforeAll(async () => {
    source = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/csv' }).end(sheet));
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/stores.csv`;
  });
  afterAll(() => new Promise((resolve) => source?.close(resolve)));

  it('saves the source, previews and applies the first sync, syncs a changed sheet, and undoes it', { timeout: 120_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const mapId = await createMapAs(server, owner, 'Airports');
    for (const width of [1280, 375]) {
      sheet = first;
      const context = await signedInContext(browser, server, owner, { width, height: 900 });
      const page = await context.newPage();
      if (width === 375) {
        await page.goto(`/maps/${mapId}`);
        await page.getByRole('tab', { name: 'Data' }).click();
        const section = page.getByRole('region', { name: 'Data source' });
        await section.waitFor({ timeout: TIMEOUT });
        await expect.poll(() => section.getByLabel('Address').inputValue(), { timeout: TIMEOUT }).toBe(sourceUrl);
        await lookAt(section, `data-source-${width}`);
        await context.close();
        continue;
      }
      await page.goto(`/maps/${mapId}`);
      await page.getByRole('tab', { name: 'Data' }).click();
      const section = page.getByRole('region', { name: 'Data source' });
      await section.waitFor({ timeout: TIMEOUT });
      await section.getByLabel('Address').fill(sourceUrl);
      await section.getByLabel('Key column').fill('iata');
      await section.getByLabel('Sync').selectOption('hourly');
      await section.getByRole('button', { name: 'Save data source' }).click();
      await section.getByRole('button', { name: 'Preview first sync' }).click();
      await section.getByText('The first sync would add 10 locations.').waitFor({ timeout: TIMEOUT });
      await section.getByRole('button', { name: 'Apply first sync' }).click();
      await section.getByText('Sync from stores.csv: 10 added, 0 changed, 0 removed.').waitFor({ timeout: TIMEOUT });

      sheet = later;
      await section.getByRole('button', { name: 'Sync now' }).click();
      await section.getByText('Sync from stores.csv: 3 added, 2 changed, 1 removed.').waitFor({ timeout: TIMEOUT });
      await lookAt(section, `data-source-${width}`);

      // The sync is one undo step.
      const undo = page.getByRole('button', { name: 'Undo' });
      await expect.poll(() => undo.isEnabled(), { timeout: TIMEOUT }).toBe(true);
      await undo.click();
      await page.getByText('All changes saved').waitFor({ timeout: TIMEOUT });
      const data = (await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as { result: { data: { locations: Array<{ id: string; title: string }> } } };
      const locations = data.result.data.locations;
      expect(locations).toHaveLength(10);
      expect(locations.some((l) => l.id === '00M')).toBe(true);
      expect(locations.some((l) => l.title.includes('(renamed)'))).toBe(false);

      // The undo put back the titles the sync had renamed: the next sync keeps them (overridden) and lists them.
      await section.getByRole('button', { name: 'Sync now' }).click();
      await section.getByText('2 fields edited in Mapfold were kept (overridden).', { exact: false }).waitFor({ timeout: TIMEOUT });
      const overridden = section.getByRole('group', { name: /Overridden fields 2/ });
      await overridden.waitFor({ timeout: TIMEOUT });
      await expect.poll(() => overridden.getByRole('listitem').count(), { timeout: TIMEOUT }).toBe(2);
      await overridden.getByRole('listitem').first().getByText('Livingston Municipal (renamed)').waitFor({ timeout: TIMEOUT });
      await lookAt(section, `data-source-overridden-${width}`);
      // "Use the source for all": recorded as one change, one undo step.
      await overridden.getByRole('button', { name: 'Use the source for all' }).click();
      await section.getByText('Used the source’s value for 2 fields.').waitFor({ timeout: TIMEOUT });
      await expect.poll(() => section.getByRole('group', { name: /Overridden fields/ }).count(), { timeout: TIMEOUT }).toBe(0);
      const titles = async () =>
        ((await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as { result: { data: { locations: Array<{ title: string }> } } }).result.data.locations.filter((l) => l.title.includes('(renamed)')).length;
      await expect.poll(titles, { timeout: TIMEOUT }).toBe(2);
      await expect.poll(() => undo.isEnabled(), { timeout: TIMEOUT }).toBe(true);
      await undo.click();
      await expect.poll(titles, { timeout: TIMEOUT }).toBe(0);
      await context.close();
    }
  });
});
