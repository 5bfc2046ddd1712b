/**
 * IMDF from the editor's Data panel in Chromium (issue 28, item 5): the owner of a copy of the
 * demo mall sees every check done and downloads the archive (a zip of the IMDF files); a plain
 * map's checklist says what it lacks. Screenshots at 1280 and 375 when SCREENSHOTS is set.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoMallDocument } from '../../server/seed/demo-mall.js';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { createMapAs, registerUser } from '../support/test-server.js';

const SHOTS = process.env.SCREENSHOTS ?? '';
const TIMEOUT = 30_000;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

async function openData(page: Page, mapId: string): Promise<void> {
  await page.goto(`/maps/${mapId}`);
  await page.getByRole('tab', { name: 'Data' }).click({ timeout: TIMEOUT });
  await page.getByRole('heading', { name: 'IMDF (Apple Maps)' }).waitFor({ timeout: TIMEOUT });
}

describe('IMDF in the Data panel', () => {
  const session = useBrowserSession();

  it('downloads the mall’s archive once every check is done, and lists what a plain map lacks', { timeout: 120_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const mall = await createMapAs(server, owner, 'Riverside Mall', demoMallDocument());
    const plain = await createMapAs(server, owner, 'Plain plan');
    // The phone's width only for the screenshots: the same panel, and CI's minutes are few.
    for (const viewport of [{ width: 1280, height: 800 }, ...(SHOTS ? [{ width: 375, height: 812 }] : [])]) {
      const context = await signedInContext(browser, server, owner, viewport);
      const page = await context.newPage();
      await openData(page, mall);
      const section = page.getByRole('region', { name: 'IMDF (Apple Maps)' });
      await section.scrollIntoViewIfNeeded();
      expect(await section.getByText(/: done$/).count()).toBe(2);
      if (SHOTS) await section.screenshot({ path: path.join(SHOTS, `imdf-data-panel-${viewport.width}.png`), animations: 'disabled' });
      if (viewport.width === 1280) {
        const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), section.getByRole('link', { name: 'Download IMDF (Apple Maps)' }).click()]);
        expect(download.suggestedFilename()).toBe('Riverside-Mall-imdf.zip');
        const entries = unzipSync(new Uint8Array(readFileSync(await download.path())));
        expect(Object.keys(entries)).toContain('occupant.geojson');
      }
      await openData(page, plain);
      const lacking = page.getByRole('region', { name: 'IMDF (Apple Maps)' });
      expect(await lacking.getByText(/: missing$/).count()).toBe(2);
      expect(await lacking.getByRole('button', { name: 'Download IMDF (Apple Maps)' }).isDisabled()).toBe(true);
      if (SHOTS) await lacking.screenshot({ path: path.join(SHOTS, `imdf-data-panel-missing-${viewport.width}.png`), animations: 'disabled' });
      await context.close();
    }
  });
});
