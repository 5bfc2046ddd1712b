/**
 * History in Chromium (issue 8): edits, a version saved and named, more edits, the version
 * restored while a second browser has the editor open and sees the restore; then the timeline,
 * three revisions back, shows the earlier map.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { call, projected, registerUser } from '../support/test-server.js';

const TIMEOUT = 15_000;

const canvasButton = (page: Page, title: string) => page.locator('.ed-canvas .mf-a11y').getByRole('button', { name: title, exact: true });

async function addLocation(page: Page, fx: number, fy: number, title: string) {
  await page.getByRole('tab', { name: 'Locations' }).click();
  await page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Add location' }).click();
  const box = (await page.locator('.ed-canvas .mf-viewport').boundingBox())!;
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
  const field = page.getByLabel('Title', { exact: true });
  await field.waitFor({ timeout: TIMEOUT });
  await field.fill(title);
  await page.getByRole('button', { name: 'All locations' }).click();
  await page.getByText('All changes saved').waitFor({ timeout: TIMEOUT });
}

describe('history in Chromium', () => {
  const session = useBrowserSession();

  it('saves and names a version, restores it while another editor watches, and steps back in the timeline', { timeout: 120_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const made = await call(server, 'createMap', { title: 'Harbour Market' }, owner);
    await projected(server, made.body.position);
    const mapId = made.body.result as string;

    const first = await signedInContext(browser, server, owner);
    const page = await first.newPage();
    await page.goto(`/maps/${mapId}`);
    await page.getByRole('textbox', { name: 'Map title' }).waitFor();
    await addLocation(page, 0.3, 0.4, 'Fish stall');
    await addLocation(page, 0.6, 0.4, 'Oyster bar');

    // A version, saved and then renamed.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByLabel('Name (optional)').fill('First draft');
    await page.getByRole('button', { name: 'Save version' }).click();
    const versions = page.getByRole('list', { name: 'Versions' });
    await versions.getByText('First draft').waitFor({ timeout: TIMEOUT });
    await page.getByRole('group', { name: 'Actions for “First draft”' }).getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByLabel('New name for “First draft”');
    await rename.fill('Before launch');
    await rename.press('Enter');
    await versions.getByText('Before launch').waitFor({ timeout: TIMEOUT });

    // More edits.
    await addLocation(page, 0.45, 0.7, 'Kiosk');

    // A second browser on the same editor.
    const second = await signedInContext(browser, server, owner);
    const other = await second.newPage();
    await other.goto(`/maps/${mapId}`);
    await canvasButton(other, 'Kiosk').waitFor({ state: 'attached', timeout: TIMEOUT });

    // Restore: the second editor sees the Kiosk go, without reloading.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('group', { name: 'Actions for “Before launch”' }).getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await canvasButton(other, 'Kiosk').waitFor({ state: 'detached', timeout: TIMEOUT });
    expect(await canvasButton(other, 'Oyster bar').count()).toBe(1);
    await canvasButton(page, 'Kiosk').waitFor({ state: 'detached', timeout: TIMEOUT });
    // The map as it was is kept as a version: the restore can be undone.
    await versions.getByText('Before restoring “Before launch”').waitFor({ timeout: TIMEOUT });

    // The timeline: the restore in words, and three revisions back, the earlier map.
    await page.getByRole('button', { name: 'Open the timeline' }).click();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText(/restored “Before launch”/).first().waitFor({ timeout: TIMEOUT });
    const slider = timeline.getByRole('slider', { name: 'Revision' });
    const latest = Number(await slider.inputValue());
    for (let i = 0; i < 3; i++) await timeline.getByRole('button', { name: 'Previous revision' }).click();
    await expect.poll(async () => Number(await slider.inputValue())).toBe(latest - 3);
    // Three back from the restore (the version kept before it, the Kiosk's title, then the
    // location just placed): the third location is on the map, as it was when it was added.
    const oldMap = timeline.locator('.mf-a11y');
    await oldMap.getByRole('button', { name: 'New location', exact: true }).waitFor({ state: 'attached', timeout: TIMEOUT });
    expect(await oldMap.getByRole('button').count()).toBe(3);
    await timeline.getByText(/^1 location differs from the current map: New location/).waitFor({ timeout: TIMEOUT });

    await first.close();
    await second.close();
  });
});
